/**
 * Sessions shared through PostgreSQL (DATABASE_URL): two proxies, each with its own DATA_DIR, on
 * one real PostgreSQL, over HTTP, stand for two replicas behind a load balancer. Skipped, with the
 * reason, only where PostgreSQL is not installed (sql/engines.test-support.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProxyApp } from '../app.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../governance/csrf.ts';
import { usePostgres } from '../sql/engines.test-support.ts';
import {
  captureLog,
  startProxy,
  testConfig,
  type CallResult,
  type RunningProxy,
} from '../helpers.test-support.ts';
import { freePort } from './services.test-support.ts';

const postgres = usePostgres();

const PASSWORD = 'a long enough password';
const proxies: RunningProxy[] = [];

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
});

/** Two replicas on the database at `databaseUrl`, each with its own data dir (testConfig's). */
async function replicas(databaseUrl: string): Promise<[RunningProxy, RunningProxy]> {
  const config = () => testConfig({ auth: { kind: 'password', password: PASSWORD }, databaseUrl });
  const pair: [RunningProxy, RunningProxy] = [
    await startProxy(config()),
    await startProxy(config()),
  ];
  proxies.push(...pair);
  return pair;
}

async function signIn(proxy: RunningProxy): Promise<string> {
  const answer = await proxy.call('/api/local/session', {
    method: 'POST',
    headers: { origin: proxy.url, [CSRF_HEADER]: CSRF_HEADER_VALUE },
    body: { username: 'admin', password: PASSWORD },
  });
  expect(answer.status).toBe(200);
  const cookie = answer.headers.get('set-cookie')?.split(';')[0];
  expect(cookie).toMatch(/^cd_session=/);
  return cookie as string;
}

function whoAmI(proxy: RunningProxy, cookie: string): Promise<CallResult> {
  return proxy.call('/api/local/session', { headers: { cookie } });
}

function signOut(proxy: RunningProxy, cookie: string): Promise<CallResult> {
  return proxy.call('/api/local/session', {
    method: 'DELETE',
    headers: { cookie, origin: proxy.url, [CSRF_HEADER]: CSRF_HEADER_VALUE },
  });
}

describe('sessions shared by two proxies on one PostgreSQL', () => {
  it('a session started on one replica is valid on the other, and ends on both', async () => {
    const [a, b] = await replicas(await postgres.freshDatabase());
    const cookie = await signIn(a);
    const onB = await whoAmI(b, cookie);
    expect(onB.status).toBe(200);
    expect(onB.json).toEqual({
      user: { id: 'admin', name: 'admin', role: 'admin' },
      auth: 'password',
    });

    expect((await signOut(b, cookie)).status).toBe(204);
    for (const proxy of [a, b]) {
      const after = await whoAmI(proxy, cookie);
      expect(after.status).toBe(401);
      expect(after.json).toMatchObject({ code: 'unauthenticated' });
    }
  });

  it('keeps working when PostgreSQL drops its connections (as in a restart)', async () => {
    const databaseUrl = await postgres.freshDatabase();
    const [a, b] = await replicas(databaseUrl);
    const cookie = await signIn(a);
    expect((await whoAmI(b, cookie)).status).toBe(200);
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    const { rows } = await admin.query<{ ended: boolean }>(
      'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    await admin.end();
    expect(rows.length).toBeGreaterThanOrEqual(2); // both replicas' pools were connected
    await sleep(200);
    for (const proxy of [a, b]) expect((await whoAmI(proxy, cookie)).status).toBe(200);
  });

  it('without DATABASE_URL a session stays on the replica that started it', async () => {
    const config = () => testConfig({ auth: { kind: 'password', password: PASSWORD } });
    const a = await startProxy(config());
    const b = await startProxy(config());
    proxies.push(a, b);
    const cookie = await signIn(a);
    expect((await whoAmI(a, cookie)).status).toBe(200);
    expect((await whoAmI(b, cookie)).status).toBe(401);
  });

  it('refuses to start when PostgreSQL cannot be reached, without quoting the URL', async () => {
    const url = `postgres://carrier:s3cretpw@127.0.0.1:${await freePort()}/carrier`;
    const config = testConfig({
      auth: { kind: 'password', password: PASSWORD },
      databaseUrl: url,
    });
    const failure = buildProxyApp(config);
    await expect(failure).rejects.toThrow(/DATABASE_URL: cannot connect to PostgreSQL/);
    await expect(failure).rejects.not.toThrow(/s3cretpw/);
  });

  // Last: stops the server.
  it('PostgreSQL down: a signed-in request gets 503 storage_unavailable and /readyz says so', async () => {
    const log = captureLog();
    const config = testConfig({
      auth: { kind: 'password', password: PASSWORD },
      databaseUrl: await postgres.freshDatabase(),
      logLevel: 'info',
    });
    const a = await startProxy(config, { logStream: log });
    proxies.push(a);
    const cookie = await signIn(a);
    expect((await a.call('/readyz')).json).toMatchObject({ checks: { postgres: true } });
    await postgres.stop();

    const answer = await whoAmI(a, cookie);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.json).toEqual({
      error: expect.stringContaining('PostgreSQL') as unknown,
      code: 'storage_unavailable',
      hint: expect.stringContaining('DATABASE_URL') as unknown,
    });
    await sleep(1100); // /readyz reuses a database probe for 1 s
    const ready = await a.call('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json).toMatchObject({ code: 'not_ready', checks: { postgres: false } });
    // signing in cannot start a session either: a 503, not a 500
    const login = await a.call('/api/local/session', {
      method: 'POST',
      headers: { origin: a.url, [CSRF_HEADER]: CSRF_HEADER_VALUE },
      body: { username: 'admin', password: PASSWORD },
    });
    expect(login.status).toBe(503);
    expect(login.json).toMatchObject({ code: 'storage_unavailable' });
    // an expected refusal, not logged as a failure of the proxy
    expect(log.lines.filter((line) => line.includes('unexpected error'))).toEqual([]);
  });
});
