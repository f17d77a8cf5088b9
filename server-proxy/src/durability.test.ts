/**
 * Durability of the proxy's database through a real proxy, a fake origin and a real SQLite file:
 * a write lock held by a second connection, a read-only connection and a deleted data dir never
 * stop the process; a priced call that cannot be reserved is refused before anything is sent; a
 * settlement the database refuses after a billed call keeps the answer and is written later; and
 * /readyz reports the database (and probes the upstream at most once per 30 s).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openProxyDb } from './db.ts';
import {
  CSRF,
  startFakeOrigin,
  startProxy,
  profileByDot,
  testConfig,
  type FakeOrigin,
  type OriginHandler,
  type RunningProxy,
} from './helpers.test-support.ts';

interface Setup {
  origin: FakeOrigin;
  proxy: RunningProxy;
  db: Database.Database;
  file: string;
  /** a second, independent connection to the proxy's file */
  other: Database.Database;
}

let current: Setup | undefined;

afterEach(async () => {
  if (!current) return;
  const { origin, proxy, other } = current;
  if (other.inTransaction) other.exec('ROLLBACK');
  other.close();
  await proxy.close();
  await origin.close();
  current = undefined;
});

async function setup(handler: OriginHandler = profileByDot): Promise<Setup> {
  const origin = await startFakeOrigin(handler);
  const config = testConfig({ upstream: { baseUrl: origin.url } as never });
  const file = join(config.dataDir, 'proxy.sqlite');
  let db: Database.Database | undefined;
  const proxy = await startProxy(config, {
    // a short busy_timeout keeps the test fast; the production value (2 s) behaves the same
    openDb: (path) => (db = openProxyDb(path, { busyTimeoutMs: 100 })),
  });
  if (!db) throw new Error('the proxy did not open its database');
  const other = new Database(file);
  other.pragma('busy_timeout = 0');
  current = { origin, proxy, db, file, other };
  return current;
}

const profile = (proxy: RunningProxy, dot: string) =>
  proxy.call(`/api/v2/profile?dot_number=${dot}`, { headers: CSRF });

const upstreamProfileCalls = (origin: FakeOrigin) =>
  origin.requests.filter((r) => r.url.startsWith('/v2/profile')).length;

interface LedgerLine {
  endpoint: string;
  dot: string | null;
  state: string;
  price_mills: number;
}

function ledger(file: string): LedgerLine[] {
  const reader = new Database(file, { readonly: true });
  try {
    return reader
      .prepare<[], LedgerLine>(
        'SELECT endpoint, dot, state, price_mills FROM spend_ledger ORDER BY id',
      )
      .all();
  } finally {
    reader.close();
  }
}

