/**
 * Retention: what pruneRecords deletes and keeps, on both engines (sql/engines.test-support.ts);
 * the job's start-up run and a locked SQLite file; and, with the records in PostgreSQL, that the
 * proxy's SQLite file is left alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openProxyDb } from '../db.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { forEachEngine, usePostgres } from '../sql/engines.test-support.ts';
import { createPostgresEngine } from '../sql/postgres.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import {
  DEFAULT_RETENTION,
  pruneRecords,
  startRetention,
  type RetentionStores,
} from './retention.ts';
import { createSpendLedger } from './spend.ts';

const dirs: string[] = [];
const dbs: Database.Database[] = [];

function openDb(): Database.Database {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-retention-'));
  dirs.push(dir);
  const db = openProxyDb(join(dir, 'proxy.sqlite'));
  dbs.push(db);
  return db;
}

afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const NOW = new Date('2026-11-25T12:00:00Z');

const AUDIT_ROW = `INSERT INTO audit_log (at, "user", method, endpoint, dot, cache_hit, billable, status)
  VALUES (?, 'local', 'GET', 'profile', ?, 0, 1, 200)`;

async function audit(sql: SqlEngine, at: string, dot = '568253') {
  await sql.run(AUDIT_ROW, [at, dot]);
}

/** `n` audit rows at `at` in one statement (DOTs 0 … n−1), on either engine. */
async function auditMany(sql: SqlEngine, at: string, n: number) {
  await sql.run(
    `INSERT INTO audit_log (at, "user", method, endpoint, dot, cache_hit, billable, status)
     WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
     SELECT ?, 'local', 'GET', 'profile', CAST(i AS TEXT), 0, 1, 200 FROM seq`,
    [n - 1, at],
  );
}

async function ledger(
  sql: SqlEngine,
  row: { at: string; endpoint: string; dot: string; cacheHit?: boolean; mills: number },
) {
  await sql.run(
    `INSERT INTO spend_ledger
       (call_id, at, month, day, mode, endpoint, dot, "user", cache_hit, price_mills)
     VALUES (?, ?, ?, ?, 'live', ?, ?, 'alice', ?, ?)`,
    [
      `call-${row.at}-${row.endpoint}-${row.dot}`,
      row.at,
      row.at.slice(0, 7),
      row.at.slice(0, 10),
      row.endpoint,
      row.dot,
      row.cacheHit ? 1 : 0,
      row.mills,
    ],
  );
}

