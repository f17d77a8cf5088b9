/**
 * The standing's held data in team mode: two proxies on one PostgreSQL and one Redis (REDIS_URL),
 * over HTTP, in front of one sandbox behind a recording pass-through. A carrier viewed and decided
 * on A is judged on B from the profile in the shared cache (a peek: B fetches nothing, the service
 * sees no new call), not from the record. Skipped, with the reason printed, only where PostgreSQL or
 * Redis is not installed.
 */
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSandboxApp, type SandboxApp } from '../sandbox/index.ts';
import { freshDatabase } from '../sql/databases.test-support.ts';
import { startPostgres, startRedis, type TestService } from '../team/services.test-support.ts';
import { recordingFront, type RecordingFront } from '../team/two-proxies.test-support.ts';
import {
  CSRF,
  makeTempDir,
  startProxy,
  testConfig,
  type RunningProxy,
} from '../helpers.test-support.ts';

const pg = await startPostgres();
const redis = typeof pg === 'string' ? pg : await startRedis();
const skipReason = typeof pg === 'string' ? pg : typeof redis === 'string' ? redis : undefined;
if (skipReason !== undefined) console.warn(`team-standing tests skipped: ${skipReason}`);
const postgres = typeof pg === 'string' ? (undefined as never) : pg;
const shared = typeof redis === 'string' ? (undefined as never) : (redis as TestService);

const SANDBOX_KEY = 'sk_test_team_standing';
const DOT = '4418207';
const headers = { ...CSRF, 'x-forwarded-user': 'val' };
const proxies: RunningProxy[] = [];
const sandboxDir = makeTempDir();
let sandbox: SandboxApp | undefined;
let front: RecordingFront | undefined;

beforeAll(async () => {
  if (skipReason !== undefined) return;
  sandbox = await buildSandboxApp({ dataDir: sandboxDir, apiKeys: [SANDBOX_KEY], population: 300 });
  await sandbox.listen({ host: '127.0.0.1', port: 0 });
  front = await recordingFront(
    `http://127.0.0.1:${(sandbox.server.address() as AddressInfo).port}`,
  );
});

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  await front?.close();
  await sandbox?.close();
  rmSync(sandboxDir, { recursive: true, force: true });
  await postgres?.stop();
  await shared?.stop();
});

async function replica(databaseUrl: string, redisUrl: string | undefined) {
  const config = testConfig({
    mode: 'test',
    upstream: { baseUrl: front?.url ?? '', apiKey: SANDBOX_KEY, legacy: false, timeoutMs: 5000 },
    auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
    databaseUrl,
    ...(redisUrl ? { redisUrl } : {}),
  });
  const proxy = await startProxy(config, {});
  proxies.push(proxy);
  return proxy;
}

async function nowOf(proxy: RunningProxy) {
  const answer = await proxy.call(`/api/local/decisions/current?dot_numbers=${DOT}`, { headers });
  expect(answer.status, answer.text).toBe(200);
  return (answer.json as { items: { now: { source: string; verdict: string } | null }[] }).items[0]
    ?.now;
}

describe.skipIf(skipReason !== undefined)('standing with a shared cache', () => {
  it('a replica judges from the profile another replica holds in the shared cache, fetching nothing', async () => {
    const databaseUrl = await freshDatabase(postgres.url);
    const a = await replica(databaseUrl, shared.url);
    const b = await replica(databaseUrl, shared.url);
    const alone = await replica(databaseUrl, undefined);
    expect((await a.call(`/api/local/verdict?dot_number=${DOT}`, { headers })).status).toBe(200);
    const decided = await a.call('/api/local/decisions', {
      method: 'POST',
      headers,
      body: { dot_number: DOT, decision: 'approved', override_reason: 'Vouched for' },
    });
    expect(decided.status, decided.text).toBe(201);
    const calls = front?.callsTo('/v2/profile').length;
    expect(calls).toBe(1);

    expect(await nowOf(b)).toMatchObject({ source: 'profile', verdict: 'review' });
    // without the shared cache, a replica holding nothing judges from the record
    expect(await nowOf(alone)).toMatchObject({ source: 'record', verdict: 'review' });
    const preview = await b.call('/api/local/policy/preview', {
      method: 'POST',
      headers,
      body: { rules: { shared_identifiers: { outcome: 'fail' } } },
    });
    expect(preview.json).toMatchObject({ would_fail: [{ dot_number: DOT }] });
    expect(front?.callsTo('/v2/profile').length).toBe(calls);
  });
});