/** Retry `check` until it passes or `ms` have gone by (then its last failure is thrown). */
async function eventually(check: () => Promise<void> | void, ms = 8000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

async function expectNotReady(proxy: RunningProxy) {
  const ready = await proxy.call('/readyz');
  expect(ready.status).toBe(503);
  expect(ready.json).toMatchObject({ code: 'not_ready', checks: { database: false } });
  return ready.json as { storage: { file: string; queuedWrites: number } };
}

describe('a write lock held by another connection past busy_timeout', () => {
  it('refuses a priced call with 503 before sending it, and works once the lock is gone', async () => {
    const { proxy, origin, other, file } = await setup();
    other.exec('BEGIN EXCLUSIVE');
    const refused = await profile(proxy, '101');
    expect(refused.status, refused.text).toBe(503);
    expect(refused.json).toMatchObject({ code: 'storage_unavailable' });
    expect((refused.json as { hint: string }).hint).toBeTruthy();
    expect(upstreamProfileCalls(origin)).toBe(0);
    expect((await proxy.call('/healthz')).status).toBe(200);
    await expectNotReady(proxy);

    other.exec('COMMIT');
    await eventually(async () => expect((await profile(proxy, '101')).status).toBe(200));
    expect(upstreamProfileCalls(origin)).toBe(1);
    expect(ledger(file)).toEqual([
      { endpoint: 'profile', dot: '101', state: 'settled', price_mills: 3000 },
    ]);
    await eventually(async () => expect((await proxy.call('/readyz')).status).toBe(200));
  });

  it('serves a billed answer when its settlement is refused, and writes it after the lock', async () => {
    const { proxy, origin, other, file } = await setup((req, res) => {
      // The lock is taken after the reservation was written, while the call is upstream.
      if (req.url.startsWith('/v2/profile')) current?.other.exec('BEGIN EXCLUSIVE');
      profileByDot(req, res);
    });
    const answer = await profile(proxy, '202');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({ items: [{ dot_number: '202' }] });
    expect(upstreamProfileCalls(origin)).toBe(1);
    // The reservation is in the file (pending, priced); the settlement waits in memory.
    expect(ledger(file)).toEqual([
      { endpoint: 'profile', dot: '202', state: 'pending', price_mills: 3000 },
    ]);
    const status = await expectNotReady(proxy);
    expect(status.storage.queuedWrites).toBeGreaterThanOrEqual(1);
    // A cache hit is still served while the database refuses writes.
    expect((await profile(proxy, '202')).headers.get('x-cache')).toBe('hit');
    expect((await proxy.call('/healthz')).status).toBe(200);

    other.exec('COMMIT');
    await eventually(() =>
      expect(ledger(file).sort((a, b) => b.price_mills - a.price_mills)).toEqual([
        { endpoint: 'profile', dot: '202', state: 'settled', price_mills: 3000 },
        { endpoint: 'profile', dot: '202', state: 'settled', price_mills: 0 },
      ]),
    );
    await eventually(async () => expect((await proxy.call('/readyz')).status).toBe(200));
    const audit = await proxy.call('/api/local/audit');
    expect((audit.json as { total_count: number }).total_count).toBe(2);
  });
});

describe('a read-only database', () => {
  // We run as root, where chmod does not stop writes: the proxy's own connection is made
  // read-only with PRAGMA query_only, which makes SQLite refuse every write (SQLITE_READONLY).
  it('stays up, refuses priced calls with 503 and reports not ready', async () => {
    const { proxy, origin, db } = await setup();
    expect((await profile(proxy, '303')).status).toBe(200);
    db.pragma('query_only = ON');
    const refused = await profile(proxy, '304');
    expect(refused.status).toBe(503);
    expect(refused.json).toMatchObject({ code: 'storage_unavailable' });
    expect(upstreamProfileCalls(origin)).toBe(1);
    // Free answers and queued rows do not bring it down.
    expect((await profile(proxy, '303')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await proxy.call('/healthz')).status).toBe(200);
    await expectNotReady(proxy);

    db.pragma('query_only = OFF');
    await eventually(async () => expect((await profile(proxy, '304')).status).toBe(200));
    await eventually(async () => expect((await proxy.call('/readyz')).status).toBe(200));
  });
});

describe('a deleted data dir', () => {
  it('makes /readyz fail and refuses priced calls instead of writing to the unlinked file', async () => {
    const { proxy, origin, file } = await setup();
    expect((await profile(proxy, '404')).status).toBe(200);
    rmSync(join(file, '..'), { recursive: true, force: true });
    const status = await expectNotReady(proxy);
    expect(status.storage.file).toBe('missing');
    const refused = await profile(proxy, '405');
    expect(refused.status).toBe(503);
    expect(refused.json).toMatchObject({ code: 'storage_unavailable' });
    expect(upstreamProfileCalls(origin)).toBe(1);
    expect((await proxy.call('/healthz')).status).toBe(200);
  });
});

describe('/readyz', () => {
  it('probes the upstream at most once for 20 requests', async () => {
    const { proxy, origin } = await setup((req, res) => {
      // a slow probe: the 20 requests arrive while it is in flight, and after it
      setTimeout(() => profileByDot(req, res), req.url === '/' ? 100 : 0);
    });
    const first = await Promise.all(Array.from({ length: 10 }, () => proxy.call('/readyz')));
    const second = await Promise.all(Array.from({ length: 10 }, () => proxy.call('/readyz')));
    expect([...first, ...second].map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(origin.requests.filter((r) => r.url === '/').length).toBeLessThanOrEqual(1);
  });
});

describe('storage failures in the proxy routes', () => {
  it('answers a triage write the database refuses with 503, not 500', async () => {
    const { proxy, db } = await setup();
    db.pragma('query_only = ON');
    const put = await proxy.call('/api/local/triage/last-visit', {
      method: 'PUT',
      headers: CSRF,
      body: {},
    });
    expect(put.status, put.text).toBe(503);
    expect(put.json).toMatchObject({ code: 'storage_unavailable' });
    db.pragma('query_only = OFF');
  });
});
