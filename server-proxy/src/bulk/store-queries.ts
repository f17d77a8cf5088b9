/**
 * The bulk store's SQL (`bulk_job`, `bulk_item`), one small function per statement, the same on
 * SQLite and PostgreSQL, and the mapping of their rows (PostgreSQL's bigints and counts come as
 * strings, SQLite's as numbers; JSON is text on both).
 */
import type {
  BulkEstimate,
  BulkItem,
  ItemResult,
  ItemStatus,
  JobStatus,
} from '../../../src/lib/bulk/contract.ts';
import type { Identifier } from '../../../src/lib/service/rules/entries.ts';
import type { SqlExecutor, SqlParam } from '../sql/engine.ts';
import {
  rowOf,
  type ItemOutcome,
  type JobRow,
  type MergedInput,
  type PendingItem,
  type StoredEstimate,
  type StoredResult,
} from './store-rules.ts';

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

const SET_STATUS =
  'UPDATE bulk_job SET status = ?, updated_at = ?, pause_code = NULL, pause_message = NULL WHERE seq = ?';

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
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
    row: rowOf(rows, position),
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

// ── jobs ────────────────────────────────────────────────────────────────────────────────────────

export async function jobById(on: SqlExecutor, id: string): Promise<JobRow | undefined> {
  const rows = await on.query<RawJob>(`SELECT ${JOB_COLUMNS} FROM bulk_job j WHERE j.id = ?`, [id]);
  return rows[0] ? toJob(rows[0]) : undefined;
}

export async function allJobs(on: SqlExecutor): Promise<JobRow[]> {
  const rows = await on.query<RawJob>(`SELECT ${JOB_COLUMNS} FROM bulk_job j ORDER BY j.seq DESC`);
  return rows.map(toJob);
}

/** Running jobs (left by a restart or a dead replica) first, then queued ones, oldest first. */
export async function runnableJobs(on: SqlExecutor, limit: number): Promise<JobRow[]> {
  const rows = await on.query<RawJob>(
    `SELECT ${JOB_COLUMNS} FROM bulk_job j WHERE j.status IN ('running', 'queued')
     ORDER BY CASE j.status WHEN 'running' THEN 0 ELSE 1 END, j.seq LIMIT ?`,
    [limit],
  );
  return rows.map(toJob);
}

export async function jobStatus(on: SqlExecutor, seq: number): Promise<JobStatus | undefined> {
  const rows = await on.query<{ status: JobStatus }>('SELECT status FROM bulk_job WHERE seq = ?', [
    seq,
  ]);
  return rows[0]?.status;
}

/** Each item's line or row, by position, as kept in the job's estimate. */
async function jobItemRows(on: SqlExecutor, seq: number): Promise<number[]> {
  const job = await on.query<{ estimate: string }>('SELECT estimate FROM bulk_job WHERE seq = ?', [
    seq,
  ]);
  return itemRowsOf(job[0]?.estimate);
}

/** A new queued job; answers its sequence number. */
export async function insertJob(
  tx: SqlExecutor,
  job: { id: string; at: string; user: string; total: number; estimate: StoredEstimate },
): Promise<number> {
  const inserted = await tx.query<{ seq: number | string }>(
    `INSERT INTO bulk_job (id, status, created_at, updated_at, created_by, total, estimate)
     VALUES (?, 'queued', ?, ?, ?, ?, ?) RETURNING seq`,
    [job.id, job.at, job.at, job.user, job.total, JSON.stringify(job.estimate)],
  );
  const seq = Number(inserted[0]?.seq);
  if (!Number.isSafeInteger(seq)) throw new Error('the new job has no sequence number');
  return seq;
}

/**
 * A no-op update that takes the job row's lock (PostgreSQL; SQLite's BEGIN IMMEDIATE locks the
 * file), so two replicas acting on one job at once take turns. False when there is no such job.
 */
export async function lockJob(tx: SqlExecutor, id: string): Promise<boolean> {
  const locked = await tx.run('UPDATE bulk_job SET updated_at = updated_at WHERE id = ?', [id]);
  return locked.changes > 0;
}

/** The job's new status, its pause reason cleared. */
export function setJobStatus(tx: SqlExecutor, seq: number, status: JobStatus, at: string) {
  return tx.run(SET_STATUS, [status, at, seq]);
}

export function touchJob(tx: SqlExecutor, seq: number, at: string) {
  return tx.run('UPDATE bulk_job SET updated_at = ? WHERE seq = ?', [at, seq]);
}

