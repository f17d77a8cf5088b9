import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openProxyDb } from '../db.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { storeTestEngines } from '../sql/databases.test-support.ts';
import { DEFAULT_RETENTION, pruneRecords, startRetention } from './retention.ts';
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

function audit(db: Database.Database, at: string, dot = '568253') {
  db.prepare(
    `INSERT INTO audit_log (at, user, method, endpoint, dot, cache_hit, billable, status)
     VALUES (?, 'local', 'GET', 'profile', ?, 0, 1, 200)`,
  ).run(at, dot);
}

function ledger(
  db: Database.Database,
  row: { at: string; endpoint: string; dot: string; cacheHit?: boolean; mills: number },
) {
  db.prepare(
    `INSERT INTO spend_ledger (call_id, at, month, day, mode, endpoint, dot, user, cache_hit, price_mills)
     VALUES (?, ?, ?, ?, 'live', ?, ?, 'alice', ?, ?)`,
  ).run(
    `call-${row.at}-${row.endpoint}-${row.dot}`,
    row.at,
    row.at.slice(0, 7),
    row.at.slice(0, 10),
    row.endpoint,
    row.dot,
    row.cacheHit ? 1 : 0,
    row.mills,
  );
}

const count = (db: Database.Database, table: string) =>
  (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

const dotsOf = (db: Database.Database) =>
  (
    db.prepare('SELECT endpoint, dot, at FROM spend_ledger ORDER BY at').all() as {
      endpoint: string;
      dot: string;
      at: string;
    }[]
  ).map((row) => `${row.endpoint} ${row.dot} ${row.at.slice(0, 10)}`);

describe('pruneRecords', () => {
  it('deletes audit rows older than the audit retention and keeps newer ones', async () => {
    const db = openDb();
    audit(db, '2025-11-24T00:00:00.000Z');
    audit(db, '2025-11-26T00:00:00.000Z');
    audit(db, '2026-11-25T00:00:00.000Z');
    const result = await pruneRecords({ db }, DEFAULT_RETENTION, NOW);
    expect(result.auditRows).toBe(1);
    expect(count(db, 'audit_log')).toBe(2);
  });

  it('drops old free ledger rows but never this month, and keeps priced rows for 24 months', async () => {
    const db = openDb();
    ledger(db, {
      at: '2026-07-01T00:00:00.000Z',
      endpoint: 'profile',
      dot: '1',
      mills: 0,
      cacheHit: true,
    });
    ledger(db, { at: '2026-07-01T00:00:00.000Z', endpoint: 'profile', dot: '2', mills: 0 });
    ledger(db, { at: '2026-07-01T00:00:00.000Z', endpoint: 'profile', dot: '3', mills: 3000 });
    ledger(db, {
      at: '2026-11-01T00:00:00.000Z',
      endpoint: 'profile',
      dot: '4',
      mills: 0,
      cacheHit: true,
    });
    ledger(db, { at: '2024-10-31T00:00:00.000Z', endpoint: 'profile', dot: '5', mills: 3000 });
    ledger(db, { at: '2024-11-01T00:00:00.000Z', endpoint: 'profile', dot: '6', mills: 3000 });
    // a free-retention of 1 day must still not cut into the current month
    const result = await pruneRecords({ db }, { ...DEFAULT_RETENTION, freeLedgerDays: 1 }, NOW);
    expect(result).toMatchObject({ freeLedgerRows: 2, pricedLedgerRows: 1 });
    expect(dotsOf(db)).toEqual([
      'profile 6 2024-11-01',
      'profile 3 2026-07-01',
      'profile 4 2026-11-01',
    ]);
  });

  it('keeps the latest monitoring add of every DOT, so the monthly carry-over still bills it', async () => {
    const db = openDb();
    const old = '2023-03-10T00:00:00.000Z';
    ledger(db, {
      at: '2023-02-01T00:00:00.000Z',
      endpoint: 'monitoring/add',
      dot: '777',
      mills: 500,
    });
    ledger(db, { at: old, endpoint: 'monitoring/remove', dot: '777', mills: 0 });
    ledger(db, {
      at: '2023-04-01T00:00:00.000Z',
      endpoint: 'monitoring/add',
      dot: '777',
      mills: 500,
    });
    ledger(db, { at: old, endpoint: 'monitoring/add', dot: '888', mills: 500 });
    ledger(db, {
      at: '2023-05-01T00:00:00.000Z',
      endpoint: 'monitoring/remove',
      dot: '888',
      mills: 0,
    });
    await pruneRecords({ db }, DEFAULT_RETENTION, NOW);
    expect(dotsOf(db)).toEqual([
      'monitoring/add 777 2023-04-01',
      'monitoring/remove 888 2023-05-01',
    ]);

    // the still-watched DOT is carried into December; the removed one is not
    const spend = createSpendLedger(createSqliteEngine(db), { mode: 'live', db });
    const december = new Date('2026-12-02T00:00:00Z');
    expect((await spend.usage(december)).spentUsd).toBe(0.5);
  });

  it('deletes in chunks until nothing old is left', async () => {
    const db = openDb();
    const insert = db.transaction(() => {
      for (let i = 0; i < 12_345; i += 1) audit(db, '2020-01-01T00:00:00.000Z', String(i));
    });
    insert();
    audit(db, '2026-11-20T00:00:00.000Z');
    expect((await pruneRecords({ db }, DEFAULT_RETENTION, NOW)).auditRows).toBe(12_345);
    expect(count(db, 'audit_log')).toBe(1);
  });
});

describe('startRetention', () => {
  it('prunes at start and reports a locked database instead of throwing', async () => {
    const db = openDb();
    audit(db, '2020-01-01T00:00:00.000Z');
    const errors: unknown[] = [];
    const job = startRetention({ db }, DEFAULT_RETENTION, {
      now: () => NOW,
      onError: (err) => errors.push(err),
    });
    await vi.waitFor(() => expect(count(db, 'audit_log')).toBe(0));
    audit(db, '2020-01-01T00:00:00.000Z');
    db.pragma('query_only = ON');
    expect(await job.runOnce()).toBeUndefined();
    expect(errors).toHaveLength(1);
    db.pragma('query_only = OFF');
    expect((await job.runOnce())?.auditRows).toBe(1);
    job.stop();
  });
});

describe('pruneRecords with the ledger in PostgreSQL', async () => {
  const { engines, stop } = await storeTestEngines('retention');
  afterAll(stop);
  const postgres = engines.find((engine) => engine.name === 'postgres');

  it.skipIf(postgres?.skip !== undefined)(
    'prunes the shared ledger and audit where they live, keeping the latest monitoring add',
    async () => {
      if (!postgres) return;
      const { sql } = await postgres.open();
      try {
        const add = async (at: string, endpoint: string, dot: string, mills: number) =>
          sql.run(
            `INSERT INTO spend_ledger
               (call_id, at, month, day, mode, endpoint, dot, "user", cache_hit, price_mills)
             VALUES (?, ?, ?, ?, 'live', ?, ?, 'alice', 0, ?)`,
            [`c-${at}-${dot}`, at, at.slice(0, 7), at.slice(0, 10), endpoint, dot, mills],
          );
        await add('2023-04-01T00:00:00.000Z', 'monitoring/add', '777', 500);
        await add('2023-05-01T00:00:00.000Z', 'profile', '5', 3000);
        await add('2026-11-01T00:00:00.000Z', 'profile', '6', 3000);
        await sql.run(
          `INSERT INTO audit_log (at, "user", method, endpoint, dot, cache_hit, billable, status)
           VALUES (?, 'local', 'GET', 'profile', '1', 0, 1, 200)`,
          ['2020-01-01T00:00:00.000Z'],
        );
        const db = openDb();
        audit(db, '2020-01-01T00:00:00.000Z');
        const result = await pruneRecords({ db, sql }, DEFAULT_RETENTION, NOW);
        expect(result).toEqual({ auditRows: 1, freeLedgerRows: 0, pricedLedgerRows: 1 });
        const left = await sql.query<{ dot: string }>('SELECT dot FROM spend_ledger ORDER BY at');
        expect(left.map((line) => line.dot)).toEqual(['777', '6']);
        // the SQLite file is not the log's home: its rows are not touched
        expect(count(db, 'audit_log')).toBe(1);
        const audited = await sql.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM audit_log');
        expect(Number(audited[0]?.n)).toBe(0);
      } finally {
        await sql.close();
      }
    },
  );
});
