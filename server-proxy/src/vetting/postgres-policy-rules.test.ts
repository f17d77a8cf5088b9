/**
 * Policy options and the newer rules through PostgreSQL (DATABASE_URL): two proxies on one real
 * PostgreSQL, in front of one sandbox, over HTTP. A version saved on one with
 * `options.max_revet_days` and a newer rule is read back, whole, by the other, whose verdict uses
 * it. Skipped, with the reason printed, only where PostgreSQL is not installed.
 */
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSandboxApp, type SandboxApp } from '../sandbox/index.ts';
import { freshDatabase } from '../sql/databases.test-support.ts';
import { startPostgres, type TestService } from '../team/services.test-support.ts';
import {
  CSRF,
  makeTempDir,
  startProxy,
  testConfig,
  type RunningProxy,
} from '../helpers.test-support.ts';

const started = await startPostgres();
const skipReason = typeof started === 'string' ? started : undefined;
if (skipReason !== undefined) console.warn(`postgres-policy-rules tests skipped: ${skipReason}`);
const postgres = typeof started === 'string' ? (undefined as never) : (started as TestService);

const SANDBOX_KEY = 'sk_test_policy_rules';
const proxies: RunningProxy[] = [];
const sandboxDir = makeTempDir();
let sandbox: SandboxApp | undefined;
let sandboxUrl = '';
const headers = { ...CSRF, 'x-forwarded-user': 'val' };

beforeAll(async () => {
  if (skipReason !== undefined) return;
  sandbox = await buildSandboxApp({ dataDir: sandboxDir, apiKeys: [SANDBOX_KEY], population: 300 });
  await sandbox.listen({ host: '127.0.0.1', port: 0 });
  sandboxUrl = `http://127.0.0.1:${(sandbox.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  await sandbox?.close();
  rmSync(sandboxDir, { recursive: true, force: true });
  await postgres?.stop();
});

async function replica(databaseUrl: string) {
  const config = testConfig({
    mode: 'test',
    upstream: { baseUrl: sandboxUrl, apiKey: SANDBOX_KEY, legacy: false, timeoutMs: 5000 },
    auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
    databaseUrl,
  });
  const proxy = await startProxy(config);
  proxies.push(proxy);
  return proxy;
}

describe.skipIf(skipReason !== undefined)('policy options and newer rules on PostgreSQL', () => {
  it('a version saved on one replica is read whole by the other and used by its verdict', async () => {
    const databaseUrl = await freshDatabase(postgres.url);
    const a = await replica(databaseUrl);
    const b = await replica(databaseUrl);
    const fresh = await b.call('/api/local/policy', { headers });
    expect(fresh.json).toMatchObject({ version: 1, options: { max_revet_days: 365 } });

    const saved = await a.call('/api/local/policy', {
      method: 'PUT',
      headers,
      body: {
        rules: { cargo_classes: { enabled: true, cargo_refused: ['motor_vehicles'] } },
        options: { max_revet_days: 90 },
      },
    });
    expect(saved.status, saved.text).toBe(201);

    const read = (await b.call('/api/local/policy', { headers })).json as {
      version: number;
      options: { max_revet_days: number };
      settings: Record<string, { enabled: boolean; cargo_refused?: string[] }>;
    };
    expect(read.version).toBe(2);
    expect(read.options).toEqual({ max_revet_days: 90 });
    expect(read.settings.cargo_classes).toMatchObject({
      enabled: true,
      cargo_refused: ['motor_vehicles'],
    });
    const v1 = (await b.call('/api/local/policy/versions/1', { headers })).json as typeof read;
    expect(v1.options).toEqual({ max_revet_days: 365 });
    expect(v1.settings.cargo_classes?.enabled).toBe(false);

    const verdict = await b.call('/api/local/verdict?dot_number=568253', { headers });
    expect(verdict.status, verdict.text).toBe(200);
    const body = verdict.json as { verdict: string; policy_version: number; reasons: unknown[] };
    expect(body).toMatchObject({ verdict: 'review', policy_version: 2 });
    expect(body.reasons[0]).toMatchObject({
      rule: 'cargo_classes',
      outcome: 'review',
      message: 'The carrier hauls Motor vehicles (refused).',
    });
  });
});
