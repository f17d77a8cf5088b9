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
import { makeTempDir } from '../test-helpers.ts';
import { BulkRunner, OUTAGE_PAUSE_AFTER } from './runner.ts';
import { createBulkStore, type BulkStore, type JobRow } from './store.ts';

type Script = (query: Record<string, string>) => MirrorAnswer | ApiError;

let dir: string;
let db: Database.Database;
let store: BulkStore;
let runner: BulkRunner | undefined;
const calls: Record<string, string>[] = [];

beforeEach(() => {
  dir = makeTempDir();
  db = openProxyDb(join(dir, 'proxy.sqlite'));
  store = createBulkStore(db);
  calls.length = 0;
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

function make(script: Script): BulkRunner {
  const mirror: MirrorClient = {
    get: async (_endpoint, query) => {
      calls.push(query);
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
  });
  return runner;
}

function start(script: Script): BulkRunner {
  const started = make(script);
  started.start();
  return started;
}

function newJob(inputs: string[]): JobRow {
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
    const job = store.job(id);
    if (job && !['queued', 'running'].includes(job.status)) return job;
    if (Date.now() > until) throw new Error(`job stayed ${job?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const items = (job: JobRow) => store.items(job.seq, { offset: 0, limit: 100 });

describe('BulkRunner', () => {
  it('waits out a rate-limit refusal and asks again; 404 and empty answers are not_found; 4xx rejected', async () => {
    let limited = 0;
    const job = newJob(['1', '2', '3', 'MC4']);
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
      items(end).map((item) => [item.status, item.error?.code ?? null, item.attempts]),
    ).toEqual([
      ['done', null, 1],
      ['failed', 'not_found', 1],
      ['failed', 'not_found', 1],
      ['failed', 'rejected', 1],
    ]);
    expect(items(end)[3]?.error?.message).toBe('bad');
    // a docket is asked for one carrier, so its budget reservation is one profile, not a page
    expect(calls.at(-1)).toEqual({ docket_number: 'MC4', pageSize: '1' });
    expect(items(end)[0]?.result).toMatchObject({ name: 'CARRIER 1', verdict: expect.any(String) });
  });

  it(`pauses after ${OUTAGE_PAUSE_AFTER} carriers in a row fail on an outage`, async () => {
    const job = newJob(Array.from({ length: 8 }, (_, i) => String(i + 1)));
    start(() => new ApiError(503, 'upstream_unavailable', 'circuit open', 'wait'));
    const end = await settled(job.id);
    expect(end).toMatchObject({
      status: 'paused',
      failed: OUTAGE_PAUSE_AFTER,
      pause_reason: { code: 'upstream_unavailable' },
    });
    expect(items(end).filter((item) => item.status === 'pending')).toHaveLength(
      8 - OUTAGE_PAUSE_AFTER,
    );
  });

  it('pauses on a budget refusal and leaves that carrier pending', async () => {
    const job = newJob(['1', '2', '3']);
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
    expect(items(end).map((item) => item.status)).toEqual(['done', 'pending', 'pending']);
  });

  it('reuses a fresh stored result of a DOT instead of a call', async () => {
    const first = newJob(['7']);
    start((query) => profileOf(query.dot_number ?? ''));
    await settled(first.id);
    const second = newJob(['7']);
    runner?.wake();
    const end = await settled(second.id);
    expect(items(end)[0]).toMatchObject({ status: 'done', source: 'stored' });
    expect(calls).toHaveLength(1);
  });

  it('reports the pace from recent finishes, bounded by the rate limit', () => {
    const job = newJob(['1', '2', '3', '4']);
    // not started: the test finishes the items itself
    const pace = make(() => profileOf('1'));
    const at = (s: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, s));
    store.start(job.seq, at(0));
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
    store.finish(job.seq, 1, { ...done, result: fake }, at(0));
    expect(pace.pace({ ...job, status: 'running', done: 1 }, null)).toEqual({
      rate_per_minute: null,
      eta_seconds: null,
    });
    store.finish(job.seq, 2, { ...done, result: fake }, at(6));
    // one carrier every 6 s: 10 a minute, 2 left → 12 s
    expect(pace.pace({ ...job, status: 'running', done: 2 }, null)).toEqual({
      rate_per_minute: 10,
      eta_seconds: 12,
    });
    // a limit of 5 a minute bounds it
    expect(pace.pace({ ...job, status: 'running', done: 2 }, 5)).toEqual({
      rate_per_minute: 5,
      eta_seconds: 24,
    });
    expect(pace.pace({ ...job, status: 'paused', done: 2 }, 5).eta_seconds).toBeNull();
  });
});
