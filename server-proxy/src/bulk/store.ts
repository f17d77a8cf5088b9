/**
 * Bulk vetting jobs in the proxy database (migration 5): `bulk_job` and one `bulk_item` per
 * identifier. The job state machine lives here, so the routes and the runner cannot disagree:
 *
 *   queued → running → done | failed;  queued | running ⇄ paused;  failed → queued (resume);
 *   queued | running | paused → cancelled
 *
 * Items go pending → done | failed, and pending → cancelled when their job is cancelled. Every write
 * is one short transaction: an item's result is committed the moment it finishes, so a killed
 * process loses at most the item in flight, which is still pending at the next start.
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
import { storageOf } from '../storage.ts';

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
  pause_reason: { code: string; message: string } | null;
}

interface RawJob {
  seq: number;
  id: string;
  status: JobStatus;
  created_at: string;
  updated_at: string;
  created_by: string;
  total: number;
  estimate: string;
  pause_code: string | null;
  pause_message: string | null;
  done: number;
  failed: number;
}

interface RawItem {
  position: number;
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
  attempts: number;
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
  (SELECT COUNT(*) FROM bulk_item i WHERE i.job_seq = j.seq AND i.status = 'failed') AS failed`;

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function toJob(raw: RawJob): JobRow {
  return {
    seq: raw.seq,
    id: raw.id,
    status: raw.status,
    created_at: raw.created_at,
    updated_at: raw.updated_at,
    created_by: raw.created_by,
    total: raw.total,
    estimate: parseJson(raw.estimate) as BulkEstimate,
    done: raw.done,
    failed: raw.failed,
    pause_reason:
      raw.pause_code === null ? null : { code: raw.pause_code, message: raw.pause_message ?? '' },
  };
}

function toItem(raw: RawItem): BulkItem {
  const result = parseJson(raw.result) as ItemResult | undefined;
  return {
    position: raw.position,
    identifier: raw.identifier,
    ...(raw.dot_number === null ? {} : { dot_number: raw.dot_number }),
    status: raw.status,
    ...(raw.verdict === null ? {} : { verdict: raw.verdict }),
    ...(result === undefined ? {} : { result }),
    ...(raw.error_code === null
      ? {}
      : { error: { code: raw.error_code, message: raw.error_message ?? '' } }),
    ...(raw.source === null ? {} : { source: raw.source }),
    attempts: raw.attempts,
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
  create(input: {
    identifiers: readonly Identifier[];
    estimate: BulkEstimate;
    user: string;
    at: Date;
  }): JobRow;
  job(id: string): JobRow | undefined;
  jobs(): JobRow[];
  items(seq: number, page: { offset: number; limit: number; status?: ItemStatus }): BulkItem[];
  /** Apply a user's action; a refusal when the job's state does not allow it. */
  act(
    id: string,
    action: JobAction,
    at: Date,
  ): { ok: true; job: JobRow } | ({ ok: false } & Refusal);
  /** The job to run next: a running one (left by a restart) first, then the oldest queued. */
  nextRunnable(): JobRow | undefined;
  /** queued → running; false when the job was paused or cancelled meanwhile. */
  start(seq: number, at: Date): boolean;
  status(seq: number): JobStatus | undefined;
  nextPending(seq: number): PendingItem | undefined;
  /** Commit one item's outcome (only while the item is still pending). */
  finish(seq: number, position: number, outcome: ItemOutcome, at: Date): void;
  /** running → paused by the runner, with why (the item in hand stays pending). */
  pauseFor(seq: number, reason: { code: string; message: string }, at: Date): void;
  /** running → done (no pending item left). */
  complete(seq: number, at: Date): void;
  /** running → failed: the runner could not go on (e.g. the database refused a write). */
  fail(seq: number, reason: { code: string; message: string }, at: Date): void;
  /** The freshest done result of a DOT since `since` (ISO), from any job. */
  storedResult(dot: string, since: string): StoredResult | undefined;
  /** Finish times of the job's latest done or failed items, newest first. */
  recentFinishes(seq: number, limit: number): string[];
}

