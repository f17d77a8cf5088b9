/**
 * PostgreSQL migrations when several replicas start together: each change is applied exactly once.
 * Where PostgreSQL is not installed each test is skipped by the runner with the reason.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { usePostgres } from './engines.test-support.ts';
import { migratePostgres } from './migrate.ts';
import { CHANGES, createTable, type SchemaDefinition } from './schema.ts';

const postgres = usePostgres();

const pools: pg.Pool[] = [];
afterAll(async () => {
  for (const pool of pools) await pool.end();
});

function poolOn(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // idle connections are cut when the server stops at the end
  pool.on('error', () => undefined);
  pools.push(pool);
  return pool;
}

async function recorded(url: string): Promise<{ name: string; n: number }[]> {
  const { rows } = await poolOn(url).query<{ name: string; n: string }>(
    'SELECT name, COUNT(*) AS n FROM schema_change GROUP BY name ORDER BY name',
  );
  return rows.map((row) => ({ name: row.name, n: Number(row.n) }));
}

/** Tables that fail if created twice (no IF NOT EXISTS), the first one slow, to widen any race. */
const RACY: SchemaDefinition = {
  tables: {
    first_table: {
      columns: { id: { type: 'text', primaryKey: true } },
      dialectSql: { postgres: ['SELECT pg_sleep(0.3)'] },
    },
    second_table: { columns: { id: { type: 'text', primaryKey: true } } },
  },
  changes: [createTable('first_table'), createTable('second_table')],
};

describe('migratePostgres', () => {
  it('applies each change exactly once when four replicas start together', async () => {
    const url = await postgres.freshDatabase();
    const runs = await Promise.all([1, 2, 3, 4].map(() => migratePostgres(poolOn(url), RACY)));
    expect(runs.flat().sort()).toEqual(['create first_table', 'create second_table']);
    expect(await recorded(url)).toEqual([
      { name: 'create first_table', n: 1 },
      { name: 'create second_table', n: 1 },
    ]);
    // started again later: nothing left to apply
    expect(await migratePostgres(poolOn(url), RACY)).toEqual([]);
  });

  it("applies the proxy's own changes once, from two pools at once", async () => {
    const url = await postgres.freshDatabase();
    await Promise.all([migratePostgres(poolOn(url)), migratePostgres(poolOn(url))]);
    expect(await recorded(url)).toEqual(
      CHANGES.map((change) => ({ name: change.name, n: 1 })).sort((a, b) =>
        a.name < b.name ? -1 : 1,
      ),
    );
    const { rows } = await poolOn(url).query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_name = 'sessions'",
    );
    expect(rows).toHaveLength(1);
  });

  it('leaves nothing of a failed change and stops there', async () => {
    const url = await postgres.freshDatabase();
    const broken: SchemaDefinition = {
      tables: {
        second_table: RACY.tables.second_table ?? { columns: {} },
        // the table is made, then its next statement fails: all or nothing
        half_table: {
          columns: { id: { type: 'text' } },
          dialectSql: { postgres: ['INSERT INTO nowhere VALUES (1)'] },
        },
        never_table: { columns: { id: { type: 'text' } } },
      },
      changes: [createTable('second_table'), createTable('half_table'), createTable('never_table')],
    };
    await expect(migratePostgres(poolOn(url), broken)).rejects.toThrow(
      /schema change "create half_table" failed: .*nowhere/,
    );
    expect(await recorded(url)).toEqual([{ name: 'create second_table', n: 1 }]);
    const { rows } = await poolOn(url).query(
      "SELECT 1 FROM information_schema.tables WHERE table_name IN ('half_table', 'never_table')",
    );
    expect(rows).toEqual([]);
  });
});
