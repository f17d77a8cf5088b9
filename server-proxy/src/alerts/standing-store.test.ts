/**
 * A standing change is announced once on either engine: two announcers racing over the same rows
 * (two replicas on one PostgreSQL; two calls on one SQLite file) each mark a disjoint share, and
 * the deliveries queued are those of the rows each marked. Both engines through
 * sql/engines.test-support.ts.
 */
import { expect, it } from 'vitest';
import type { SqlEngine } from '../sql/engine.ts';
import { forEachEngine } from '../sql/engines.test-support.ts';
import { createAlertStore, type NewDelivery } from './store.ts';

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

forEachEngine('announcing standing changes once', (engine) => {
  it('two announcers at once share the rows (SQLite: a poll and the digest check on the one connection; PostgreSQL: two replicas)', async () => {
    const sql = engine.sql;
    // SQLite: one process owns the file, both announcers run on its one connection
    const other = engine.name === 'postgres' ? engine.another() : sql;
    await race(sql, other, await withRows(sql));
  });

  it('reads no rows, rather than failing, while the table does not exist', async () => {
    const sql = engine.sql;
    await sql.run('DROP TABLE IF EXISTS vetting_standing_change');
    const store = createAlertStore(sql);
    expect(await store.unannouncedStanding()).toEqual([]);
    expect(await store.standingAnnouncedBetween('', 'z')).toEqual([]);
  });
});
