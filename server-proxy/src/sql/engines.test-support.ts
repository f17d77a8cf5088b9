/**
 * The one harness of the tests that need a database: every store's cases run on both engines
 * through `forEachEngine`, and the tests that need a PostgreSQL server of their own (replicas on
 * one database) take it from `usePostgres`.
 *
 * One throwaway PostgreSQL server per test file (services.test-support.ts), started when a test
 * first needs it and stopped when the file's tests end; each test gets a fresh database on it
 * (migrated, for the stores), and SQLite a fresh proxy file. Where PostgreSQL is not installed
 * its tests are skipped through the runner's skip with the reason (the run lists them); with
 * TEAM_SERVICES_REQUIRED=1 (as `.ci/run` sets) they fail instead. Never an early `return`.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { openProxyDb } from '../db.ts';
import { makeTempDir } from '../helpers.test-support.ts';
import { startPostgres, type TestService } from '../team/services.test-support.ts';
import { freshDatabase } from './databases.test-support.ts';
import type { SqlEngine } from './engine.ts';
import { migratePostgres } from './migrate.ts';
import { createPostgresEngine } from './postgres.ts';
import { createSqliteEngine } from './sqlite.ts';

type EngineName = 'sqlite' | 'postgres';

/** This file's PostgreSQL server, or why there is none; started on first use. */
let server: Promise<TestService | string> | undefined;

function postgresServer(): Promise<TestService | string> {
  server ??= startPostgres();
  return server;
}

// registered when a test file imports this module, so it runs once that file's tests are done
afterAll(async () => {
  const started = await server;
  if (started !== undefined && typeof started !== 'string') await started.stop();
});

/** A PostgreSQL server for the tests of the scope `usePostgres` was called in. */
export interface TestPostgres {
  /** the server's URL (its `postgres` database); only inside hooks and tests */
  readonly url: string;
  /** a new, empty database on the server; its URL */
  freshDatabase(): Promise<string>;
  /** a new database migrated as the proxy migrates it; its URL */
  migratedDatabase(): Promise<string>;
  /** stop the server (a test of PostgreSQL going down: the file's last to use it) */
  stop(): Promise<void>;
}

/**
 * The file's PostgreSQL server for the tests of the calling scope (the file, or a `describe`):
 * started before them, and each of them skipped with the reason when PostgreSQL is not
 * installed. Call it while tests are collected (at the top of the file or of a `describe`). The
 * skip comes before each test: a `beforeAll` of the same scope still runs, so use the server in
 * the tests themselves (Vitest has no skip from a `beforeAll`).
 */
export function usePostgres(): TestPostgres {
  let running: TestService | undefined;
  let skip: string | undefined;
  beforeAll(async () => {
    const started = await postgresServer();
    if (typeof started === 'string') skip = `PostgreSQL: ${started}`;
    else running = started;
  }, 60_000);
  beforeEach((context) => {
    if (skip !== undefined) context.skip(skip);
  });
  const url = () => {
    if (running === undefined) throw new Error('PostgreSQL is not running (used outside a test?)');
    return running.url;
  };
  return {
    get url() {
      return url();
    },
    freshDatabase: () => freshDatabase(url()),
    async migratedDatabase() {
      const databaseUrl = await freshDatabase(url());
      const sql = createPostgresEngine(databaseUrl);
      try {
        await migratePostgres(sql.pool);
      } finally {
        await sql.close();
      }
      return databaseUrl;
    },
    stop: async () => running?.stop(),
  };
}

/** The engine of the running test, on a database of its own. */
export interface EngineUnderTest {
  readonly name: EngineName;
  /** the test's engine: a fresh proxy file (SQLite) or a fresh migrated database (PostgreSQL) */
  readonly sql: SqlEngine;
  /** SQLite: the connection `sql` runs on (for what only SQLite has); PostgreSQL: undefined */
  readonly sqliteDb: Database.Database | undefined;
  /**
   * Another engine on the same database, closed after the test: PostgreSQL a pool of its own (a
   * second replica); SQLite the same file opened again (a second connection).
   */
  another(): SqlEngine;
}

interface Opened {
  sql: SqlEngine;
  sqliteDb: Database.Database | undefined;
  another(): SqlEngine;
  cleanUp(): void;
}

function openSqlite(): Opened {
  const dir = makeTempDir();
  const file = join(dir, 'proxy.sqlite');
  const db = openProxyDb(file);
  return {
    sql: createSqliteEngine(db, { ownsDatabase: true }),
    sqliteDb: db,
    another: () => createSqliteEngine(openProxyDb(file), { ownsDatabase: true }),
    cleanUp: () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function openPostgres(postgres: TestPostgres): Promise<Opened> {
  const url = await postgres.freshDatabase();
  const sql = createPostgresEngine(url);
  await migratePostgres(sql.pool);
  return {
    sql,
    sqliteDb: undefined,
    another: () => createPostgresEngine(url),
    cleanUp: () => undefined,
  };
}

/**
 * The store tests `body` declares, once per engine: `describe('<title> on sqlite')` and
 * `describe('<title> on postgres')`. Before each test the engine is opened on a database of its
 * own; after it, closed (with every `another()`) and its file removed. `body` reads the engine
 * through the object it is given, inside hooks and tests only.
 */
export function forEachEngine(title: string, body: (engine: EngineUnderTest) => void): void {
  for (const name of ['sqlite', 'postgres'] as const) {
    describe(`${title} on ${name}`, () => {
      const postgres = name === 'postgres' ? usePostgres() : undefined;
      let opened: Opened | undefined;
      const extra: SqlEngine[] = [];
      const current = (): Opened => {
        if (opened === undefined) throw new Error('no engine open (used outside a test?)');
        return opened;
      };
      beforeEach(async () => {
        opened = postgres ? await openPostgres(postgres) : openSqlite();
      });
      afterEach(async () => {
        for (const engine of extra.splice(0)) await engine.close();
        const done = opened;
        opened = undefined;
        await done?.sql.close();
        done?.cleanUp();
      });
      body({
        name,
        get sql() {
          return current().sql;
        },
        get sqliteDb() {
          return current().sqliteDb;
        },
        another() {
          const engine = current().another();
          extra.push(engine);
          return engine;
        },
      });
    });
  }
}

/** The database the proxies of a route test run on. */
export interface DatabaseUnderTest {
  readonly name: EngineName;
  /**
   * What to add to the proxy's configuration: nothing for SQLite (the proxy's own file in its
   * DATA_DIR), `databaseUrl` for PostgreSQL (a fresh database for the scope, made before its
   * tests). Only inside hooks and tests.
   */
  readonly config: { databaseUrl?: string };
}

/**
 * Route tests over a whole proxy, declared once per engine like `forEachEngine`:
 * `describe('<title> on sqlite')` and `describe('<title> on postgres')`. The tests of one scope
 * share its database (they may build on each other, as a route test's sequence does).
 */
export function forEachDatabase(title: string, body: (database: DatabaseUnderTest) => void): void {
  for (const name of ['sqlite', 'postgres'] as const) {
    describe(`${title} on ${name}`, () => {
      let databaseUrl: string | undefined;
      if (name === 'postgres') {
        usePostgres();
        beforeAll(async () => {
          const started = await postgresServer();
          if (typeof started !== 'string') databaseUrl = await freshDatabase(started.url);
        }, 60_000);
      }
      body({
        name,
        get config() {
          return databaseUrl === undefined ? {} : { databaseUrl };
        },
      });
    });
  }
}
