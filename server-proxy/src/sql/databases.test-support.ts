/**
 * Tests: a fresh, empty database on a throwaway PostgreSQL server (services.test-support.ts), and the two
 * engines a store's tests run on.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { openProxyDb } from '../db.ts';
import { startPostgres } from '../team/services.test-support.ts';
import { makeTempDir } from '../helpers.test-support.ts';
import type { SqlEngine } from './engine.ts';
import { migratePostgres } from './migrate.ts';
import { createPostgresEngine } from './postgres.ts';
import { createSqliteEngine } from './sqlite.ts';

/** Create a new database on the server at `serverUrl`; answers its URL. */
export async function freshDatabase(serverUrl: string): Promise<string> {
  const name = `t_${randomUUID().replaceAll('-', '')}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One engine a store's tests run on, opened fresh for each test. */
export interface TestEngine {
  name: 'sqlite' | 'postgres';
  /** why this engine's half is skipped (PostgreSQL not installed), else undefined */
  skip: string | undefined;
  open(): Promise<{ sql: SqlEngine; cleanUp: () => void }>;
}

/**
 * The two engines every store is tested on: SQLite over a fresh proxy file, and PostgreSQL (a
 * fresh, migrated database on a throwaway server, started here). Call `stop` in `afterAll`.
 */
export async function storeTestEngines(
  what: string,
): Promise<{ engines: TestEngine[]; stop: () => Promise<void> }> {
  const started = await startPostgres();
  const skip = typeof started === 'string' ? started : undefined;
  if (skip !== undefined) console.warn(`PostgreSQL ${what} tests skipped: ${skip}`);
  const server = typeof started === 'string' ? undefined : started;
  const engines: TestEngine[] = [
    {
      name: 'sqlite',
      skip: undefined,
      open: async () => {
        const dir = makeTempDir();
        const sql = createSqliteEngine(openProxyDb(join(dir, 'proxy.sqlite')), {
          ownsDatabase: true,
        });
        return { sql, cleanUp: () => rmSync(dir, { recursive: true, force: true }) };
      },
    },
    {
      name: 'postgres',
      skip,
      open: async () => {
        if (!server) throw new Error(`PostgreSQL is not available: ${skip ?? ''}`);
        const sql = createPostgresEngine(await freshDatabase(server.url));
        await migratePostgres(sql.pool);
        return { sql, cleanUp: () => undefined };
      },
    },
  ];
  return { engines, stop: async () => server?.stop() };
}
