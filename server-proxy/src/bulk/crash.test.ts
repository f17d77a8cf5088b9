/**
 * kill -9 in the middle of a bulk job, then a restart on the same DATA_DIR: the job resumes where it
 * stopped, every carrier ends done exactly once, and the sandbox's own billing ledger shows each DOT
 * billed at most once. A real sandbox on loopback (it outlives the proxy, as the service would), the
 * proxy killed is a child process started with `tsx server-proxy/src/server.ts`.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createdAnswerSchema } from '../../../src/lib/bulk/contract.ts';
import { buildProxyApp } from '../app.ts';
import { CSRF, startProxyProcess, testConfig } from '../helpers.test-support.ts';
import { processHarness, waitForJob } from './process-harness.test-support.ts';

const KEY = 'sk_test_bulk_crash';
const CARRIERS = 60;

const { cleanups, tempDir, startSandbox, sandboxCall } = processHarness(KEY, 'bulk-crash-');

/** The proxy as a child process (killed at the end if still running). */
function startChild(upstream: string, dataDir: string) {
  return startProxyProcess({
    upstream,
    dataDir,
    apiKey: KEY,
    env: { UPSTREAM_RATE_LIMITS: 'off' },
    onStart: (child) =>
      cleanups.push(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }),
  });
}

describe('kill -9 during a bulk job', () => {
  it('resumes after a restart: every carrier done once, each DOT billed at most once', async () => {
    const sandbox = await startSandbox();
    const dataDir = tempDir();
    // Slow answers, so the kill lands in the middle of the job.
    const armed = await sandboxCall(sandbox, '/__sandbox/faults', 'POST', {
      rules: [{ path: '/v2/profile', delay_ms: 60, count: 10_000 }],
    });
    expect(armed.status).toBe(200);
    const first = await startChild(sandbox, dataDir);
    const dots = Array.from({ length: CARRIERS }, (_, i) => String(5_000_000 + i));
    const created = await fetch(`${first.url}/api/local/bulk-jobs`, {
      method: 'POST',
      headers: { ...CSRF, 'content-type': 'application/json' },
      body: JSON.stringify({ identifiers: dots }),
    });
    expect(created.status).toBe(202);
    const { id } = createdAnswerSchema.parse(await created.json());
    const before = await waitForJob(first.url, id, (job) => job.done >= 10);
    expect(before.status).toBe('running');

    const exited = once(first.child, 'exit');
    first.child.kill('SIGKILL');
    await exited;
    await sandboxCall(sandbox, '/__sandbox/faults', 'DELETE');

    // The restart: a proxy on the same DATA_DIR (in this process, which saves a second start-up of
    // a child; the kill above is the real one).
    const second = await buildProxyApp(
      testConfig({
        mode: 'test',
        dataDir,
        upstream: { baseUrl: sandbox, apiKey: KEY, legacy: false, timeoutMs: 5000 },
      }),
    );
    cleanups.push(() => second.close());
    await second.listen({ host: '127.0.0.1', port: 0 });
    const secondUrl = `http://127.0.0.1:${(second.server.address() as AddressInfo).port}`;
    // at once: the job's lease left in the file by the killed process is not waited out
    const after = await waitForJob(secondUrl, id, (job) => job.status === 'done', {
      ms: 8000,
    });
    expect(after).toMatchObject({ total: CARRIERS, done: CARRIERS, failed: 0 });
    expect(after.done).toBeGreaterThan(before.done);
    expect(after.items.map((item) => item.dot_number)).toEqual(dots);
    expect(after.items.every((item) => item.status === 'done')).toBe(true);
    // Done before the kill: kept as they were (one attempt each), not looked up again.
    const kept = after.items.filter((item) => item.position <= before.done);
    expect(kept.every((item) => item.attempts === 1)).toBe(true);

    // The service's bill: each of the 60 DOTs once, whatever was in flight at the kill.
    const ledger = (await (await sandboxCall(sandbox, '/__sandbox/ledger')).json()) as {
      keys: {
        months: { lines: { kind: string; billed_calls: number; unique_dots: number }[] }[];
      }[];
    };
    const lines = ledger.keys.flatMap((k) => k.months.flatMap((m) => m.lines));
    const profile = lines.filter((line) => line.kind === 'profile');
    expect(profile.reduce((n, line) => n + line.billed_calls, 0)).toBe(CARRIERS);
    expect(profile.reduce((n, line) => n + line.unique_dots, 0)).toBe(CARRIERS);

    // And the proxy's own ledger: no DOT priced twice.
    await second.proxy.governance.flush();
    const db = new Database(join(dataDir, 'proxy.sqlite'), { readonly: true });
    try {
      const priced = db
        .prepare<[], { dot: string; n: number }>(
          `SELECT dot, COUNT(*) AS n FROM spend_ledger
           WHERE endpoint = 'profile' AND price_mills > 0 GROUP BY dot`,
        )
        .all();
      expect(priced).toHaveLength(CARRIERS);
      expect(priced.every((row) => row.n === 1)).toBe(true);
    } finally {
      db.close();
    }
  }, 60_000);
});
