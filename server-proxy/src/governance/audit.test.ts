/**
 * The audit trail on both engines: SQLite (the proxy's file, written in synchronous batches) and
 * PostgreSQL (migration 6), with the same SQL. PostgreSQL's half is skipped, with the reason
 * printed, only where it is not installed.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../context.ts';
import { openProxyDb } from '../db.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { storeTestEngines } from '../sql/databases.test-support.ts';
import { createAuditTrail, type AuditTrail } from './audit.ts';
import { makeTempDir } from './helpers.test-support.ts';

const { engines: sqlEngines, stop } = await storeTestEngines('audit trail');
afterAll(stop);

let trail: AuditTrail;
let close: (() => Promise<void>) | undefined;

/** The trail over each engine, with the SQLite file it keeps its Storage on. */
const engines = sqlEngines.map(({ name, skip, open }) => ({
  name,
  skip,
  open: async () => {
    if (name === 'sqlite') {
      const dir = makeTempDir();
      const db = openProxyDb(join(dir, 'proxy.sqlite'));
      return {
        trail: createAuditTrail(db, createSqliteEngine(db)),
        close: async () => {
          db.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    const { sql } = await open();
    const db = new Database(':memory:');
    return {
      trail: createAuditTrail(db, sql),
      close: async () => {
        await sql.close();
        db.close();
      },
    };
  },
}));

function entry(minute: number, user: string, dot?: string): AuditEntry {
  return {
    at: new Date(Date.UTC(2026, 4, 1, 10, minute)),
    user,
    method: 'GET',
    endpoint: 'profile',
    searchKey: dot === undefined ? 'company' : 'dot_number',
    searchValue: dot ?? 'hansen',
    dot,
    cacheHit: minute % 2 === 0,
    billable: minute % 2 === 1,
    status: 200,
  };
}

describe.each(engines)('audit trail on $name', ({ skip, open }) => {
  beforeEach(async ({ skip: skipTest }) => {
    if (skip !== undefined) skipTest(skip);
    ({ trail, close } = await open());
  });
  afterEach(async () => {
    await close?.();
  });

  it('stores every field and returns newest first', async () => {
    trail.record(entry(1, 'alice', '568253'));
    trail.record(entry(2, 'bob'));
    const page = await trail.query({ page: 1, pageSize: 10 });
    expect(page.total_count).toBe(2);
    expect(page.items.map((item) => item.user)).toEqual(['bob', 'alice']);
    expect(page.items[1]).toMatchObject({
      at: '2026-05-01T10:01:00.000Z',
      method: 'GET',
      endpoint: 'profile',
      searchKey: 'dot_number',
      searchValue: '568253',
      dot: '568253',
      cacheHit: false,
      billable: true,
      status: 200,
    });
    expect(page.items[0]).toMatchObject({ dot: null, cacheHit: true, billable: false });
  });

  it('pages through the results', async () => {
    for (let minute = 0; minute < 25; minute += 1) trail.record(entry(minute, 'alice'));
    const third = await trail.query({ page: 3, pageSize: 10 });
    expect(third.total_count).toBe(25);
    expect(third.items).toHaveLength(5);
    expect(third.items[0]?.at).toBe('2026-05-01T10:04:00.000Z');
    expect((await trail.query({ page: 4, pageSize: 10 })).items).toEqual([]);
  });

  it('filters by user and by DOT (leading zeros ignored), alone or together', async () => {
    trail.record(entry(1, 'alice', '568253'));
    trail.record(entry(2, 'bob', '568253'));
    trail.record(entry(3, 'alice', '1000'));
    const users = async (query: Parameters<AuditTrail['query']>[0]) =>
      (await trail.query(query)).items.map((item) => `${item.user}:${item.dot}`);
    expect(await users({ user: 'alice', page: 1, pageSize: 10 })).toEqual([
      'alice:1000',
      'alice:568253',
    ]);
    expect(await users({ dot: '0568253', page: 1, pageSize: 10 })).toEqual([
      'bob:568253',
      'alice:568253',
    ]);
    expect(await users({ user: 'alice', dot: '568253', page: 1, pageSize: 10 })).toEqual([
      'alice:568253',
    ]);
    expect((await trail.query({ user: 'carol', page: 1, pageSize: 10 })).total_count).toBe(0);
  });
});