/** queued → running (also running again); false when it is neither any more. */
export async function startJob(on: SqlExecutor, seq: number, at: string): Promise<boolean> {
  const { changes } = await on.run(
    `UPDATE bulk_job SET status = 'running', updated_at = ?, pause_code = NULL,
       pause_message = NULL
     WHERE seq = ? AND status IN ('queued', 'running')`,
    [at, seq],
  );
  return changes > 0;
}

export function pauseRunningJob(
  on: SqlExecutor,
  seq: number,
  reason: { code: string; message: string },
  at: string,
) {
  return on.run(
    `UPDATE bulk_job SET status = 'paused', updated_at = ?, pause_code = ?, pause_message = ?
     WHERE seq = ? AND status = 'running'`,
    [at, reason.code, reason.message, seq],
  );
}

/** Only a running job: a pause or cancel that came in meanwhile stands. */
export function completeRunningJob(on: SqlExecutor, seq: number, at: string) {
  return on.run(
    `UPDATE bulk_job SET status = 'done', updated_at = ?, pause_code = NULL,
       pause_message = NULL
     WHERE seq = ? AND status = 'running'`,
    [at, seq],
  );
}

export function failJob(
  on: SqlExecutor,
  seq: number,
  reason: { code: string; message: string },
  at: string,
) {
  return on.run(
    `UPDATE bulk_job SET status = 'failed', updated_at = ?, pause_code = ?, pause_message = ?
     WHERE seq = ? AND status IN ('queued', 'running')`,
    [at, reason.code, reason.message, seq],
  );
}

export function dropJobLeases(on: SqlExecutor) {
  return on.run("DELETE FROM lease WHERE name LIKE 'bulk-job:%'");
}

// ── items ───────────────────────────────────────────────────────────────────────────────────────

