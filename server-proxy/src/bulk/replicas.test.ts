/**
 * A bulk job across two replicas: two proxy processes (children started with tsx, each with its own
 * DATA_DIR) on one real PostgreSQL (DATABASE_URL) and one Redis (REDIS_URL), against one sandbox on
 * loopback. The replica working the job holds its lease; a pause made on the other stops it there;
 * SIGKILL the replica working it, and the other takes the job over once the lease lapses and
 * finishes it: every carrier done exactly once, and the sandbox's own billing ledger shows each DOT
 * billed at most once. Skipped, with the reason, only where PostgreSQL or Redis is not installed.
 */
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createdAnswerSchema } from '../../../src/lib/bulk/contract.ts';
import { leaseHolder } from '../sql/lease.ts';
import { createPostgresEngine } from '../sql/postgres.ts';
import { usePostgres } from '../sql/engines.test-support.ts';
import { useRedis } from '../team/replicas.test-support.ts';
import {
  captureLog,
  CSRF,
  startProxy,
  startProxyProcess,
  testConfig,
} from '../helpers.test-support.ts';
import { processHarness, readJob, waitForJob } from './process-harness.test-support.ts';
import { jobLeaseName } from './store.ts';

const KEY = 'sk_test_bulk_replicas';
const CARRIERS = 100;
/** not too often: the proxy limits requests per client (600 a minute) */
const SLOW_POLL = { everyMs: 200 };

const postgres = usePostgres();
const redis = useRedis();

const { cleanups, tempDir, startSandbox, sandboxCall } = processHarness(KEY, 'bulk-replicas-');

/** One replica: a proxy child process on the shared PostgreSQL and Redis, its own DATA_DIR. */
function startReplica(upstream: string, databaseUrl: string, redisUrl: string) {
  return startProxyProcess({
    upstream,
    dataDir: tempDir(),
    apiKey: KEY,
    env: { UPSTREAM_RATE_LIMITS: 'off', DATABASE_URL: databaseUrl, REDIS_URL: redisUrl },
    onStart: (child) =>
      cleanups.push(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }),
  });
}

function act(url: string, id: string, action: string) {
  return fetch(`${url}/api/local/bulk-jobs/${id}/${action}`, { method: 'POST', headers: CSRF });
}