const count = async (sql: SqlEngine, table: string) =>
  Number((await sql.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table}`))[0]?.n);

const dotsOf = async (sql: SqlEngine) =>
  (
    await sql.query<{ endpoint: string; dot: string; at: string }>(
      'SELECT endpoint, dot, at FROM spend_ledger ORDER BY at',
    )
  ).map((row) => `${row.endpoint} ${row.dot} ${row.at.slice(0, 10)}`);

forEachEngine('pruneRecords', (engine) => {
  let sql: SqlEngine;
  /** SQLite: the proxy's file alone (as a single proxy runs); PostgreSQL: the records' engine */
  let stores: RetentionStores;

  beforeEach(() => {
    sql = engine.sql;
    stores = engine.sqliteDb ? { db: engine.sqliteDb } : { db: openDb(), sql };
  });

  it('deletes audit rows older than the audit retention and keeps newer ones', async () => {
    await audit(sql, '2025-11-24T00:00:00.000Z');
    await audit(sql, '2025-11-26T00:00:00.000Z');
    await audit(sql, '2026-11-25T00:00:00.000Z');
    const result = await pruneRecords(stores, DEFAULT_RETENTION, NOW);
    expect(result.auditRows).toBe(1);
    expect(await count(sql, 'audit_log')).toBe(2);
  });

  it('drops old free ledger rows but never this month, and keeps priced rows for 24 months', async () => {
    await ledger(sql, {
      at: '2026-07-01T00:00:00.000Z',
      endpoint: 'profile',
      dot: '1',
      mills: 0,
      cacheHit: true,
    });
    await ledger(sql, { at: '2026-07-01T00:00:00.000Z', endpoint: 'profile', dot: '2', mills: 0 });
    await ledger(sql, {
      at: '2026-07-01T00:00:00.000Z',
      endpoint: 'profile',
      dot: '3',
      mills: 3000,
    });
    await ledger(sql, {
      at: '2026-11-01T00:00:00.000Z',
      endpoint: 'profile',
      dot: '4',
      mills: 0,
      cacheHit: true,
    });
    await ledger(sql, {
      at: '2024-10-31T00:00:00.000Z',
      endpoint: 'profile',
      dot: '5',
      mills: 3000,
    });
    await ledger(sql, {
      at: '2024-11-01T00:00:00.000Z',
      endpoint: 'profile',
      dot: '6',
      mills: 3000,
    });
    // a free-retention of 1 day must still not cut into the current month
    const result = await pruneRecords(stores, { ...DEFAULT_RETENTION, freeLedgerDays: 1 }, NOW);
    expect(result).toMatchObject({ freeLedgerRows: 2, pricedLedgerRows: 1 });
    expect(await dotsOf(sql)).toEqual([
      'profile 6 2024-11-01',
      'profile 3 2026-07-01',
      'profile 4 2026-11-01',
    ]);
  });

  it('keeps the latest monitoring add of every DOT, so the monthly carry-over still bills it', async () => {
    const old = '2023-03-10T00:00:00.000Z';
    await ledger(sql, {
      at: '2023-02-01T00:00:00.000Z',
      endpoint: 'monitoring/add',
      dot: '777',
      mills: 500,
    });
    await ledger(sql, { at: old, endpoint: 'monitoring/remove', dot: '777', mills: 0 });
    await ledger(sql, {
      at: '2023-04-01T00:00:00.000Z',
      endpoint: 'monitoring/add',
      dot: '777',
      mills: 500,
    });
    await ledger(sql, { at: old, endpoint: 'monitoring/add', dot: '888', mills: 500 });
    await ledger(sql, {
      at: '2023-05-01T00:00:00.000Z',
      endpoint: 'monitoring/remove',
      dot: '888',
      mills: 0,
    });
    await pruneRecords(stores, DEFAULT_RETENTION, NOW);
    expect(await dotsOf(sql)).toEqual([
      'monitoring/add 777 2023-04-01',
      'monitoring/remove 888 2023-05-01',
    ]);

    // the still-watched DOT is carried into December; the removed one is not
    const spend = createSpendLedger(sql, {
      mode: 'live',
      ...(engine.sqliteDb && { db: engine.sqliteDb }),
    });
    const december = new Date('2026-12-02T00:00:00Z');
    expect((await spend.usage(december)).spentUsd).toBe(0.5);
  });

  it('blanks phone, e-mail and contact name of tender checks older than the setting', async () => {
    const row = `INSERT INTO tender_check (checked_at, "user", user_name, dot_number, answer, phone,
        email, contact_name, input, result, searches, cost_mills, pending_count)
      VALUES (?, 'ana', 'Ana', '568253', 'go', '5626027220', 'a@b.com', 'Ann', '{}', ?, '[]', 0, 0)`;
    const result = JSON.stringify({ reasons: [{ text: 'a@b.com called from (562) 602-7220' }] });
    await sql.run(row, ['2026-08-26T12:00:00.000Z', result]);
    await sql.run(row, ['2026-08-28T12:00:00.000Z', result]);
    const pruned = await pruneRecords(stores, DEFAULT_RETENTION, NOW);
    expect(pruned.tenderChecksRedacted).toBe(1);
    const rows = await sql.query<{ phone: string | null; email: string | null; result: string }>(
      'SELECT phone, email, result FROM tender_check ORDER BY id',
    );
    expect(rows.map((r) => [r.phone, r.email])).toEqual([
      [null, null],
      ['5626027220', 'a@b.com'],
    ]);
    expect(rows[0]?.result).not.toMatch(/a@b\.com|602-7220/);
    // a shorter setting reaches the second one too
    const shorter = { ...DEFAULT_RETENTION, tenderContactDays: 30 };
    expect((await pruneRecords(stores, shorter, NOW)).tenderChecksRedacted).toBe(1);
  });

  it('deletes in chunks until nothing old is left', async () => {
    await auditMany(sql, '2020-01-01T00:00:00.000Z', 12_345);
    await audit(sql, '2026-11-20T00:00:00.000Z');
    expect((await pruneRecords(stores, DEFAULT_RETENTION, NOW)).auditRows).toBe(12_345);
    expect(await count(sql, 'audit_log')).toBe(1);
  });
});

describe('startRetention', () => {
  it('prunes at start and reports a locked database instead of throwing', async () => {
    const db = openDb();
    const sql = createSqliteEngine(db);
    await audit(sql, '2020-01-01T00:00:00.000Z');
    const errors: unknown[] = [];
    const job = startRetention({ db }, DEFAULT_RETENTION, {
      now: () => NOW,
      onError: (err) => errors.push(err),
    });
    await vi.waitFor(async () => expect(await count(sql, 'audit_log')).toBe(0));
    await audit(sql, '2020-01-01T00:00:00.000Z');
    db.pragma('query_only = ON');
    expect(await job.runOnce()).toBeUndefined();
    expect(errors).toHaveLength(1);
    db.pragma('query_only = OFF');
    expect((await job.runOnce())?.auditRows).toBe(1);
    job.stop();
  });
});

describe('pruneRecords with the records in PostgreSQL', () => {
  const postgres = usePostgres();

  it('prunes the shared ledger and audit where they live, and leaves the SQLite file alone', async () => {
    const sql = createPostgresEngine(await postgres.migratedDatabase());
    try {
      await ledger(sql, {
        at: '2023-04-01T00:00:00.000Z',
        endpoint: 'monitoring/add',
        dot: '777',
        mills: 500,
      });
      await ledger(sql, {
        at: '2023-05-01T00:00:00.000Z',
        endpoint: 'profile',
        dot: '5',
        mills: 3000,
      });
      await ledger(sql, {
        at: '2026-11-01T00:00:00.000Z',
        endpoint: 'profile',
        dot: '6',
        mills: 3000,
      });
      await audit(sql, '2020-01-01T00:00:00.000Z', '1');
      const db = openDb();
      const file = createSqliteEngine(db);
      await audit(file, '2020-01-01T00:00:00.000Z');
      const result = await pruneRecords({ db, sql }, DEFAULT_RETENTION, NOW);
      expect(result).toEqual({
        auditRows: 1,
        freeLedgerRows: 0,
        pricedLedgerRows: 1,
        tenderChecksRedacted: 0,
      });
      const left = await sql.query<{ dot: string }>('SELECT dot FROM spend_ledger ORDER BY at');
      expect(left.map((line) => line.dot)).toEqual(['777', '6']);
      // the SQLite file is not the log's home: its rows are not touched
      expect(await count(file, 'audit_log')).toBe(1);
      expect(await count(sql, 'audit_log')).toBe(0);
    } finally {
      await sql.close();
    }
  });
});
