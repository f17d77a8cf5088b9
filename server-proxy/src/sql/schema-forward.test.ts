/**
 * Databases made by older code migrate forward without loss: the SQLite file and the PostgreSQL
 * database of commit 724f577 (the last with a schema written per engine), and SQLite files at each
 * of that commit's ten numbered steps (users have files made by older versions). After migrating,
 * every row is still there and the schema, as the database reports it, equals a fresh one's
 * (collations too, on PostgreSQL).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openProxyDb } from '../db.ts';
import { makeTempDir } from '../helpers.test-support.ts';
import { createVettingSqlStore } from '../vetting/store.ts';
import { usePostgres } from './engines.test-support.ts';
import { migratePostgres } from './migrate.ts';
import { createPostgresEngine } from './postgres.ts';
import { CHANGES, TABLES } from './schema.ts';
import {
  copySqlite724f577,
  legacySqliteFile,
  restorePostgres724f577,
} from './schema-fixtures.test-support.ts';
import { readPostgres, readSqlite, type Schema } from './schema-introspection.test-support.ts';
import { createSqliteEngine } from './sqlite.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = makeTempDir();
  dirs.push(dir);
  return join(dir, 'proxy.sqlite');
}

/** A schema as plain, ordered data (Maps made objects), for toEqual. */
function plain(schema: Schema): unknown {
  return Object.fromEntries(
    [...schema.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, table]) => [
        name,
        {
          ...table,
          columns: Object.fromEntries(
            [...table.columns.entries()].sort(([a], [b]) => a.localeCompare(b)),
          ),
          indexes: Object.fromEntries(
            [...table.indexes.entries()].sort(([a], [b]) => a.localeCompare(b)),
          ),
        },
      ]),
  );
}

const userTables = Object.keys(TABLES).filter((name) => name !== 'schema_change');
/** Tables made by a change after 724f577: not in its databases, empty after the migration. */
const NEWER_TABLES = new Set(['api_token', 'tender_check']);
const oldTables = userTables.filter((name) => !NEWER_TABLES.has(name));
const changeNames = CHANGES.map((change) => change.name).sort();

/** Every row of every proxy table present, in a stable order. */
function sqliteRows(db: Database.Database): Record<string, unknown[]> {
  const present = new Set(
    db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((row) => row.name),
  );
  return Object.fromEntries(
    oldTables
      .filter((name) => present.has(name))
      .map((name) => [name, db.prepare(`SELECT * FROM ${name} ORDER BY 1, 2`).all()]),
  );
}

/**
 * `after` held against `before`: every row as it was, with the columns later changes added (the
 * decision record's signature, 2026-11-29) NULL on the old rows.
 */
function expectRowsKept(after: Record<string, unknown[]>, before: Record<string, unknown[]>) {
  const added: unknown[] = [];
  const projected = Object.fromEntries(
    Object.entries(after).map(([table, rows]) => {
      const columns = Object.keys((before[table]?.[0] ?? {}) as object);
      return [
        table,
        rows.map((row) => {
          const entries = Object.entries(row as Record<string, unknown>);
          for (const [name, value] of entries) if (!columns.includes(name)) added.push(value);
          return Object.fromEntries(entries.filter(([name]) => columns.includes(name)));
        }),
      ];
    }),
  );
  expect(projected).toEqual(before);
  expect(added.every((value) => value === null)).toBe(true);
}

function freshSqliteSchema(): Schema {
  const db = openProxyDb(tempFile());
  try {
    return readSqlite(db);
  } finally {
    db.close();
  }
}

const recordedNames = (db: Database.Database) =>
  db
    .prepare<[], { name: string }>('SELECT name FROM schema_change ORDER BY name')
    .all()
    .map((row) => row.name);

describe('a SQLite file made by commit 724f577', () => {
  it('keeps every row, records every change and has the schema of a fresh file', async () => {
    const file = tempFile();
    copySqlite724f577(file);
    const old = openProxyDbWithoutMigrating(file);
    const before = sqliteRows(old);
    old.close();
    // rows in every table, or the test would prove nothing about that table
    expect(Object.keys(before).sort()).toEqual([...oldTables].sort());
    for (const rows of Object.values(before)) expect(rows.length).toBeGreaterThan(0);

    const db = openProxyDb(file);
    expectRowsKept(sqliteRows(db), before);
    expect(recordedNames(db)).toEqual(changeNames);
    expect(db.pragma('user_version', { simple: true })).toBe(10);
    expect(plain(readSqlite(db))).toEqual(plain(freshSqliteSchema()));
    const vetting = createVettingSqlStore(createSqliteEngine(db));
    expect(await vetting.verifyChain()).toMatchObject({ ok: true, count: 3 });
    expect(() => db.prepare("UPDATE vetting_decision SET decision = 'x'").run()).toThrow(
      /append-only/,
    );
    db.close();
  });
});

/** Open without the proxy's migration (to read the file as the old code left it). */
function openProxyDbWithoutMigrating(file: string): Database.Database {
  return legacySqliteFile(file, 0);
}

