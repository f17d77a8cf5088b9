/**
 * The spend ledger, the monthly budget and the audit log shared through PostgreSQL (DATABASE_URL):
 * two proxies, each with its own DATA_DIR, on one real PostgreSQL and one sandbox of the service, over HTTP,
 * stand for two replicas of one key behind a load balancer. Skipped, with the reason, only where
 * PostgreSQL is not installed (sql/engines.test-support.ts).
 */
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildSandboxApp } from '../sandbox/index.ts';
import { usePostgres } from '../sql/engines.test-support.ts';
import { CSRF, startProxy, testConfig, type RunningProxy } from '../helpers.test-support.ts';

const KEY = 'sk_test_spend_replicas';

const postgres = usePostgres();

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A sandbox of the service (its own billing ledger), every profile answer 150 ms late. */
async function startSandbox(): Promise<{ url: string; profileCalls: () => Promise<number> }> {
  const dir = mkdtempSync(join(tmpdir(), 'spend-replicas-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const app = await buildSandboxApp({ dataDir: dir, apiKeys: [KEY], population: 200 });
  await app.listen({ host: '127.0.0.1', port: 0 });
  cleanups.push(() => app.close());
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const call = (path: string, method = 'GET', body?: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${KEY}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const armed = await call('/__sandbox/faults', 'POST', {
    rules: [{ path: '/v2/profile', delay_ms: 150, count: 10_000 }],
  });
  expect(armed.status).toBe(200);
  return {
    url,
    /** profile calls the service billed to the key */
    async profileCalls() {
      const ledger = (await (await call('/__sandbox/ledger')).json()) as {
        keys: { months: { lines: { kind: string; billed_calls: number }[] }[] }[];
      };
      return ledger.keys
        .flatMap((k) => k.months.flatMap((m) => m.lines))
        .filter((line) => line.kind === 'profile')
        .reduce((n, line) => n + line.billed_calls, 0);
    },
  };
}

/** Two replicas of the key: in-process proxies on one PostgreSQL database, their own DATA_DIR. */
async function startReplicas(sandbox: string, monthlyBudgetUsd?: number) {
  const databaseUrl = await postgres.freshDatabase();
  const config = () =>
    testConfig({
      mode: 'test',
      databaseUrl,
      monthlyBudgetUsd,
      upstream: { baseUrl: sandbox, apiKey: KEY } as never,
    });
  const replicas: RunningProxy[] = [];
  for (let i = 0; i < 2; i += 1) {
    const proxy = await startProxy(config());
    cleanups.push(() => proxy.close());
    replicas.push(proxy);
  }
  const [a, b] = replicas;
  if (!a || !b) throw new Error('replicas did not start');
  return { a, b };
}

interface UsageBody {
  spentUsd: number;
  reservedUsd: number;
  byUser: { user: string; calls: number; usd: number }[];
  byEndpoint: { endpoint: string; calls: number; billedUnits: number; usd: number }[];
}

async function usageOf(proxy: RunningProxy): Promise<UsageBody> {
  const answer = await proxy.call('/api/local/usage');
  expect(answer.status, answer.text).toBe(200);
  return answer.json as UsageBody;
}

const profile = (proxy: RunningProxy, dot: string) =>
  proxy.call(`/api/v2/profile?dot_number=${dot}`, { headers: CSRF });

describe('spend shared by two proxies on one PostgreSQL', () => {
  it('a carrier billed through one replica shows in the usage of the other, and is not billed again there', async () => {
    const sandbox = await startSandbox();
    const { a, b } = await startReplicas(sandbox.url);

    const first = await profile(a, '5000001');
    expect(first.status, first.text).toBe(200);
    const onB = await usageOf(b);
    expect(onB.spentUsd).toBe(3);
    expect(onB.byEndpoint.find((line) => line.endpoint === 'profile')).toMatchObject({
      calls: 1,
      billedUnits: 1,
      usd: 3,
    });

    // B has no cached answer (no shared cache here): it asks the service, which does not bill
    // the DOT again this month, and neither does the ledger.
    const again = await profile(b, '5000001');
    expect(again.status, again.text).toBe(200);
    const estimate = await b.call('/api/local/estimate', {
      method: 'POST',
      headers: CSRF,
      body: { action: 'profile', dots: ['5000001', '5000002'] },
    });
    expect(estimate.json).toMatchObject({ units: 2, billableUnits: 1, spentUsd: 3 });
    const onA = await usageOf(a);
    expect(onA.spentUsd).toBe(3);
    expect(onA.byEndpoint.find((line) => line.endpoint === 'profile')).toMatchObject({
      calls: 2,
      billedUnits: 1,
    });
    expect(await sandbox.profileCalls()).toBe(1);

    // The audit log is one log too: both calls read on either replica (rows are written in
    // batches within 100 ms).
    for (const proxy of [a, b]) {
      await vi.waitFor(async () => {
        const audit = await proxy.call('/api/local/audit?dot=5000001');
        expect(audit.status, audit.text).toBe(200);
        expect(audit.json).toMatchObject({ total_count: 2 });
      });
    }
  });

  it('with the budget nearly spent, concurrent requests over both replicas never cross it', async () => {
    const sandbox = await startSandbox();
    const { a, b } = await startReplicas(sandbox.url, 10);
    expect((await profile(a, '5000010')).status).toBe(200);

    // 7 USD left: two more new carriers at 3 USD, whichever replica they reach.
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => profile(i % 2 === 0 ? a : b, String(5000020 + i))),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.filter((status) => status === 402)).toHaveLength(14);
    expect(answers.find((answer) => answer.status === 402)?.json).toMatchObject({
      code: 'budget_exceeded',
    });
    for (const proxy of [a, b]) {
      expect(await usageOf(proxy)).toMatchObject({ spentUsd: 9, reservedUsd: 0 });
    }
    expect(await sandbox.profileCalls()).toBe(3);
  });

  // Last: stops the PostgreSQL server.
  it('PostgreSQL down: a priced call is refused with 503 storage_unavailable before it is sent', async () => {
    const sandbox = await startSandbox();
    const { a } = await startReplicas(sandbox.url, 100);
    expect((await profile(a, '5000040')).status).toBe(200);
    await postgres.stop();

    const refused = await profile(a, '5000041');
    expect(refused.status, refused.text).toBe(503);
    expect(refused.json).toMatchObject({ code: 'storage_unavailable' });
    expect((refused.json as { hint: string }).hint).toBeTruthy();
    const usage = await a.call('/api/local/usage');
    expect(usage.status, usage.text).toBe(503);
    expect(usage.json).toMatchObject({ code: 'storage_unavailable' });
    expect(await sandbox.profileCalls()).toBe(1);
  }, 60_000);
});
