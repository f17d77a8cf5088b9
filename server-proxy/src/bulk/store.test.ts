/**
 * The job state machine and the item bookkeeping of the bulk store, on a real SQLite file: which
 * actions each state allows, what cancel and retry-failed do to items, and that an item is finished
 * once only.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BulkEstimate, ItemResult } from '../../../src/lib/bulk/contract.ts';
import { checkIdentifiers } from '../../../src/lib/service/rules/entries.ts';
import { openProxyDb } from '../db.ts';
import { makeTempDir } from '../test-helpers.ts';
import { createBulkStore, type BulkStore, type JobAction } from './store.ts';

const ESTIMATE = { carriers: 3 } as BulkEstimate;
const RESULT: ItemResult = {
  name: 'X',
  verdict: 'pass',
  policy_version: 1,
  reasons: [],
  usdot_status: 'ACTIVE',
  authority: null,
  insurance: null,
  safety_rating: null,
  basic_alerts: [],
  out_of_service: false,
  linked_warnings: 0,
  snapshot_date: null,
};
const AT = new Date('2026-11-20T10:00:00Z');

let dir: string;
let db: Database.Database;
let store: BulkStore;

beforeEach(() => {
  dir = makeTempDir();
  db = openProxyDb(join(dir, 'proxy.sqlite'));
  store = createBulkStore(db);
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function newJob(inputs = ['568253', 'MC-277621', '2214589']) {
  const { valid } = checkIdentifiers(inputs);
  return store.create({ identifiers: valid, estimate: ESTIMATE, user: 'ann', at: AT });
}

function statusAfter(id: string, action: JobAction): string {
  const outcome = store.act(id, action, AT);
  return outcome.ok ? outcome.job.status : `refused:${outcome.code}`;
}

describe('bulk job state machine', () => {
  it('creates a queued job with one pending item per identifier, in order', () => {
    const job = newJob();
    expect(job).toMatchObject({
      status: 'queued',
      total: 3,
      done: 0,
      failed: 0,
      created_by: 'ann',
    });
    const items = store.items(job.seq, { offset: 0, limit: 10 });
    expect(items.map((item) => [item.position, item.identifier, item.status])).toEqual([
      [1, '568253', 'pending'],
      [2, 'MC-277621', 'pending'],
      [3, '2214589', 'pending'],
    ]);
    expect(items[0]?.dot_number).toBe('568253');
    expect(items[1]?.dot_number).toBeUndefined();
    expect(store.nextPending(job.seq)).toEqual({
      position: 1,
      kind: 'dot',
      lookup: '568253',
      attempts: 0,
    });
  });

  it('allows pause ⇄ resume, then cancel; refuses the impossible transitions', () => {
    const { id } = newJob();
    expect(statusAfter(id, 'resume')).toBe('refused:invalid_transition');
    expect(statusAfter(id, 'pause')).toBe('paused');
    expect(statusAfter(id, 'pause')).toBe('refused:invalid_transition');
    expect(statusAfter(id, 'resume')).toBe('queued');
    expect(statusAfter(id, 'cancel')).toBe('cancelled');
    for (const action of ['pause', 'resume', 'cancel', 'retry-failed'] as const) {
      expect(statusAfter(id, action)).toBe('refused:invalid_transition');
    }
    const failed = newJob();
    store.start(failed.seq, AT);
    store.fail(failed.seq, { code: 'internal_error', message: 'disk' }, AT);
    expect(store.job(failed.id)?.pause_reason).toEqual({ code: 'internal_error', message: 'disk' });
    expect(statusAfter(failed.id, 'resume')).toBe('queued');
    expect(store.job(failed.id)?.pause_reason).toBeNull();
    const refused = store.act(id, 'resume', AT);
    expect(refused).toMatchObject({ ok: false, hint: expect.stringContaining('paused') });
  });

  it('cancels the pending items only', () => {
    const job = newJob();
    expect(store.start(job.seq, AT)).toBe(true);
    store.finish(
      job.seq,
      1,
      { status: 'done', dot: '568253', result: RESULT, source: 'upstream' },
      AT,
    );
    store.act(job.id, 'cancel', AT);
    const statuses = store.items(job.seq, { offset: 0, limit: 10 }).map((item) => item.status);
    expect(statuses).toEqual(['done', 'cancelled', 'cancelled']);
    expect(store.nextRunnable()).toBeUndefined();
  });

  it('finishes an item once; retry-failed re-queues failed items only and restarts a done job', () => {
    const job = newJob();
    store.start(job.seq, AT);
    store.finish(
      job.seq,
      1,
      { status: 'done', dot: '568253', result: RESULT, source: 'upstream' },
      AT,
    );
    store.finish(job.seq, 2, { status: 'failed', dot: null, code: 'not_found', message: 'no' }, AT);
    // a second outcome for a finished item is ignored
    store.finish(job.seq, 1, { status: 'failed', dot: null, code: 'rejected', message: 'x' }, AT);
    store.finish(
      job.seq,
      3,
      { status: 'done', dot: '2214589', result: RESULT, source: 'cache' },
      AT,
    );
    store.complete(job.seq, AT);
    expect(store.job(job.id)).toMatchObject({ status: 'done', done: 2, failed: 1 });
    const first = store.items(job.seq, { offset: 0, limit: 1 })[0];
    expect(first).toMatchObject({
      status: 'done',
      verdict: 'pass',
      attempts: 1,
      source: 'upstream',
    });

    expect(statusAfter(job.id, 'retry-failed')).toBe('queued');
    const items = store.items(job.seq, { offset: 0, limit: 10 });
    expect(items.map((item) => item.status)).toEqual(['done', 'pending', 'done']);
    expect(items[1]?.error).toBeUndefined();
    expect(store.nextPending(job.seq)?.position).toBe(2);
    expect(store.nextRunnable()?.id).toBe(job.id);
    // nothing failed any more: nothing to retry
    expect(statusAfter(job.id, 'retry-failed')).toBe('refused:nothing_to_retry');
  });

  it('runs a running job (left by a restart) first, then the oldest queued; pages and filters items', () => {
    const older = newJob();
    const newer = newJob(['1', '2', '3', '4']);
    expect(store.nextRunnable()?.id).toBe(older.id);
    store.start(newer.seq, AT);
    expect(store.nextRunnable()?.id).toBe(newer.id);
    store.pauseFor(newer.seq, { code: 'budget_exceeded', message: 'over' }, AT);
    expect(store.job(newer.id)).toMatchObject({
      status: 'paused',
      pause_reason: { code: 'budget_exceeded', message: 'over' },
    });
    expect(store.jobs().map((job) => job.id)).toEqual([newer.id, older.id]);
    const page = store.items(newer.seq, { offset: 1, limit: 2 });
    expect(page.map((item) => item.position)).toEqual([2, 3]);
    expect(store.items(newer.seq, { offset: 0, limit: 10, status: 'done' })).toEqual([]);
  });

  it('finds a stored result of a DOT since a time', () => {
    const job = newJob();
    store.start(job.seq, AT);
    store.finish(
      job.seq,
      1,
      { status: 'done', dot: '568253', result: RESULT, source: 'upstream' },
      AT,
    );
    expect(store.storedResult('568253', '2026-11-20T09:00:00.000Z')).toMatchObject({
      dot: '568253',
      result: RESULT,
    });
    expect(store.storedResult('568253', '2026-11-20T11:00:00.000Z')).toBeUndefined();
    expect(store.storedResult('2214589', '2026-11-01T00:00:00.000Z')).toBeUndefined();
  });
});
