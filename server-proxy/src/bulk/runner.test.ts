/**
 * The runner's handling of each kind of answer, with a scripted mirror client in place of the
 * proxy's (the HTTP tests in routes.test.ts and crash.test.ts use the real one): rate-limit waits
 * retried without a failure, 4xx rejected, a long outage pausing the job, a budget refusal pausing
 * it with the item left pending, and the rate and ETA figures.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BulkEstimate } from '../../../src/lib/bulk/contract.ts';
import { checkIdentifiers } from '../../../src/lib/service/rules/entries.ts';
import { defaultSettings } from '../../../src/lib/vetting/index.ts';
import { openProxyDb } from '../db.ts';
import { ApiError } from '../http/api-error.ts';
import type { MirrorAnswer, MirrorClient } from '../routes/mirror.ts';
import { makeTempDir } from '../helpers.test-support.ts';
import { leaseHolder } from '../sql/lease.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { BulkRunner, OUTAGE_PAUSE_AFTER, type RunnerDeps } from './runner.ts';
import { createBulkStore, jobLeaseName, type BulkStore, type JobRow } from './store.ts';

type Script = (query: Record<string, string>) => MirrorAnswer | ApiError;

let dir: string;
let db: Database.Database;
let store: BulkStore;
let runner: BulkRunner | undefined;
const calls: Record<string, string>[] = [];
/** while set, the mirror's first answer waits for it (a replica stalled mid-item) */
let stallFirst: Promise<void> | undefined;

beforeEach(() => {
  dir = makeTempDir();
  db = openProxyDb(join(dir, 'proxy.sqlite'));
  store = createBulkStore(createSqliteEngine(db), { db });
  calls.length = 0;
  stallFirst = undefined;
});