describe('a bulk job on two replicas', () => {
  it('runs on one replica; a pause on the other stops it; SIGKILL its replica and the other finishes it, each DOT billed at most once', async () => {
    const sandbox = await startSandbox();
    const databaseUrl = await postgres.freshDatabase();
    const sql = createPostgresEngine(databaseUrl);
    cleanups.push(() => sql.close());
    // Slow answers, so the pause and the kill land in the middle of the job.
    const armed = await sandboxCall(sandbox, '/__sandbox/faults', 'POST', {
      rules: [{ path: '/v2/profile', delay_ms: 100, count: 10_000 }],
    });
    expect(armed.status).toBe(200);
    const replicas = await Promise.all([
      startReplica(sandbox, databaseUrl, redis.url),
      startReplica(sandbox, databaseUrl, redis.url),
    ]);
    const [a, b] = replicas;
    if (!a || !b) throw new Error('replicas did not start');
    /** The replica holding the job's lease now, and the other. */
    const holderOf = async (id: string) => {
      const holder = await leaseHolder(sql, jobLeaseName(id));
      const working = replicas.find((r) => holder?.startsWith(`bulk:${r.child.pid}:`));
      const other = replicas.find((r) => r !== working);
      if (!working || !other) throw new Error(`no replica holds the job (${holder ?? 'none'})`);
      return { working, other };
    };

    const dots = Array.from({ length: CARRIERS }, (_, i) => String(5_000_000 + i));
    const created = await fetch(`${a.url}/api/local/bulk-jobs`, {
      method: 'POST',
      headers: { ...CSRF, 'content-type': 'application/json' },
      body: JSON.stringify({ identifiers: dots }),
    });
    expect(created.status, await created.clone().text()).toBe(202);
    const { id } = createdAnswerSchema.parse(await created.json());
    await waitForJob(a.url, id, (job) => job.done >= 5, SLOW_POLL);

    // Paused on the replica that is not working it: the one that is stops within a second or so.
    const first = await holderOf(id);
    const paused = await act(first.other.url, id, 'pause');
    expect(paused.status, await paused.clone().text()).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const still = await readJob(first.working.url, id);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await readJob(first.working.url, id)).toMatchObject({
      status: 'paused',
      done: still.done,
    });
    expect(await leaseHolder(sql, jobLeaseName(id))).toBeUndefined();
    expect((await act(first.other.url, id, 'resume')).status).toBe(200);

    // Long enough (over 6 s) for the idle replica to look for work at least once meanwhile: it
    // must leave the job alone while its lease is held.
    const before = await waitForJob(a.url, id, (job) => job.done >= still.done + 60, SLOW_POLL);
    expect(before.status).toBe('running');
    const { working, other } = await holderOf(id);
    const exited = once(working.child, 'exit');
    working.child.kill('SIGKILL');
    await exited;
    await sandboxCall(sandbox, '/__sandbox/faults', 'DELETE');

    // The survivor takes the job over once the dead replica's lease lapses (15 s), and finishes it.
    const after = await waitForJob(other.url, id, (job) => job.status === 'done', {
      ...SLOW_POLL,
      ms: 45_000,
    });
    expect(after).toMatchObject({ total: CARRIERS, done: CARRIERS, failed: 0 });
    expect(after.items.map((item) => item.dot_number)).toEqual(dots);
    // every carrier done exactly once: one committed attempt each
    expect(after.items.every((item) => item.status === 'done' && item.attempts === 1)).toBe(true);
    // each looked up by one replica: from the service, but for the one in flight at the kill,
    // which the survivor may have found in the shared cache
    const notUpstream = after.items.filter((item) => item.source !== 'upstream');
    expect(notUpstream.length, JSON.stringify(notUpstream)).toBeLessThanOrEqual(1);

    // The service's bill: each of the DOTs once, whatever was in flight at the kill.
    const ledger = (await (await sandboxCall(sandbox, '/__sandbox/ledger')).json()) as {
      keys: {
        months: {
          lines: { kind: string; calls: number; billed_calls: number; unique_dots: number }[];
        }[];
      }[];
    };
    const lines = ledger.keys.flatMap((k) => k.months.flatMap((m) => m.lines));
    const profile = lines.filter((line) => line.kind === 'profile');
    expect(profile.reduce((n, line) => n + line.billed_calls, 0)).toBe(CARRIERS);
    expect(profile.reduce((n, line) => n + line.unique_dots, 0)).toBe(CARRIERS);
    // and asked for once, by one replica at a time: at most the carrier in flight at the kill was
    // asked again (when its answer had not reached the shared cache yet)
    expect(profile.reduce((n, line) => n + line.calls, 0)).toBeLessThanOrEqual(CARRIERS + 1);
    // the survivor gave the lease up at the end
    expect(await leaseHolder(sql, jobLeaseName(id))).toBeUndefined();
  }, 150_000);

  // Last: stops the PostgreSQL server.
  it('PostgreSQL down: the bulk routes answer 503 storage_unavailable, not 500', async () => {
    const log = captureLog();
    const proxy = await startProxy(
      testConfig({ databaseUrl: await postgres.freshDatabase(), logLevel: 'info' }),
      { logStream: log },
    );
    cleanups.push(() => proxy.close());
    const body = { identifiers: ['568253', '2214589'] };
    const created = await proxy.call('/api/local/bulk-jobs', {
      method: 'POST',
      headers: CSRF,
      body,
    });
    expect(created.status, created.text).toBe(202);
    const { id } = createdAnswerSchema.parse(created.json);
    await postgres.stop();

    const answers = [
      await proxy.call('/api/local/bulk-jobs'),
      await proxy.call(`/api/local/bulk-jobs/${id}`),
      await proxy.call(`/api/local/bulk-jobs/${id}/cancel`, { method: 'POST', headers: CSRF }),
      await proxy.call('/api/local/bulk-jobs', { method: 'POST', headers: CSRF, body }),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.json).toMatchObject({ code: 'storage_unavailable' });
    }
    expect(log.lines.filter((line) => line.includes('unexpected error'))).toEqual([]);
  }, 60_000);
});
