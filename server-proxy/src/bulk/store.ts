/**
 * Bulk vetting jobs in the proxy's database (SQLite migration 5, PostgreSQL migration 8; the same
 * SQL on both engines): `bulk_job` and one `bulk_item` per identifier. The job state machine lives
 * here, so the routes and the runner cannot disagree:
 *
 *   queued → running → done | failed;  queued | running ⇄ paused;  failed → queued (resume);
 *   queued | running | paused → cancelled
 *
 * Items go pending → done | failed, and pending → cancelled when their job is cancelled. Every write
 * is one short transaction: an item's result is committed the moment it finishes, so a killed
 * process loses at most the item in flight, which is still pending when a replica (this one after
 * a restart, or another) takes the job up again.
 *
 * Which process works a job is a lease in the same database (`bulk-job:<id>`, ../sql/lease.ts), so
 * that however many replicas share it, a job is worked by one of them at a time.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type {
  BulkEstimate,
  BulkItem,
  ItemResult,
  ItemStatus,
  JobStatus,
} from '../../../src/lib/bulk/contract.ts';
import type { Identifier } from '../../../src/lib/service/rules/entries.ts';
import type { SqlEngine, SqlExecutor, SqlParam } from '../sql/engine.ts';
import { acquireLease, releaseLease } from '../sql/lease.ts';
import { guardWrites } from '../sql/write-guard.ts';

export type JobAction = 'pause' | 'resume' | 'cancel' | 'retry-failed';

/** Why an action cannot apply to a job in its current state (→ 409 with this hint). */
interface Refusal {
  code: string;
  message: string;
  hint: string;
}

export interface JobRow {
  seq: number;
  id: string;
  status: JobStatus;
  created_at: string;
  updated_at: string;
  created_by: string;
  total: number;
  estimate: BulkEstimate;
  done: number;
  failed: number;
  /** items folded into another item's carrier (a docket whose DOT the job also lists) */
  merged: number;
  pause_reason: { code: string; message: string } | null;
}

/** A job row as either engine answers it (PostgreSQL's bigints and counts come as strings). */
interface RawJob {
  seq: number | string;
  id: string;
  status: JobStatus;
  created_at: string;
  updated_at: string;
  created_by: string;
  total: number | string;
  estimate: string;
  pause_code: string | null;
  pause_message: string | null;
  done: number | string;
  failed: number | string;
  merged: number | string;
}

interface RawItem {
  position: number | string;
  identifier: string;
  kind: 'dot' | 'docket';
  lookup: string;
  dot_number: string | null;
  status: ItemStatus;
  verdict: 'pass' | 'review' | 'fail' | null;
  result: string | null;
  error_code: string | null;
  error_message: string | null;
  source: 'cache' | 'stored' | 'upstream' | null;
  attempts: number | string;
  finished_at: string | null;
}

/** The next item the runner works on. */
export interface PendingItem {
  position: number;
  kind: 'dot' | 'docket';
  /** the DOT number or the docket, as the service's profile search takes it */
  lookup: string;
  attempts: number;
}

export type ItemOutcome =
  | {
      status: 'done';
      dot: string | null;
      result: ItemResult;
      source: 'cache' | 'stored' | 'upstream';
    }
  | { status: 'failed'; dot: string | null; code: string; message: string };

/** A result stored by an earlier item: reused instead of a new call while fresh. */
interface StoredResult {
  dot: string;
  result: ItemResult;
  finished_at: string;
}

const JOB_COLUMNS = `j.seq, j.id, j.status, j.created_at, j.updated_at, j.created_by, j.total,
  j.estimate, j.pause_code, j.pause_message,
  (SELECT COUNT(*) FROM bulk_item i WHERE i.job_seq = j.seq AND i.status = 'done') AS done,
  (SELECT COUNT(*) FROM bulk_item i WHERE i.job_seq = j.seq AND i.status = 'failed') AS failed,
  (SELECT COUNT(*) FROM bulk_item i WHERE i.job_seq = j.seq AND i.source = 'merged') AS merged`;

/**
 * An item whose carrier another item of the job already stands for (a docket resolved to a DOT
 * the job also lists): `source = 'merged'`, done with a copy of that item's result. It is not
 * listed; its input is shown among that item's `inputs`. (No schema change: the column is free
 * text on both engines.)
 */