/** One pending item per identifier, positions 1…n, in chunks of INSERT_CHUNK. */
export async function insertItems(
  tx: SqlExecutor,
  seq: number,
  identifiers: readonly Identifier[],
): Promise<void> {
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

/**
 * A page of the job's items not merged into another's carrier, optionally of one status, with
 * each item's line or row (`itemRows`, read only when the page has items).
 */
export async function itemPage(
  on: SqlExecutor,
  seq: number,
  { offset, limit, status }: { offset: number; limit: number; status?: ItemStatus },
): Promise<{ items: BulkItem[]; itemRows: number[] }> {
  const rows =
    status === undefined
      ? await on.query<RawItem>(
          `SELECT ${ITEM_COLUMNS} FROM bulk_item WHERE job_seq = ? AND ${NOT_MERGED}
           ORDER BY position LIMIT ? OFFSET ?`,
          [seq, limit, offset],
        )
      : await on.query<RawItem>(
          `SELECT ${ITEM_COLUMNS} FROM bulk_item
           WHERE job_seq = ? AND status = ? AND ${NOT_MERGED}
           ORDER BY position LIMIT ? OFFSET ?`,
          [seq, status, limit, offset],
        );
  if (rows.length === 0) return { items: [], itemRows: [] };
  const itemRows = await jobItemRows(on, seq);
  return { items: rows.map((raw) => toItem(raw, itemRows)), itemRows };
}

/** The job's items merged into another item's carrier, in list order. */
export async function mergedInputs(on: SqlExecutor, seq: number): Promise<MergedInput[]> {
  const rows = await on.query<{
    position: number | string;
    identifier: string;
    dot_number: string;
  }>(
    `SELECT position, identifier, dot_number FROM bulk_item
     WHERE job_seq = ? AND source = '${MERGED}' ORDER BY position`,
    [seq],
  );
  return rows.map((raw) => ({ ...raw, position: Number(raw.position) }));
}

export function cancelPendingItems(tx: SqlExecutor, seq: number) {
  return tx.run(
    "UPDATE bulk_item SET status = 'cancelled' WHERE job_seq = ? AND status = 'pending'",
    [seq],
  );
}

export function requeueFailedItems(tx: SqlExecutor, seq: number) {
  return tx.run(
    `UPDATE bulk_item SET status = 'pending', error_code = NULL, error_message = NULL,
       finished_at = NULL
     WHERE job_seq = ? AND status = 'failed'`,
    [seq],
  );
}

export async function nextPendingItem(
  on: SqlExecutor,
  seq: number,
): Promise<PendingItem | undefined> {
  const rows = await on.query<{
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
}

export async function itemState(
  tx: SqlExecutor,
  seq: number,
  position: number,
): Promise<{ status: ItemStatus; kind: 'dot' | 'docket' } | undefined> {
  const own = await tx.query<{ status: ItemStatus; kind: 'dot' | 'docket' }>(
    'SELECT status, kind FROM bulk_item WHERE job_seq = ? AND position = ?',
    [seq, position],
  );
  return own[0];
}

/** Whether another item of the job (not itself merged) already has the carrier `dot` done. */
export async function hasDoneHolder(
  tx: SqlExecutor,
  seq: number,
  dot: string,
  position: number,
): Promise<boolean> {
  const holder = await tx.query<{ position: number | string }>(
    `SELECT position FROM bulk_item
     WHERE job_seq = ? AND dot_number = ? AND status = 'done' AND position <> ? AND ${NOT_MERGED}
     ORDER BY position LIMIT 1`,
    [seq, dot, position],
  );
  return holder[0] !== undefined;
}

type DoneOutcome = Extract<ItemOutcome, { status: 'done' }> & { dot: string };

const mergedFields = (outcome: DoneOutcome, at: string): SqlParam[] => [
  outcome.dot,
  outcome.result.verdict,
  JSON.stringify(outcome.result),
  at,
];

/** The pending item at `position`, done as a second input of a carrier another item has. */
export function mergeItem(
  tx: SqlExecutor,
  seq: number,
  position: number,
  outcome: DoneOutcome,
  at: string,
) {
  return tx.run(
    `UPDATE bulk_item SET status = 'done', source = '${MERGED}', dot_number = ?, verdict = ?,
       result = ?, error_code = NULL, error_message = NULL, attempts = attempts + 1,
       finished_at = ?
     WHERE job_seq = ? AND position = ? AND status = 'pending'`,
    [...mergedFields(outcome, at), seq, position],
  );
}

/** The job's pending DOT items naming `outcome.dot`, merged into the item at `position`. */
export function mergePendingDots(
  tx: SqlExecutor,
  seq: number,
  position: number,
  outcome: DoneOutcome,
  at: string,
) {
  return tx.run(
    `UPDATE bulk_item SET status = 'done', source = '${MERGED}', dot_number = ?, verdict = ?,
       result = ?, finished_at = ?
     WHERE job_seq = ? AND status = 'pending' AND kind = 'dot' AND lookup = ? AND position <> ?`,
    [...mergedFields(outcome, at), seq, outcome.dot, position],
  );
}

/** The item's own outcome (only while it is still pending). */
export function writeOutcome(
  tx: SqlExecutor,
  seq: number,
  position: number,
  outcome: ItemOutcome,
  at: string,
) {
  if (outcome.status === 'done') {
    return tx.run(
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
  }
  return tx.run(
    `UPDATE bulk_item SET status = 'failed', dot_number = COALESCE(?, dot_number),
       error_code = ?, error_message = ?, attempts = attempts + 1, finished_at = ?
     WHERE job_seq = ? AND position = ? AND status = 'pending'`,
    [outcome.dot, outcome.code, outcome.message, at, seq, position],
  );
}

/** The freshest done result of a DOT since `since` (ISO), from any job. */
export async function freshestResult(
  on: SqlExecutor,
  dot: string,
  since: string,
): Promise<StoredResult | undefined> {
  const rows = await on.query<{ dot_number: string; result: string; finished_at: string }>(
    `SELECT dot_number, result, finished_at FROM bulk_item
     WHERE dot_number = ? AND status = 'done' AND finished_at >= ?
     ORDER BY finished_at DESC LIMIT 1`,
    [dot, since],
  );
  const row = rows[0];
  const result = parseJson(row?.result ?? null) as ItemResult | undefined;
  if (!row || !result) return undefined;
  return { dot: row.dot_number, result, finished_at: row.finished_at };
}

export async function recentFinishTimes(
  on: SqlExecutor,
  seq: number,
  limit: number,
): Promise<string[]> {
  const rows = await on.query<{ finished_at: string }>(
    `SELECT finished_at FROM bulk_item
     WHERE job_seq = ? AND finished_at IS NOT NULL AND status IN ('done', 'failed')
     ORDER BY finished_at DESC LIMIT ?`,
    [seq, limit],
  );
  return rows.map((row) => row.finished_at);
}
