/**
 * The audit trail on both engines: SQLite (the proxy's file, written in synchronous batches) and
 * PostgreSQL (migration 6), with the same SQL (sql/engines.test-support.ts).
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AuditEntry } from '../context.ts';
import { forEachEngine } from '../sql/engines.test-support.ts';
import { createAuditTrail, type AuditTrail } from './audit.ts';

let trail: AuditTrail;
/** the SQLite connection PostgreSQL's trail is also given (its write buffer takes one): in memory */
let memory: Database.Database | undefined;

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

forEachEngine('audit trail', (engine) => {
  beforeEach(() => {
    const db = engine.sqliteDb ?? (memory = new Database(':memory:'));
    trail = createAuditTrail(db, engine.sql);
  });
  afterEach(() => {
    memory?.close();
    memory = undefined;
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
