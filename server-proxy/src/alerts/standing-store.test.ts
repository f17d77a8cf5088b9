/**
 * A standing change is announced once on either engine: two announcers racing over the same rows
 * (two replicas on one PostgreSQL; two calls on one SQLite file) each mark a disjoint share, and
 * the deliveries queued are those of the rows each marked. PostgreSQL runs where it is installed
 * (skipped with the reason printed elsewhere).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openProxyDb } from '../db.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { migratePostgres } from '../sql/migrate.ts';
import { createPostgresEngine } from '../sql/postgres.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { freshDatabase } from '../sql/databases.test-support.ts';
import { startPostgres, type TestService } from '../team/services.test-support.ts';
import { makeTempDir } from '../helpers.test-support.ts';
import { createAlertStore, type NewDelivery } from './store.ts';

const started = await startPostgres();
const skipReason = typeof started === 'string' ? started : undefined;
if (skipReason !== undefined) console.warn(`standing-store PostgreSQL test skipped: ${skipReason}`);
const postgres = typeof started === 'string' ? undefined : (started as TestService);

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
afterAll(async () => {
  await postgres?.stop();
});

const ROWS = 40;

/** H2's table as contract29.md has it, when the vetting side's migration is not in the tree. */
async function withRows(sql: SqlEngine): Promise<number[]> {
  const id =
    sql.kind === 'postgres' ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT';
  await sql.run(`CREATE TABLE IF NOT EXISTS vetting_standing_change (
     id ${id}, policy_version INTEGER NOT NULL, dot_number TEXT NOT NULL,
     decision_id INTEGER NOT NULL, standing_before TEXT NOT NULL, standing_after TEXT NOT NULL,
     verdict_after TEXT, created_at TEXT NOT NULL, announced_at TEXT)`);
  for (let i = 0; i < ROWS; i += 1) {
    await sql.run(
      `INSERT INTO vetting_standing_change (policy_version, dot_number, decision_id,
         standing_before, standing_after, verdict_after, created_at)
       VALUES (2, ?, ?, 'holds', 'now_fails', 'fail', '2026-11-29T08:00:00.000Z')`,
      [String(1000000 + i), i + 1],
    );
  }
  const rows = await sql.query<{ id: number | string }>(
    'SELECT id FROM vetting_standing_change ORDER BY id',
  );
  return rows.map((row) => Number(row.id));
}

const plan = (rows: readonly number[]): NewDelivery[] =>
  rows.map(() => ({
    subscription_id: null,
    source: 'env',
    kind: 'webhook',
    target: 'http://127.0.0.1:9/team',
    payload: { type: 'standing', carriers: [], standing: [] },
  }));

async function race(a: SqlEngine, b: SqlEngine, ids: number[]) {
  const one = createAlertStore(a);
  const two = createAlertStore(b);
  const at = new Date('2026-11-29T08:01:00Z');
  const [first, second] = await Promise.all([
    one.announceStanding(ids, at, plan),
    two.announceStanding(ids, at, plan),
  ]);
  const marked = [...first.announced, ...second.announced].sort((x, y) => x - y);
  expect(marked).toEqual(ids);
  expect(first.ids.length + second.ids.length).toBe(ids.length);
  expect(await one.unannouncedStanding()).toEqual([]);
  const announced = await one.standingAnnouncedBetween('2026-11-29T08:00:00Z', at.toISOString());
  expect(announced.map((row) => row.id)).toEqual(ids);
  expect(announced[0]).toMatchObject({ policy_version: 2, standing_after: 'now_fails' });
  // again: nothing left to announce
  expect(await one.announceStanding(ids, at, plan)).toEqual({ announced: [], ids: [] });
}

describe('announcing standing changes once', () => {
  it('on SQLite: a poll and the digest check announcing at once share the rows', async () => {
    // one process owns the file: both announcers run on its one connection
    const dir = makeTempDir();
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const sql = createSqliteEngine(openProxyDb(join(dir, 'proxy.sqlite')), { ownsDatabase: true });
    closers.push(() => sql.close());
    await race(sql, sql, await withRows(sql));
  });

  it.skipIf(skipReason !== undefined)(
    'on PostgreSQL: two replicas of the same rows share them without a repeat',
    async () => {
      const url = await freshDatabase(postgres!.url);
      const a = createPostgresEngine(url);
      const b = createPostgresEngine(url);
      closers.push(
        () => a.close(),
        () => b.close(),
      );
      await migratePostgres(a.pool);
      await race(a, b, await withRows(a));
    },
  );

  it('reads no rows, rather than failing, while the table does not exist', async () => {
    const dir = makeTempDir();
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const sql = createSqliteEngine(openProxyDb(join(dir, 'proxy.sqlite')), { ownsDatabase: true });
    closers.push(() => sql.close());
    await sql.run('DROP TABLE IF EXISTS vetting_standing_change');
    const store = createAlertStore(sql);
    expect(await store.unannouncedStanding()).toEqual([]);
    expect(await store.standingAnnouncedBetween('', 'z')).toEqual([]);
  });
});
