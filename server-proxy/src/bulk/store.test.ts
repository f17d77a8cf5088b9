/**
 * The job state machine and the item bookkeeping of the bulk store, on both engines (SQLite's proxy
 * file and PostgreSQL, migration 8, with the same SQL): which actions each state allows, what
 * cancel and retry-failed do to items, that an item is finished once only, and the job leases.
 * PostgreSQL's half is skipped, with the reason printed, only where it is not installed.
 */
import { beforeEach, expect, it } from 'vitest';
import type { BulkEstimate, ItemResult } from '../../../src/lib/bulk/contract.ts';
import { checkList, splitNumbered } from '../../../src/lib/bulk/list.ts';
import { checkIdentifiers } from '../../../src/lib/service/rules/entries.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { leaseHolder } from '../sql/lease.ts';
import { forEachEngine } from '../sql/engines.test-support.ts';
import { createBulkStore, jobLeaseName, type BulkStore, type JobAction } from './store.ts';

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

forEachEngine('bulk job store', (engine) => {
  let sql: SqlEngine;
  let store: BulkStore;

  beforeEach(() => {
    sql = engine.sql;
    store = createBulkStore(sql);
  });

  function newJob(inputs = ['568253', 'MC-277621', '2214589']) {
    const { valid } = checkIdentifiers(inputs);
    return store.create({ identifiers: valid, estimate: ESTIMATE, user: 'ann', at: AT });
  }

  async function statusAfter(id: string, action: JobAction): Promise<string> {
    const outcome = await store.act(id, action, AT);
    return outcome.ok ? outcome.job.status : `refused:${outcome.code}`;
  }

  it('creates a queued job with one pending item per identifier, in order', async () => {
    const job = await newJob();
    expect(job).toMatchObject({
      status: 'queued',
      total: 3,
      done: 0,
      failed: 0,
      created_by: 'ann',
    });
    const items = await store.items(job.seq, { offset: 0, limit: 10 });
    expect(items.map((item) => [item.position, item.identifier, item.status])).toEqual([
      [1, '568253', 'pending'],
      [2, 'MC-277621', 'pending'],
      [3, '2214589', 'pending'],
    ]);
    expect(items[0]?.dot_number).toBe('568253');
    expect(items[1]?.dot_number).toBeUndefined();
    expect(await store.nextPending(job.seq)).toEqual({
      position: 1,
      kind: 'dot',
      lookup: '568253',
      attempts: 0,
    });
  });

  it('allows pause ⇄ resume, then cancel; refuses the impossible transitions', async () => {
    const { id } = await newJob();
    expect(await statusAfter(id, 'resume')).toBe('refused:invalid_transition');
    expect(await statusAfter(id, 'pause')).toBe('paused');
    expect(await statusAfter(id, 'pause')).toBe('refused:invalid_transition');
    expect(await statusAfter(id, 'resume')).toBe('queued');
    expect(await statusAfter(id, 'cancel')).toBe('cancelled');
    for (const action of ['pause', 'resume', 'cancel', 'retry-failed'] as const) {
      expect(await statusAfter(id, action)).toBe('refused:invalid_transition');
    }
    const failed = await newJob();
    await store.start(failed.seq, AT);
    await store.fail(failed.seq, { code: 'internal_error', message: 'disk' }, AT);
    expect((await store.job(failed.id))?.pause_reason).toEqual({
      code: 'internal_error',
      message: 'disk',
    });
    expect(await statusAfter(failed.id, 'resume')).toBe('queued');
    expect((await store.job(failed.id))?.pause_reason).toBeNull();
    const refused = await store.act(id, 'resume', AT);
    expect(refused).toMatchObject({ ok: false, hint: expect.stringContaining('paused') });
  });

  it('cancels the pending items only', async () => {
    const job = await newJob();
    expect(await store.start(job.seq, AT)).toBe(true);
    await store.finish(
      job.seq,
      1,
      { status: 'done', dot: '568253', result: RESULT, source: 'upstream' },
      AT,
    );
    await store.act(job.id, 'cancel', AT);
    const statuses = (await store.items(job.seq, { offset: 0, limit: 10 })).map(
      (item) => item.status,
    );
    expect(statuses).toEqual(['done', 'cancelled', 'cancelled']);
    expect(await store.runnable()).toEqual([]);
  });

  it('finishes an item once; retry-failed re-queues failed items only and restarts a done job', async () => {
    const job = await newJob();
    await store.start(job.seq, AT);
    await store.finish(
      job.seq,
      1,
      { status: 'done', dot: '568253', result: RESULT, source: 'upstream' },
      AT,
    );
    await store.finish(
      job.seq,
      2,
      { status: 'failed', dot: null, code: 'not_found', message: 'no' },
      AT,
    );
    // a second outcome for a finished item is ignored
    await store.finish(
      job.seq,
      1,
      { status: 'failed', dot: null, code: 'rejected', message: 'x' },
      AT,
    );
    await store.finish(
      job.seq,
      3,
      { status: 'done', dot: '2214589', result: RESULT, source: 'cache' },
      AT,
    );
    await store.complete(job.seq, AT);
    expect(await store.job(job.id)).toMatchObject({ status: 'done', done: 2, failed: 1 });
    const first = (await store.items(job.seq, { offset: 0, limit: 1 }))[0];
    expect(first).toMatchObject({
      status: 'done',
      verdict: 'pass',
      attempts: 1,
      source: 'upstream',
    });

    expect(await statusAfter(job.id, 'retry-failed')).toBe('queued');
    const items = await store.items(job.seq, { offset: 0, limit: 10 });
    expect(items.map((item) => item.status)).toEqual(['done', 'pending', 'done']);
    expect(items[1]?.error).toBeUndefined();
    expect((await store.nextPending(job.seq))?.position).toBe(2);
    expect((await store.runnable())[0]?.id).toBe(job.id);
    // nothing failed any more: nothing to retry
    expect(await statusAfter(job.id, 'retry-failed')).toBe('refused:nothing_to_retry');
  });

  it('runs a running job (left by a restart) first, then the oldest queued; pages and filters items', async () => {
    const older = await newJob();
    const newer = await newJob(['1', '2', '3', '4']);
    expect((await store.runnable())[0]?.id).toBe(older.id);
    await store.start(newer.seq, AT);
    expect((await store.runnable())[0]?.id).toBe(newer.id);
    await store.pauseFor(newer.seq, { code: 'budget_exceeded', message: 'over' }, AT);
    expect(await store.job(newer.id)).toMatchObject({
      status: 'paused',
      pause_reason: { code: 'budget_exceeded', message: 'over' },
    });
    expect((await store.jobs()).map((job) => job.id)).toEqual([newer.id, older.id]);
    const page = await store.items(newer.seq, { offset: 1, limit: 2 });
    expect(page.map((item) => item.position)).toEqual([2, 3]);
    expect(await store.items(newer.seq, { offset: 0, limit: 10, status: 'done' })).toEqual([]);
  });

  it('finds a stored result of a DOT since a time', async () => {
    const job = await newJob();
    await store.start(job.seq, AT);
    await store.finish(
      job.seq,
      1,
      { status: 'done', dot: '568253', result: RESULT, source: 'upstream' },
      AT,
    );
    expect(await store.storedResult('568253', '2026-11-20T09:00:00.000Z')).toMatchObject({
      dot: '568253',
      result: RESULT,
    });
    expect(await store.storedResult('568253', '2026-11-20T11:00:00.000Z')).toBeUndefined();
    expect(await store.storedResult('2214589', '2026-11-01T00:00:00.000Z')).toBeUndefined();
  });
  it("keeps each item's line or row and the entries left out, read back by a new store (a restart)", async () => {
    // a file: header on row 1, blank rows 4 and 6, junk and a repeat
    const text = 'DOT\n568253\nnonsense\n\nMC-277621\n\n123456789\n568253\n2214589';
    const { valid, rejected } = checkList(splitNumbered(text).slice(1), 'row');
    const estimate = { ...ESTIMATE, rejected, numbering: 'row' as const };
    const job = await store.create({ identifiers: valid, estimate, user: 'ann', at: AT });
    const restarted = createBulkStore(sql);
    const again = await restarted.job(job.id);
    expect(again?.estimate).toEqual(estimate);
    expect(again?.estimate.rejected.map((entry) => [entry.position, entry.reason])).toEqual([
      [3, 'invalid'],
      [7, 'invalid'],
      [8, 'duplicate'],
    ]);
    expect(again?.estimate.rejected[2]?.message).toBe('Repeats row 2 (568253).');
    const items = await restarted.items(job.seq, { offset: 0, limit: 10 });
    expect(items.map((item) => [item.position, item.row, item.identifier])).toEqual([
      [1, 2, '568253'],
      [2, 5, 'MC-277621'],
      [3, 9, '2214589'],
    ]);
  });

  it('lists a docket resolved to a DOT the job also holds once, with both inputs, either order', async () => {
    // the DOT first: the docket's answer names the DOT already done
    const first = await store.create({
      identifiers: checkList(
        [
          { input: '568253', position: 3 },
          { input: 'MC123456', position: 9 },
          { input: '2214589', position: 10 },
        ],
        'row',
      ).valid,
      estimate: ESTIMATE,
      user: 'ann',
      at: AT,
    });
    await store.start(first.seq, AT);
    const done = { status: 'done', dot: '568253', result: RESULT, source: 'upstream' } as const;
    await store.finish(first.seq, 1, done, AT);
    await store.finish(first.seq, 2, { ...done, source: 'cache' }, AT);
    expect(await store.job(first.id)).toMatchObject({ total: 3, done: 2, merged: 1 });
    const listed = await store.items(first.seq, { offset: 0, limit: 10 });
    expect(listed.map((item) => [item.row, item.identifier, item.dot_number])).toEqual([
      [3, '568253', '568253'],
      [10, '2214589', '2214589'],
    ]);
    expect(listed[0]?.inputs).toEqual([
      { identifier: '568253', row: 3 },
      { identifier: 'MC123456', row: 9 },
    ]);
    expect(listed[1]?.inputs).toBeUndefined();

    // the docket first: the DOT listed later is merged when the docket resolves, never asked
    const second = await store.create({
      identifiers: checkList(
        [
          { input: 'MC123456', position: 1 },
          { input: 'USDOT 568253', position: 2 },
        ],
        'line',
      ).valid,
      estimate: ESTIMATE,
      user: 'ann',
      at: AT,
    });
    await store.start(second.seq, AT);
    await store.finish(second.seq, 1, done, AT);
    expect(await store.nextPending(second.seq)).toBeUndefined();
    const one = await store.items(second.seq, { offset: 0, limit: 10 });
    expect(one).toHaveLength(1);
    expect(one[0]).toMatchObject({ identifier: 'MC123456', dot_number: '568253', status: 'done' });
    expect(one[0]?.inputs).toEqual([
      { identifier: 'MC123456', row: 1 },
      { identifier: 'USDOT 568253', row: 2 },
    ]);
    expect(await store.job(second.id)).toMatchObject({ total: 2, done: 2, merged: 1 });
  });

  it('stores a large job in order, with numbers (not strings) from either engine', async () => {
    const dots = Array.from({ length: 1201 }, (_, i) => String(3_000_000 + i));
    const job = await newJob(dots);
    expect(job).toMatchObject({ total: 1201, done: 0, failed: 0 });
    expect(typeof job.seq).toBe('number');
    const tail = await store.items(job.seq, { offset: 1199, limit: 10 });
    expect(tail.map((item) => [item.position, item.identifier])).toEqual([
      [1200, '3001199'],
      [1201, '3001200'],
    ]);
    const second = await newJob(['1']);
    expect(second.seq).toBeGreaterThan(job.seq);
    expect(await store.nextPending(second.seq)).toEqual({
      position: 1,
      kind: 'dot',
      lookup: '1',
      attempts: 0,
    });
  });

  it('lets a pause or cancel stand against the runner finishing the job', async () => {
    const job = await newJob(['1']);
    await store.start(job.seq, AT);
    expect(await statusAfter(job.id, 'cancel')).toBe('cancelled');
    await store.complete(job.seq, AT);
    await store.fail(job.seq, { code: 'internal_error', message: 'x' }, AT);
    expect(await store.job(job.id)).toMatchObject({ status: 'cancelled', pause_reason: null });
    // two replicas acting on one job at once: each sees the other's outcome
    const other = await newJob(['2']);
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => statusAfter(other.id, 'pause')),
    );
    expect(outcomes.filter((outcome) => outcome === 'paused')).toHaveLength(1);
  });

  it('gives a job to one lease holder at a time; a released or lapsed lease passes on', async () => {
    const job = await newJob();
    expect(await store.claim(job.id, 'a', 60_000)).toBe(true);
    expect(await store.claim(job.id, 'b', 60_000)).toBe(false);
    // renewing is the holder's own
    expect(await store.claim(job.id, 'a', 60_000)).toBe(true);
    expect(await leaseHolder(sql, jobLeaseName(job.id))).toBe('a');
    await store.release(job.id, 'b');
    expect(await leaseHolder(sql, jobLeaseName(job.id))).toBe('a');
    await store.release(job.id, 'a');
    expect(await store.claim(job.id, 'b', 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await store.claim(job.id, 'a', 60_000)).toBe(true);
    await store.dropLeases();
    expect(await leaseHolder(sql, jobLeaseName(job.id))).toBeUndefined();
  });
});