const MERGED = 'merged';
const NOT_MERGED = `COALESCE(source, '') <> '${MERGED}'`;

const ITEM_COLUMNS = `position, identifier, kind, lookup, dot_number, status, verdict, result,
  error_code, error_message, source, attempts, finished_at`;

/** Items inserted by one statement (7 parameters each: well under either engine's limit). */
const INSERT_CHUNK = 500;

/** The lease a job's runner holds while it works the job. */
export function jobLeaseName(id: string): string {
  return `bulk-job:${id}`;
}

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The line or row of each item (by position) is kept in the job's estimate JSON as `item_rows`
 * (no schema change on either engine); the estimate the contract shows goes without it.
 */
interface StoredEstimate extends BulkEstimate {
  item_rows?: number[];
}

function estimateOf(text: string): BulkEstimate {
  const { item_rows: _rows, ...estimate } = (parseJson(text) ?? {}) as StoredEstimate;
  return estimate;
}

function itemRowsOf(text: string | null | undefined): number[] {
  const rows = (parseJson(text ?? null) as StoredEstimate | undefined)?.item_rows;
  return Array.isArray(rows) ? rows : [];
}

function toJob(raw: RawJob): JobRow {
  return {
    seq: Number(raw.seq),
    id: raw.id,
    status: raw.status,
    created_at: raw.created_at,
    updated_at: raw.updated_at,
    created_by: raw.created_by,
    total: Number(raw.total),
    estimate: estimateOf(raw.estimate),
    done: Number(raw.done),
    failed: Number(raw.failed),
    merged: Number(raw.merged),
    pause_reason:
      raw.pause_code === null ? null : { code: raw.pause_code, message: raw.pause_message ?? '' },
  };
}

function toItem(raw: RawItem, rows: readonly number[]): BulkItem {
  const result = parseJson(raw.result) as ItemResult | undefined;
  const position = Number(raw.position);
  return {
    position,
    row: rows[position - 1] ?? position,
    identifier: raw.identifier,
    ...(raw.dot_number === null ? {} : { dot_number: raw.dot_number }),
    status: raw.status,
    ...(raw.verdict === null ? {} : { verdict: raw.verdict }),
    ...(result === undefined ? {} : { result }),
    ...(raw.error_code === null
      ? {}
      : { error: { code: raw.error_code, message: raw.error_message ?? '' } }),
    ...(raw.source === null ? {} : { source: raw.source }),
    attempts: Number(raw.attempts),
    ...(raw.finished_at === null ? {} : { finished_at: raw.finished_at }),
  };
}

const CAN: Record<JobAction, readonly JobStatus[]> = {
  pause: ['queued', 'running'],
  // a job the runner failed (its own errors) may be tried again
  resume: ['paused', 'failed'],
  cancel: ['queued', 'running', 'paused'],
  'retry-failed': ['queued', 'running', 'paused', 'done', 'failed'],
};

const HINTS: Record<JobAction, string> = {
  pause: 'Only a queued or running job can be paused.',
  resume: 'Only a paused (or failed) job can be resumed.',
  cancel: 'A finished or cancelled job cannot be cancelled; start a new job instead.',
  'retry-failed':
    'Failed items of a cancelled job are not retried; start a new job with those identifiers.',
};

