/**
 * PostgreSQL migrations when several replicas start together: each one is applied exactly once.
 * Skipped, with the reason printed, only where PostgreSQL is not installed.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestService } from '../team/services.test-support.ts';
import { POSTGRES_MIGRATIONS, migratePostgres, type Migration } from './migrate.ts';
import { freshDatabase } from './databases.test-support.ts';

const started = await startPostgres();
const skipReason = typeof started === 'string' ? started : undefined;
if (skipReason !== undefined) console.warn(`migration tests skipped: ${skipReason}`);
const server = typeof started === 'string' ? (undefined as never) : (started as TestService);

const pools: pg.Pool[] = [];
afterAll(async () => {
  for (const pool of pools) await pool.end();
  await server?.stop();
});

function poolOn(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // idle connections are cut when the server stops at the end
  pool.on('error', () => undefined);
  pools.push(pool);
  return pool;
}

async function recorded(url: string): Promise<{ version: number; n: number }[]> {
  const { rows } = await poolOn(url).query<{ version: number; n: string }>(
    'SELECT version, COUNT(*) AS n FROM schema_migrations GROUP BY version ORDER BY version',
  );
  return rows.map((row) => ({ version: row.version, n: Number(row.n) }));
}

/** Migrations that fail if run twice (no IF NOT EXISTS), the first one slow, to widen any race. */
const RACY: Migration[] = [
  {
    version: 1,
    name: 'slow table',
    sql: 'SELECT pg_sleep(0.3); CREATE TABLE first_table (id TEXT PRIMARY KEY)',
  },
  { version: 2, name: 'second', sql: 'CREATE TABLE second_table (id TEXT PRIMARY KEY)' },
];

describe.skipIf(skipReason !== undefined)('migratePostgres', () => {
  it('applies each migration exactly once when four replicas start together', async () => {
    const url = await freshDatabase(server.url);
    const runs = await Promise.all([1, 2, 3, 4].map(() => migratePostgres(poolOn(url), RACY)));
    expect(runs.flat().sort()).toEqual([1, 2]);
    expect(await recorded(url)).toEqual([
      { version: 1, n: 1 },
      { version: 2, n: 1 },
    ]);
    // started again later: nothing left to apply
    expect(await migratePostgres(poolOn(url), RACY)).toEqual([]);
  });

  it("applies the proxy's own migrations once, from two pools at once", async () => {
    const url = await freshDatabase(server.url);
    await Promise.all([migratePostgres(poolOn(url)), migratePostgres(poolOn(url))]);
    expect(await recorded(url)).toEqual(
      POSTGRES_MIGRATIONS.map((migration) => ({ version: migration.version, n: 1 })),
    );
    const { rows } = await poolOn(url).query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_name = 'sessions'",
    );
    expect(rows).toHaveLength(1);
  });

  it('leaves nothing of a failed migration and stops there', async () => {
    const url = await freshDatabase(server.url);
    const broken: Migration[] = [
      RACY[1] as Migration,
      // its own SQL succeeds, then recording it fails (that version is taken): all or nothing
      {
        version: 3,
        name: 'half',
        sql: `CREATE TABLE half_table (id TEXT);
              INSERT INTO schema_migrations (version, name, applied_at) VALUES (3, 'x', 'x')`,
      },
    ];
    await expect(migratePostgres(poolOn(url), broken)).rejects.toThrow(/migration 3 \(half\)/);
    expect(await recorded(url)).toEqual([{ version: 2, n: 1 }]);
    const { rows } = await poolOn(url).query(
      "SELECT 1 FROM information_schema.tables WHERE table_name = 'half_table'",
    );
    expect(rows).toEqual([]);
  });
});
