/**
 * Bulk vetting jobs in the proxy's database (SQLite migration 5, PostgreSQL migration 8; the same
 * SQL on both engines): `bulk_job` and one `bulk_item` per identifier. The job state machine lives
 * in this store, so the routes and the runner cannot disagree:
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
 *
 * The SQL and its row mapping are in store-queries.ts; the decisions (which action each state
 * allows and what it does, merged items, item rows) in store-rules.ts; this file composes them.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type {
  BulkEstimate,
  BulkItem,
  ItemStatus,
  JobStatus,
} from '../../../src/lib/bulk/contract.ts';
import type { Identifier } from '../../../src/lib/service/rules/entries.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { acquireLease, releaseLease } from '../sql/lease.ts';
import { guardWrites } from '../sql/write-guard.ts';
import * as q from './store-queries.ts';
import {
  doneMergeOf,
  effectOf,
  refusalOf,
  storedEstimate,
  withMergedInputs,
  type ItemOutcome,
  type JobAction,
  type JobRow,
  type PendingItem,
  type Refusal,
  type StoredResult,
} from './store-rules.ts';

export type { ItemOutcome, JobAction, JobRow, PendingItem } from './store-rules.ts';

/** The lease a job's runner holds while it works the job. */
export function jobLeaseName(id: string): string {
  return `bulk-job:${id}`;
}

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

/**
 * The action's writes, in a transaction whose first statement locks the job's row, so two
 * replicas acting on one job at once take turns, each reading the other's outcome.
 */
function applyAction(
  sql: SqlEngine,
  id: string,
  action: JobAction,
  at: string,
): Promise<{ ok: true } | ({ ok: false } & Refusal)> {
  return sql.transaction(async (tx) => {
    const job = (await q.lockJob(tx, id)) ? await q.jobById(tx, id) : undefined;
    if (!job) throw new Error(`no job ${id}`);
    const refusal = refusalOf(id, job, action);
    if (refusal) return { ok: false, ...refusal };
    const effect = effectOf(action, job.status);
    if (effect.items === 'cancel-pending') await q.cancelPendingItems(tx, job.seq);
    if (effect.items === 'retry-failed') await q.requeueFailedItems(tx, job.seq);
    if (effect.status === null) await q.touchJob(tx, job.seq, at);
    else await q.setJobStatus(tx, job.seq, effect.status, at);
    return { ok: true };
  });
}

/**
 * One item's outcome in one transaction: a done carrier is merged when another item of the job
 * already has it done (this item is then a second input of that carrier); else the item is
 * written, and a docket's carrier takes in the pending DOT items naming it.
 */
function finishItem(
  sql: SqlEngine,
  seq: number,
  position: number,
  outcome: ItemOutcome,
  at: string,
): Promise<void> {
  return sql.transaction(async (tx) => {
    if (outcome.status === 'done' && outcome.dot !== null) {
      const done = { ...outcome, dot: outcome.dot };
      const own = await q.itemState(tx, seq, position);
      const holder =
        own?.status === 'pending' && (await q.hasDoneHolder(tx, seq, done.dot, position));
      const merge = doneMergeOf(own, holder === true);
      if (merge === 'into-holder') await q.mergeItem(tx, seq, position, done, at);
      if (merge === 'own-and-absorb') await q.mergePendingDots(tx, seq, position, done, at);
      if (merge === 'not-pending' || merge === 'into-holder') {
        await q.touchJob(tx, seq, at);
        return;
      }
    }
    await q.writeOutcome(tx, seq, position, outcome, at);
    await q.touchJob(tx, seq, at);
  });
}

export function createBulkStore(sql: SqlEngine, options: BulkStoreOptions = {}): BulkStore {
  const write =
    options.db === undefined
      ? <T>(fn: () => Promise<T>): Promise<T> => fn()
      : guardWrites(sql, options.db);

  return {
    kind: sql.kind,
    async create(input) {
      const id = randomUUID();
      const at = input.at.toISOString();
      const estimate = storedEstimate(input.estimate, input.identifiers);
      const total = input.identifiers.length;
      await write(() =>
        sql.transaction(async (tx) => {
          const seq = await q.insertJob(tx, { id, at, user: input.user, total, estimate });
          await q.insertItems(tx, seq, input.identifiers);
        }),
      );
      const created = await q.jobById(sql, id);
      if (!created) throw new Error('the created job cannot be read back');
      return created;
    },
    job: (id) => q.jobById(sql, id),
    jobs: () => q.allJobs(sql),
    async items(seq, page) {
      const { items, itemRows } = await q.itemPage(sql, seq, page);
      if (items.length === 0) return [];
      return withMergedInputs(items, await q.mergedInputs(sql, seq), itemRows);
    },
    async act(id, action, at) {
      const outcome = await write(() => applyAction(sql, id, action, at.toISOString()));
      if (!outcome.ok) return outcome;
      const job = await q.jobById(sql, id);
      if (!job) throw new Error(`job ${id} vanished`);
      return { ok: true, job };
    },
    runnable: (limit = 20) => q.runnableJobs(sql, limit),
    start: (seq, at) => write(() => q.startJob(sql, seq, at.toISOString())),
    status: (seq) => q.jobStatus(sql, seq),
    nextPending: (seq) => q.nextPendingItem(sql, seq),
    async finish(seq, position, outcome, at) {
      await write(() => finishItem(sql, seq, position, outcome, at.toISOString()));
    },
    async pauseFor(seq, reason, at) {
      await write(() => q.pauseRunningJob(sql, seq, reason, at.toISOString()));
    },
    async complete(seq, at) {
      await write(() => q.completeRunningJob(sql, seq, at.toISOString()));
    },
    async fail(seq, reason, at) {
      await write(() => q.failJob(sql, seq, reason, at.toISOString()));
    },
    storedResult: (dot, since) => q.freshestResult(sql, dot, since),
    recentFinishes: (seq, limit) => q.recentFinishTimes(sql, seq, limit),
    claim: (id, holder, ttlMs) => acquireLease(sql, jobLeaseName(id), holder, ttlMs),
    release: (id, holder) => releaseLease(sql, jobLeaseName(id), holder),
    async dropLeases() {
      await q.dropJobLeases(sql);
    },
  };
}