export interface BulkStore {
  readonly kind: SqlEngine['kind'];
  create(input: {
    /** with the line or row each was given on (default: its place in the list) */
    identifiers: readonly (Identifier & { position?: number })[];
    estimate: BulkEstimate;
    user: string;
    at: Date;
  }): Promise<JobRow>;
  job(id: string): Promise<JobRow | undefined>;
  jobs(): Promise<JobRow[]>;
  /**
   * A page of the job's items in list order, with their line or row; items merged into another
   * one's carrier are left out of the page and shown in that item's `inputs`.
   */
  items(
    seq: number,
    page: { offset: number; limit: number; status?: ItemStatus },
  ): Promise<BulkItem[]>;
  /** Apply a user's action; a refusal when the job's state does not allow it. */
  act(
    id: string,
    action: JobAction,
    at: Date,
  ): Promise<{ ok: true; job: JobRow } | ({ ok: false } & Refusal)>;
  /** Jobs to run, in order: running ones (left by a restart or a dead replica) first, then queued. */
  runnable(limit?: number): Promise<JobRow[]>;
  /** queued → running; false when the job was paused, cancelled or finished meanwhile. */
  start(seq: number, at: Date): Promise<boolean>;
  status(seq: number): Promise<JobStatus | undefined>;
  nextPending(seq: number): Promise<PendingItem | undefined>;
  /**
   * Commit one item's outcome (only while the item is still pending). A carrier found done under
   * another item of the job (same DOT) is merged into it; pending DOT items naming the carrier
   * just found are merged into this one (no call of their own).
   */
  finish(seq: number, position: number, outcome: ItemOutcome, at: Date): Promise<void>;
  /** running → paused by the runner, with why (the item in hand stays pending). */
  pauseFor(seq: number, reason: { code: string; message: string }, at: Date): Promise<void>;
  /** running → done (no pending item left). */
  complete(seq: number, at: Date): Promise<void>;
  /** queued | running → failed: the runner could not go on (e.g. the database refused a write). */
  fail(seq: number, reason: { code: string; message: string }, at: Date): Promise<void>;
  /** The freshest done result of a DOT since `since` (ISO), from any job. */
  storedResult(dot: string, since: string): Promise<StoredResult | undefined>;
  /** Finish times of the job's latest done or failed items, newest first. */
  recentFinishes(seq: number, limit: number): Promise<string[]>;
  /** Take or renew the job's lease for `holder`; false while another holder's has not lapsed. */
  claim(id: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Give the job's lease up (when `holder` has it). */
  release(id: string, holder: string): Promise<void>;
  /** Drop every job lease (SQLite: the file is one process's, so a lease left is a dead one's). */
  dropLeases(): Promise<void>;
}

export interface BulkStoreOptions {
  /**
   * The SQLite proxy file under `sql` (when it is SQLite): writes go through its Storage, so a
   * refusing file is a 503 storage_unavailable as for the other stores.
   */
  db?: Database.Database;
}

async function insertItems(tx: SqlExecutor, seq: number, identifiers: readonly Identifier[]) {
  for (let from = 0; from < identifiers.length; from += INSERT_CHUNK) {
    const chunk = identifiers.slice(from, from + INSERT_CHUNK);
    const params: SqlParam[] = [];
    chunk.forEach((identifier, index) => {
      const lookup = identifier.kind === 'dot' ? identifier.dot : identifier.docket;
      const dot = identifier.kind === 'dot' ? identifier.dot : null;
      params.push(seq, from + index + 1, identifier.input, identifier.kind, lookup, dot);
    });
    const rows = chunk.map(() => "(?, ?, ?, ?, ?, ?, 'pending')").join(', ');
    await tx.run(
      `INSERT INTO bulk_item (job_seq, position, identifier, kind, lookup, dot_number, status)
       VALUES ${rows}`,
      params,
    );
  }
}

const SET_STATUS =
  'UPDATE bulk_job SET status = ?, updated_at = ?, pause_code = NULL, pause_message = NULL WHERE seq = ?';

export function createBulkStore(sql: SqlEngine, options: BulkStoreOptions = {}): BulkStore {
  const write =
    options.db === undefined
      ? <T>(fn: () => Promise<T>): Promise<T> => fn()
      : guardWrites(sql, options.db);

  const readJob = async (on: SqlExecutor, where: string, param: SqlParam) => {
    const rows = await on.query<RawJob>(
      `SELECT ${JOB_COLUMNS} FROM bulk_job j WHERE ${where} = ?`,
      [param],
    );
    return rows[0] ? toJob(rows[0]) : undefined;
  };

  /** The action's writes, in a transaction whose first statement locks the job's row. */
  const applyAction = (id: string, action: JobAction, at: string) =>
    sql.transaction(async (tx): Promise<{ ok: true } | ({ ok: false } & Refusal)> => {
      // A no-op update takes the row's lock (PostgreSQL; SQLite's BEGIN IMMEDIATE locks the file),
      // so two replicas acting on one job at once take turns, each reading the other's outcome.
      const locked = await tx.run('UPDATE bulk_job SET updated_at = updated_at WHERE id = ?', [id]);
      const job = locked.changes > 0 ? await readJob(tx, 'j.id', id) : undefined;
      if (!job) throw new Error(`no job ${id}`);
      if (!CAN[action].includes(job.status)) {
        return {
          ok: false,
          code: 'invalid_transition',
          message: `Job ${id} is ${job.status}: it cannot ${action === 'retry-failed' ? 'retry its failed items' : action}`,
          hint: HINTS[action],
        };
      }
      switch (action) {
        case 'pause':
          await tx.run(SET_STATUS, ['paused', at, job.seq]);
          break;
        case 'resume':
          await tx.run(SET_STATUS, ['queued', at, job.seq]);
          break;
        case 'cancel':
          await tx.run(
            "UPDATE bulk_item SET status = 'cancelled' WHERE job_seq = ? AND status = 'pending'",
            [job.seq],
          );
          await tx.run(SET_STATUS, ['cancelled', at, job.seq]);
          break;
        case 'retry-failed': {
          if (job.failed === 0) {
            return {
              ok: false,
              code: 'nothing_to_retry',
              message: `Job ${id} has no failed item`,
              hint: 'Only failed items are retried; done items keep their result.',
            };
          }
          await tx.run(
            `UPDATE bulk_item SET status = 'pending', error_code = NULL, error_message = NULL,
               finished_at = NULL
             WHERE job_seq = ? AND status = 'failed'`,
            [job.seq],
          );
          // A finished job runs again for its failed items; a paused one stays paused.
          if (job.status === 'done' || job.status === 'failed')
            await tx.run(SET_STATUS, ['queued', at, job.seq]);
          else await tx.run('UPDATE bulk_job SET updated_at = ? WHERE seq = ?', [at, job.seq]);
          break;
        }
      }
      return { ok: true };
    });

  /**
   * A done carrier is merged when another item of the job already has it done (this item is then
   * a second input of that carrier); else the pending DOT items naming it are merged into this one.
   * Answers whether this item was merged (or is no longer pending: nothing to write).
   */
  const mergeDone = async (
    tx: SqlExecutor,
    seq: number,
    position: number,
    outcome: Extract<ItemOutcome, { status: 'done' }> & { dot: string },
    at: string,
  ): Promise<boolean> => {
    const mergedFields = [outcome.dot, outcome.result.verdict, JSON.stringify(outcome.result), at];
    const own = await tx.query<{ status: ItemStatus; kind: 'dot' | 'docket' }>(
      'SELECT status, kind FROM bulk_item WHERE job_seq = ? AND position = ?',
      [seq, position],
    );
    if (own[0]?.status !== 'pending') return true;
    const holder = await tx.query<{ position: number | string }>(
      `SELECT position FROM bulk_item
       WHERE job_seq = ? AND dot_number = ? AND status = 'done' AND position <> ? AND ${NOT_MERGED}
       ORDER BY position LIMIT 1`,
      [seq, outcome.dot, position],
    );
    if (holder[0]) {
      await tx.run(
        `UPDATE bulk_item SET status = 'done', source = '${MERGED}', dot_number = ?, verdict = ?,
           result = ?, error_code = NULL, error_message = NULL, attempts = attempts + 1,
           finished_at = ?
         WHERE job_seq = ? AND position = ? AND status = 'pending'`,
        [...mergedFields, seq, position],
      );
      return true;
    }
    // A DOT item's DOT is no other pending DOT item's (equal keys are one item): only a docket's
    // answer can name a DOT listed again (this also spares a scan of the pending items).
    if (own[0].kind === 'dot') return false;
    await tx.run(
      `UPDATE bulk_item SET status = 'done', source = '${MERGED}', dot_number = ?, verdict = ?,
         result = ?, finished_at = ?
       WHERE job_seq = ? AND status = 'pending' AND kind = 'dot' AND lookup = ? AND position <> ?`,
      [...mergedFields, seq, outcome.dot, position],
    );
    return false;
  };

  const finishItem = (seq: number, position: number, outcome: ItemOutcome, at: string) =>
    sql.transaction(async (tx) => {
      const merged =
        outcome.status === 'done' && outcome.dot !== null
          ? await mergeDone(tx, seq, position, { ...outcome, dot: outcome.dot }, at)
          : false;
      if (merged) {
        await tx.run('UPDATE bulk_job SET updated_at = ? WHERE seq = ?', [at, seq]);
        return;
      }
      if (outcome.status === 'done') {
        await tx.run(
          `UPDATE bulk_item SET status = 'done', dot_number = COALESCE(?, dot_number),
             verdict = ?, result = ?, source = ?, error_code = NULL, error_message = NULL,
             attempts = attempts + 1, finished_at = ?
           WHERE job_seq = ? AND position = ? AND status = 'pending'`,
          [
            outcome.dot,
            outcome.result.verdict,
            JSON.stringify(outcome.result),
            outcome.source,
            at,
            seq,
            position,
          ],
        );
      } else {
        await tx.run(
          `UPDATE bulk_item SET status = 'failed', dot_number = COALESCE(?, dot_number),
             error_code = ?, error_message = ?, attempts = attempts + 1, finished_at = ?
           WHERE job_seq = ? AND position = ? AND status = 'pending'`,
          [outcome.dot, outcome.code, outcome.message, at, seq, position],
        );
      }
      await tx.run('UPDATE bulk_job SET updated_at = ? WHERE seq = ?', [at, seq]);
    });

  return {
    kind: sql.kind,
    async create(input) {
      const id = randomUUID();
      const at = input.at.toISOString();
      const stored: StoredEstimate = {
        ...input.estimate,
        item_rows: input.identifiers.map((identifier, index) => identifier.position ?? index + 1),
      };
      await write(() =>
        sql.transaction(async (tx) => {
          const inserted = await tx.query<{ seq: number | string }>(
            `INSERT INTO bulk_job (id, status, created_at, updated_at, created_by, total, estimate)
             VALUES (?, 'queued', ?, ?, ?, ?, ?) RETURNING seq`,
            [id, at, at, input.user, input.identifiers.length, JSON.stringify(stored)],
          );
          const seq = Number(inserted[0]?.seq);
          if (!Number.isSafeInteger(seq)) throw new Error('the new job has no sequence number');
          await insertItems(tx, seq, input.identifiers);
        }),
      );
      const created = await readJob(sql, 'j.id', id);
      if (!created) throw new Error('the created job cannot be read back');
      return created;
    },
    job: (id) => readJob(sql, 'j.id', id),
    async jobs() {
      const rows = await sql.query<RawJob>(
        `SELECT ${JOB_COLUMNS} FROM bulk_job j ORDER BY j.seq DESC`,
      );
      return rows.map(toJob);
    },
    async items(seq, { offset, limit, status }) {
      const rows =
        status === undefined
          ? await sql.query<RawItem>(
              `SELECT ${ITEM_COLUMNS} FROM bulk_item WHERE job_seq = ? AND ${NOT_MERGED}
               ORDER BY position LIMIT ? OFFSET ?`,
              [seq, limit, offset],
            )
          : await sql.query<RawItem>(
              `SELECT ${ITEM_COLUMNS} FROM bulk_item
               WHERE job_seq = ? AND status = ? AND ${NOT_MERGED}
               ORDER BY position LIMIT ? OFFSET ?`,
              [seq, status, limit, offset],
            );
      if (rows.length === 0) return [];
      const job = await sql.query<{ estimate: string }>(
        'SELECT estimate FROM bulk_job WHERE seq = ?',
        [seq],
      );
      const itemRows = itemRowsOf(job[0]?.estimate);
      const items = rows.map((raw) => toItem(raw, itemRows));
      const merged = await sql.query<{
        position: number | string;
        identifier: string;
        dot_number: string;
      }>(
        `SELECT position, identifier, dot_number FROM bulk_item
         WHERE job_seq = ? AND source = '${MERGED}' ORDER BY position`,
        [seq],
      );
      if (merged.length === 0) return items;
      const byDot = new Map<string, { identifier: string; row: number }[]>();
      for (const raw of merged) {
        const position = Number(raw.position);
        const list = byDot.get(raw.dot_number) ?? [];
        list.push({ identifier: raw.identifier, row: itemRows[position - 1] ?? position });
        byDot.set(raw.dot_number, list);
      }
      return items.map((item) => {
        const others = item.dot_number === undefined ? undefined : byDot.get(item.dot_number);
        if (!others) return item;
        const own = { identifier: item.identifier, row: item.row ?? item.position };
        return { ...item, inputs: [own, ...others].sort((a, b) => a.row - b.row) };
      });
    },
    async act(id, action, at) {
      const outcome = await write(() => applyAction(id, action, at.toISOString()));
      if (!outcome.ok) return outcome;
      const job = await readJob(sql, 'j.id', id);
      if (!job) throw new Error(`job ${id} vanished`);
      return { ok: true, job };
    },
    async runnable(limit = 20) {
      const rows = await sql.query<RawJob>(
        `SELECT ${JOB_COLUMNS} FROM bulk_job j WHERE j.status IN ('running', 'queued')
         ORDER BY CASE j.status WHEN 'running' THEN 0 ELSE 1 END, j.seq LIMIT ?`,
        [limit],
      );
      return rows.map(toJob);
    },
    async start(seq, at) {
      const { changes } = await write(() =>
        sql.run(
          `UPDATE bulk_job SET status = 'running', updated_at = ?, pause_code = NULL,
             pause_message = NULL
           WHERE seq = ? AND status IN ('queued', 'running')`,
          [at.toISOString(), seq],
        ),
      );
      return changes > 0;
    },
    async status(seq) {
      const rows = await sql.query<{ status: JobStatus }>(
        'SELECT status FROM bulk_job WHERE seq = ?',
        [seq],
      );
      return rows[0]?.status;
    },
    async nextPending(seq) {
      const rows = await sql.query<{
        position: number | string;
        kind: 'dot' | 'docket';
        lookup: string;
        attempts: number | string;
      }>(
        `SELECT position, kind, lookup, attempts FROM bulk_item
         WHERE job_seq = ? AND status = 'pending' ORDER BY position LIMIT 1`,
        [seq],
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        position: Number(row.position),
        kind: row.kind,
        lookup: row.lookup,
        attempts: Number(row.attempts),
      };
    },
    async finish(seq, position, outcome, at) {
      await write(() => finishItem(seq, position, outcome, at.toISOString()));
    },
    async pauseFor(seq, reason, at) {
      await write(() =>
        sql.run(
          `UPDATE bulk_job SET status = 'paused', updated_at = ?, pause_code = ?, pause_message = ?
           WHERE seq = ? AND status = 'running'`,
          [at.toISOString(), reason.code, reason.message, seq],
        ),
      );
    },
    async complete(seq, at) {
      // only a running job: a pause or cancel that came in meanwhile stands
      await write(() =>
        sql.run(
          `UPDATE bulk_job SET status = 'done', updated_at = ?, pause_code = NULL,
             pause_message = NULL
           WHERE seq = ? AND status = 'running'`,
          [at.toISOString(), seq],
        ),
      );
    },
    async fail(seq, reason, at) {
      await write(() =>
        sql.run(
          `UPDATE bulk_job SET status = 'failed', updated_at = ?, pause_code = ?, pause_message = ?
           WHERE seq = ? AND status IN ('queued', 'running')`,
          [at.toISOString(), reason.code, reason.message, seq],
        ),
      );
    },
    async storedResult(dot, since) {
      const rows = await sql.query<{ dot_number: string; result: string; finished_at: string }>(
        `SELECT dot_number, result, finished_at FROM bulk_item
         WHERE dot_number = ? AND status = 'done' AND finished_at >= ?
         ORDER BY finished_at DESC LIMIT 1`,
        [dot, since],
      );
      const row = rows[0];
      const result = parseJson(row?.result ?? null) as ItemResult | undefined;
      if (!row || !result) return undefined;
      return { dot: row.dot_number, result, finished_at: row.finished_at };
    },
    async recentFinishes(seq, limit) {
      const rows = await sql.query<{ finished_at: string }>(
        `SELECT finished_at FROM bulk_item
         WHERE job_seq = ? AND finished_at IS NOT NULL AND status IN ('done', 'failed')
         ORDER BY finished_at DESC LIMIT ?`,
        [seq, limit],
      );
      return rows.map((row) => row.finished_at);
    },
    claim: (id, holder, ttlMs) => acquireLease(sql, jobLeaseName(id), holder, ttlMs),
    release: (id, holder) => releaseLease(sql, jobLeaseName(id), holder),
    async dropLeases() {
      await sql.run("DELETE FROM lease WHERE name LIKE 'bulk-job:%'");
    },
  };
}