describe('SQLite files at each of the ten numbered steps of 724f577', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])(
    'a file at step %i migrates to the schema of a fresh file, keeping its rows',
    (steps) => {
      const file = tempFile();
      const old = legacySqliteFile(file, steps);
      old
        .prepare(
          `INSERT INTO spend_ledger (call_id, at, month, day, mode, endpoint, dot, user, cache_hit,
             price_mills) VALUES ('c', '2026-05-01', '2026-05', '2026-05-01', 'live', 'profile',
             '1', 'a', 0, 3000)`,
        )
        .run();
      old.prepare("INSERT INTO sessions VALUES ('h1', 'alice', '2026-05-01', '2026-05-02')").run();
      if (steps < 10) {
        // accepted before step 10: SQLite's TEXT PRIMARY KEY of a rowid table takes NULL
        old.prepare("INSERT INTO sessions VALUES (NULL, 'bob', '2026-05-01', '2026-05-02')").run();
      }
      if (steps >= 5) {
        old
          .prepare(
            `INSERT INTO bulk_job (id, status, created_at, updated_at, created_by, total, estimate)
             VALUES ('j', 'done', '2026-05-01', '2026-05-01', 'a', 1, '{}')`,
          )
          .run();
        old
          .prepare(
            `INSERT INTO bulk_item (job_seq, position, identifier, kind, lookup, status)
             VALUES (1, 0, '1', 'dot', '1', 'done')`,
          )
          .run();
      }
      if (steps >= 8) {
        old
          .prepare("INSERT INTO carrier_name (dot_number, source, seen_at) VALUES ('1', 's', 't')")
          .run();
      }
      old.close();

      const db = openProxyDb(file);
      expect(recordedNames(db)).toEqual(changeNames);
      expect(db.pragma('user_version', { simple: true })).toBe(10);
      expect(plain(readSqlite(db))).toEqual(plain(freshSqliteSchema()));
      expect(db.prepare('SELECT call_id, price_mills, state FROM spend_ledger').all()).toEqual([
        { call_id: 'c', price_mills: 3000, state: 'settled' },
      ]);
      // the session without an id is left behind by the rebuild (it could never be found)
      expect(db.prepare('SELECT id_hash, user FROM sessions').all()).toEqual([
        { id_hash: 'h1', user: 'alice' },
      ]);
      if (steps >= 5) {
        expect(db.prepare('SELECT identifier, attempts FROM bulk_item').all()).toEqual([
          { identifier: '1', attempts: 0 },
        ]);
      }
      if (steps >= 8) {
        expect(db.prepare('SELECT dot_number FROM carrier_name').all()).toEqual([
          { dot_number: '1' },
        ]);
      }
      db.close();
    },
  );
});

async function postgresRows(client: pg.ClientBase): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const name of oldTables) {
    rows[name] = (await client.query(`SELECT * FROM ${name} ORDER BY 1, 2`)).rows;
  }
  return rows;
}

describe('a PostgreSQL database made by commit 724f577', () => {
  const server = usePostgres();
  it('keeps every row and its identity sequences, and has the schema of a fresh database', async () => {
    const engine = createPostgresEngine(await server.freshDatabase());
    const fresh = new pg.Pool({ connectionString: await server.freshDatabase(), max: 1 });
    fresh.on('error', () => undefined);
    try {
      const restoring = await engine.pool.connect();
      try {
        await restorePostgres724f577(restoring);
      } finally {
        // the dump empties search_path for its session: that connection is not reused
        restoring.release(true);
      }
      const client = await engine.pool.connect();
      let before: Record<string, unknown[]>;
      try {
        before = await postgresRows(client);
      } finally {
        client.release();
      }
      for (const rows of Object.values(before)) expect(rows.length).toBeGreaterThan(0);

      // the changes made since 724f577
      expect(await migratePostgres(engine.pool)).toEqual([
        'add column vetting_decision.signature',
        'add column vetting_decision.signing_key_id',
        'create api_token',
        'create tender_check',
        'add column vetting_decision.tender_check_id',
      ]);
      const after = await engine.pool.connect();
      try {
        expectRowsKept(await postgresRows(after), before);
        const recorded = await after.query<{ name: string }>(
          'SELECT name FROM schema_change ORDER BY name',
        );
        expect(recorded.rows.map((row) => row.name).sort()).toEqual(changeNames);
        const legacy = await after.query("SELECT to_regclass('schema_migrations') AS t");
        expect(legacy.rows).toEqual([{ t: null }]);
        await migratePostgres(fresh);
        const freshClient = await fresh.connect();
        try {
          expect(plain(await readPostgres(after))).toEqual(plain(await readPostgres(freshClient)));
        } finally {
          freshClient.release();
        }
      } finally {
        after.release();
      }
      // identity sequences kept their place: the next record follows the restored ones
      const vetting = createVettingSqlStore(engine);
      expect(await vetting.verifyChain()).toMatchObject({ ok: true, count: 3 });
      const [inserted] = await engine.query<{ id: string }>(
        `INSERT INTO audit_log (at, "user", method, endpoint, cache_hit, billable, status)
         VALUES ('2026-06-01', 'a', 'GET', 'x', 0, 0, 200) RETURNING id`,
      );
      expect(Number(inserted?.id)).toBe(2);
      await expect(engine.run("UPDATE vetting_decision SET decision = 'x'")).rejects.toThrow(
        /append-only/,
      );
    } finally {
      await engine.close();
      await fresh.end();
    }
  });
});