export function createBulkStore(db: Database.Database): BulkStore {
  const storage = storageOf(db);
  const sql = {
    insertJob: db.prepare(
      `INSERT INTO bulk_job (id, status, created_at, updated_at, created_by, total, estimate)
       VALUES (@id, 'queued', @at, @at, @user, @total, @estimate)`,
    ),
    insertItem: db.prepare(
      `INSERT INTO bulk_item (job_seq, position, identifier, kind, lookup, dot_number, status)
       VALUES (?, ?, ?, ?, ?, ?, 'pending')`,
    ),
    job: db.prepare<[string], RawJob>(`SELECT ${JOB_COLUMNS} FROM bulk_job j WHERE j.id = ?`),
    jobBySeq: db.prepare<[number], RawJob>(`SELECT ${JOB_COLUMNS} FROM bulk_job j WHERE j.seq = ?`),
    jobs: db.prepare<[], RawJob>(`SELECT ${JOB_COLUMNS} FROM bulk_job j ORDER BY j.seq DESC`),
    items: db.prepare<[number, string | null, string | null, number, number], RawItem>(
      `SELECT position, identifier, kind, lookup, dot_number, status, verdict, result, error_code,
         error_message, source, attempts, finished_at
       FROM bulk_item WHERE job_seq = ? AND (? IS NULL OR status = ?)
       ORDER BY position LIMIT ? OFFSET ?`,
    ),
    setStatus: db.prepare<[JobStatus, string, number]>(
      'UPDATE bulk_job SET status = ?, updated_at = ?, pause_code = NULL, pause_message = NULL WHERE seq = ?',
    ),
    setPaused: db.prepare<[string, string, string, number]>(
      `UPDATE bulk_job SET status = 'paused', updated_at = ?, pause_code = ?, pause_message = ?
       WHERE seq = ? AND status = 'running'`,
    ),
    setFailed: db.prepare<[string, string, string, number]>(
      `UPDATE bulk_job SET status = 'failed', updated_at = ?, pause_code = ?, pause_message = ?
       WHERE seq = ?`,
    ),
    startJob: db.prepare<[string, number]>(
      `UPDATE bulk_job SET status = 'running', updated_at = ?, pause_code = NULL,
         pause_message = NULL
       WHERE seq = ? AND status IN ('queued', 'running')`,
    ),
    status: db.prepare<[number], { status: JobStatus }>(
      'SELECT status FROM bulk_job WHERE seq = ?',
    ),
    nextRunnable: db.prepare<[], RawJob>(
      `SELECT ${JOB_COLUMNS} FROM bulk_job j WHERE j.status IN ('running', 'queued')
       ORDER BY j.status = 'running' DESC, j.seq LIMIT 1`,
    ),
    nextPending: db.prepare<[number], PendingItem>(
      `SELECT position, kind, lookup, attempts FROM bulk_item
       WHERE job_seq = ? AND status = 'pending' ORDER BY position LIMIT 1`,
    ),
    cancelItems: db.prepare<[number]>(
      "UPDATE bulk_item SET status = 'cancelled' WHERE job_seq = ? AND status = 'pending'",
    ),
    requeueFailed: db.prepare<[number]>(
      `UPDATE bulk_item SET status = 'pending', error_code = NULL, error_message = NULL,
         finished_at = NULL
       WHERE job_seq = ? AND status = 'failed'`,
    ),
    finishDone: db.prepare(
      `UPDATE bulk_item SET status = 'done', dot_number = COALESCE(@dot, dot_number),
         verdict = @verdict, result = @result, source = @source, error_code = NULL,
         error_message = NULL, attempts = attempts + 1, finished_at = @at
       WHERE job_seq = @seq AND position = @position AND status = 'pending'`,
    ),
    finishFailed: db.prepare(
      `UPDATE bulk_item SET status = 'failed', dot_number = COALESCE(@dot, dot_number),
         error_code = @code, error_message = @message, attempts = attempts + 1, finished_at = @at
       WHERE job_seq = @seq AND position = @position AND status = 'pending'`,
    ),
    touch: db.prepare<[string, number]>('UPDATE bulk_job SET updated_at = ? WHERE seq = ?'),
    stored: db.prepare<
      [string, string],
      { dot_number: string; result: string; finished_at: string }
    >(
      `SELECT dot_number, result, finished_at FROM bulk_item
       WHERE dot_number = ? AND status = 'done' AND finished_at >= ?
       ORDER BY finished_at DESC LIMIT 1`,
    ),
    recent: db.prepare<[number, number], { finished_at: string }>(
      `SELECT finished_at FROM bulk_item
       WHERE job_seq = ? AND finished_at IS NOT NULL AND status IN ('done', 'failed')
       ORDER BY finished_at DESC LIMIT ?`,
    ),
  };

  const createTx = db.transaction(
    (input: Parameters<BulkStore['create']>[0], id: string): number => {
      const at = input.at.toISOString();
      const info = sql.insertJob.run({
        id,
        at,
        user: input.user,
        total: input.identifiers.length,
        estimate: JSON.stringify(input.estimate),
      });
      const seq = Number(info.lastInsertRowid);
      input.identifiers.forEach((identifier, index) => {
        const lookup = identifier.kind === 'dot' ? identifier.dot : identifier.docket;
        const dot = identifier.kind === 'dot' ? identifier.dot : null;
        sql.insertItem.run(seq, index + 1, identifier.input, identifier.kind, lookup, dot);
      });
      return seq;
    },
  );

  const actTx = db.transaction(
    (id: string, action: JobAction, at: string): { ok: true } | ({ ok: false } & Refusal) => {
      const raw = sql.job.get(id);
      if (!raw) throw new Error(`no job ${id}`);
      if (!CAN[action].includes(raw.status)) {
        return {
          ok: false,
          code: 'invalid_transition',
          message: `Job ${id} is ${raw.status}: it cannot ${action === 'retry-failed' ? 'retry its failed items' : action}`,
          hint: HINTS[action],
        };
      }
      switch (action) {
        case 'pause':
          sql.setStatus.run('paused', at, raw.seq);
          break;
        case 'resume':
          sql.setStatus.run('queued', at, raw.seq);
          break;
        case 'cancel':
          sql.cancelItems.run(raw.seq);
          sql.setStatus.run('cancelled', at, raw.seq);
          break;
        case 'retry-failed': {
          if (raw.failed === 0) {
            return {
              ok: false,
              code: 'nothing_to_retry',
              message: `Job ${id} has no failed item`,
              hint: 'Only failed items are retried; done items keep their result.',
            };
          }
          sql.requeueFailed.run(raw.seq);
          // A finished job runs again for its failed items; a paused one stays paused.
          if (raw.status === 'done' || raw.status === 'failed')
            sql.setStatus.run('queued', at, raw.seq);
          else sql.touch.run(at, raw.seq);
          break;
        }
      }
      return { ok: true };
    },
  );

  const finishTx = db.transaction(
    (seq: number, position: number, outcome: ItemOutcome, at: string) => {
      if (outcome.status === 'done') {
        sql.finishDone.run({
          seq,
          position,
          dot: outcome.dot,
          verdict: outcome.result.verdict,
          result: JSON.stringify(outcome.result),
          source: outcome.source,
          at,
        });
      } else {
        sql.finishFailed.run({
          seq,
          position,
          dot: outcome.dot,
          code: outcome.code,
          message: outcome.message,
          at,
        });
      }
      sql.touch.run(at, seq);
    },
  );

  const one = (raw: RawJob | undefined) => (raw ? toJob(raw) : undefined);

  return {
    create(input) {
      const id = randomUUID();
      storage.write(() => createTx(input, id));
      const created = one(sql.job.get(id));
      if (!created) throw new Error('the created job cannot be read back');
      return created;
    },
    job: (id) => one(sql.job.get(id)),
    jobs: () => sql.jobs.all().map(toJob),
    items(seq, { offset, limit, status }) {
      return sql.items.all(seq, status ?? null, status ?? null, limit, offset).map(toItem);
    },
    act(id, action, at) {
      const outcome = storage.write(() => actTx(id, action, at.toISOString()));
      if (!outcome.ok) return outcome;
      const job = one(sql.job.get(id));
      if (!job) throw new Error(`job ${id} vanished`);
      return { ok: true, job };
    },
    nextRunnable: () => one(sql.nextRunnable.get()),
    start(seq, at) {
      return storage.write(() => sql.startJob.run(at.toISOString(), seq)).changes > 0;
    },
    status: (seq) => sql.status.get(seq)?.status,
    nextPending: (seq) => sql.nextPending.get(seq),
    finish(seq, position, outcome, at) {
      storage.write(() => finishTx(seq, position, outcome, at.toISOString()));
    },
    pauseFor(seq, reason, at) {
      storage.write(() => sql.setPaused.run(at.toISOString(), reason.code, reason.message, seq));
    },
    complete(seq, at) {
      storage.write(() => sql.setStatus.run('done', at.toISOString(), seq));
    },
    fail(seq, reason, at) {
      storage.write(() => sql.setFailed.run(at.toISOString(), reason.code, reason.message, seq));
    },
    storedResult(dot, since) {
      const row = sql.stored.get(dot, since);
      const result = parseJson(row?.result ?? null) as ItemResult | undefined;
      if (!row || !result) return undefined;
      return { dot: row.dot_number, result, finished_at: row.finished_at };
    },
    recentFinishes: (seq, limit) => sql.recent.all(seq, limit).map((row) => row.finished_at),
  };
}