afterEach(async () => {
  await runner?.stop();
  runner = undefined;
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const profileOf = (dot: string): MirrorAnswer => ({
  status: 200,
  json: { items: [{ dot_number: dot, legal_name: `CARRIER ${dot}`, usdot_status: 'ACTIVE' }] },
  cacheHit: false,
});

function make(script: Script, options: Partial<RunnerDeps> = {}): BulkRunner {
  const mirror: MirrorClient = {
    get: async (_endpoint, query) => {
      calls.push(query);
      if (calls.length === 1 && stallFirst) await stallFirst;
      const answer = script(query);
      if (answer instanceof ApiError) throw answer;
      return answer;
    },
  };
  runner = new BulkRunner({
    store,
    mirror,
    policy: () => ({ version: 1, settings: defaultSettings() }),
    profileTtlMs: 3_600_000,
    log: { warn: () => undefined, error: () => undefined },
    ...options,
  });
  return runner;
}

function start(script: Script, options: Partial<RunnerDeps> = {}): BulkRunner {
  const started = make(script, options);
  started.start();
  return started;
}

function newJob(inputs: string[]): Promise<JobRow> {
  const { valid } = checkIdentifiers(inputs);
  return store.create({
    identifiers: valid,
    estimate: {} as BulkEstimate,
    user: 'ann',
    at: new Date(),
  });
}

async function settled(id: string): Promise<JobRow> {
  const until = Date.now() + 5000;
  for (;;) {
    const job = await store.job(id);
    if (job && !['queued', 'running'].includes(job.status)) return job;
    if (Date.now() > until) throw new Error(`job stayed ${job?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sqlOf = () => createSqliteEngine(db);

async function waitFor(check: () => Promise<boolean>, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const RESULT = {
  name: null,
  verdict: 'pass' as const,
  policy_version: 1,
  reasons: [],
  usdot_status: null,
  authority: null,
  insurance: null,
  safety_rating: null,
  basic_alerts: [],
  out_of_service: null,
  linked_warnings: 0,
  snapshot_date: null,
};

const items = (job: JobRow) => store.items(job.seq, { offset: 0, limit: 100 });

describe('BulkRunner', () => {
  it('waits out a rate-limit refusal and asks again; 404 and empty answers are not_found; 4xx rejected', async () => {
    let limited = 0;
    const job = await newJob(['1', '2', '3', 'MC4']);
    const running = start((query) => {
      if (query.dot_number === '1' && limited++ === 0) {
        // the wait is cut short by a wake-up, as a new job or an action does
        setTimeout(() => running.wake(), 20);
        return new ApiError(429, 'rate_limited', 'used up', 'wait', { 'retry-after': '30' });
      }
      if (query.dot_number === '2')
        return { status: 404, json: { error: 'none' }, cacheHit: false };
      if (query.dot_number === '3') return { status: 200, json: { items: [] }, cacheHit: false };
      if (query.docket_number === 'MC4')
        return { status: 400, json: { error: 'bad' }, cacheHit: false };
      return profileOf(query.dot_number ?? '');
    });
    const end = await settled(job.id);
    expect(end).toMatchObject({ status: 'done', done: 1, failed: 3 });
    expect(
      (await items(end)).map((item) => [item.status, item.error?.code ?? null, item.attempts]),
    ).toEqual([
      ['done', null, 1],
      ['failed', 'not_found', 1],
      ['failed', 'not_found', 1],
      ['failed', 'rejected', 1],
    ]);
    expect((await items(end))[3]?.error?.message).toBe('bad');
    // a docket is asked for one carrier, so its budget reservation is one profile, not a page
    expect(calls.at(-1)).toEqual({ docket_number: 'MC4', pageSize: '1' });
    expect((await items(end))[0]?.result).toMatchObject({
      name: 'CARRIER 1',
      verdict: expect.any(String),
    });
  });

  it(`pauses after ${OUTAGE_PAUSE_AFTER} carriers in a row fail on an outage`, async () => {
    const job = await newJob(Array.from({ length: 8 }, (_, i) => String(i + 1)));
    start(() => new ApiError(503, 'upstream_unavailable', 'circuit open', 'wait'));
    const end = await settled(job.id);
    expect(end).toMatchObject({
      status: 'paused',
      failed: OUTAGE_PAUSE_AFTER,
      pause_reason: { code: 'upstream_unavailable' },
    });
    expect((await items(end)).filter((item) => item.status === 'pending')).toHaveLength(
      8 - OUTAGE_PAUSE_AFTER,
    );
  });

  it('pauses on a budget refusal and leaves that carrier pending', async () => {
    const job = await newJob(['1', '2', '3']);
    start((query) =>
      query.dot_number === '2'
        ? new ApiError(402, 'budget_exceeded', 'over 10.00 USD', 'raise it')
        : profileOf(query.dot_number ?? ''),
    );
    const end = await settled(job.id);
    expect(end).toMatchObject({
      status: 'paused',
      done: 1,
      pause_reason: { code: 'budget_exceeded', message: 'over 10.00 USD' },
    });
    expect((await items(end)).map((item) => item.status)).toEqual(['done', 'pending', 'pending']);
  });

  it('vets a carrier given as its docket and as its DOT once: one call, one row with both inputs', async () => {
    // the docket first: its answer names DOT 568253, which the job lists again on line 3
    const job = await newJob(['MC123456', '2214589', '568253']);
    start((query) =>
      query.docket_number === 'MC123456' ? profileOf('568253') : profileOf(query.dot_number ?? ''),
    );
    const end = await settled(job.id);
    expect(calls).toEqual([
      { docket_number: 'MC123456', pageSize: '1' },
      { dot_number: '2214589' },
    ]);
    expect(end).toMatchObject({ status: 'done', total: 3, done: 3, merged: 1 });
    const listed = await items(end);
    expect(listed.map((item) => [item.identifier, item.dot_number])).toEqual([
      ['MC123456', '568253'],
      ['2214589', '2214589'],
    ]);
    expect(listed[0]?.inputs).toEqual([
      { identifier: 'MC123456', row: 1 },
      { identifier: '568253', row: 3 },
    ]);
  });

  it('reuses a fresh stored result of a DOT instead of a call', async () => {
    const first = await newJob(['7']);
    start((query) => profileOf(query.dot_number ?? ''));
    await settled(first.id);
    const second = await newJob(['7']);
    runner?.wake();
    const end = await settled(second.id);
    expect((await items(end))[0]).toMatchObject({ status: 'done', source: 'stored' });
    expect(calls).toHaveLength(1);
  });

  it('reports the pace from recent finishes, bounded by the rate limit', async () => {
    const job = await newJob(['1', '2', '3', '4']);
    // not started: the test finishes the items itself
    const pace = make(() => profileOf('1'));
    const at = (s: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, s));
    await store.start(job.seq, at(0));
    const done = { status: 'done' as const, dot: '1', source: 'upstream' as const };
    const fake = {
      name: null,
      verdict: 'pass' as const,
      policy_version: 1,
      reasons: [],
      usdot_status: null,
      authority: null,
      insurance: null,
      safety_rating: null,
      basic_alerts: [],
      out_of_service: null,
      linked_warnings: 0,
      snapshot_date: null,
    };
    await store.finish(job.seq, 1, { ...done, result: fake }, at(0));
    expect(await pace.pace({ ...job, status: 'running', done: 1 }, null)).toEqual({
      rate_per_minute: null,
      eta_seconds: null,
    });
    await store.finish(job.seq, 2, { ...done, result: fake }, at(6));
    // one carrier every 6 s: 10 a minute, 2 left → 12 s
    expect(await pace.pace({ ...job, status: 'running', done: 2 }, null)).toEqual({
      rate_per_minute: 10,
      eta_seconds: 12,
    });
    // a limit of 5 a minute bounds it
    expect(await pace.pace({ ...job, status: 'running', done: 2 }, 5)).toEqual({
      rate_per_minute: 5,
      eta_seconds: 24,
    });
    expect((await pace.pace({ ...job, status: 'paused', done: 2 }, 5)).eta_seconds).toBeNull();
  });
  it('leaves a job another replica holds alone, and takes it over once that lease lapses', async () => {
    // started first: on SQLite a runner clears the leases a predecessor left at its start
    start((query) => profileOf(query.dot_number ?? ''), { leaseTtlMs: 300, pollMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const job = await newJob(['1', '2', '3']);
    // a replica took the job, did the first carrier, and died with its lease still running
    expect(await store.claim(job.id, 'dead-replica', 600)).toBe(true);
    await store.start(job.seq, new Date());
    const done = { status: 'done' as const, dot: '1', source: 'upstream' as const };
    await store.finish(job.seq, 1, { ...done, result: RESULT }, new Date());
    runner?.wake();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls).toEqual([]);
    expect((await store.job(job.id))?.status).toBe('running');
    const end = await settled(job.id);
    expect(end).toMatchObject({ status: 'done', done: 3, failed: 0 });
    // the item the dead replica finished is kept; the others were looked up once each
    expect(calls.map((query) => query.dot_number)).toEqual(['2', '3']);
    expect((await items(end)).map((item) => item.attempts)).toEqual([1, 1, 1]);
    // released when the job ended
    expect(await leaseHolder(sqlOf(), jobLeaseName(job.id))).toBeUndefined();
  });

  it('stops a job paused elsewhere during a rate-limit wait, without waiting it out', async () => {
    const job = await newJob(['1', '2']);
    start(() => new ApiError(429, 'rate_limited', 'used up', 'wait', { 'retry-after': '60' }), {
      leaseTtlMs: 300,
    });
    await waitFor(async () => calls.length > 0);
    // the pause comes from another replica: no wake() here, the lease's watch notices it
    const paused = await store.act(job.id, 'pause', new Date());
    expect(paused.ok).toBe(true);
    const t0 = Date.now();
    // the runner gives the job's lease up once it has stopped working it
    await waitFor(async () => (await leaseHolder(sqlOf(), jobLeaseName(job.id))) === undefined);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(calls).toHaveLength(1);
    expect((await store.job(job.id))?.status).toBe('paused');
  });

  it('stops working a job whose lease another replica has taken', async () => {
    const job = await newJob(['1', '2', '3', '4']);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // this replica stalls on the first carrier past its lease: another takes the job meanwhile
    stallFirst = held;
    start((query) => profileOf(query.dot_number ?? ''), { leaseTtlMs: 300 });
    await waitFor(async () => calls.length === 1);
    await sqlOf().run('UPDATE lease SET holder = ?, expires_ms = ? WHERE name = ?', [
      'other-replica',
      Date.now() + 60_000,
      jobLeaseName(job.id),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 250));
    release();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // the stalled answer is not committed, and no further carrier is looked up here
    expect(calls).toHaveLength(1);
    expect((await items(job)).every((item) => item.status === 'pending')).toBe(true);
    expect(await leaseHolder(sqlOf(), jobLeaseName(job.id))).toBe('other-replica');
  });
});
