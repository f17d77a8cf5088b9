/**
 * Schema parity: SQLite's schema (sql/schema.ts's tables, made by `openProxyDb` on a fresh file)
 * and PostgreSQL's (made by `migratePostgres` on a fresh database) must describe the same tables.
 * Both come from one definition, so this checks the generator (ddl.ts) and the dialect-only
 * statements beside each table. Each side is read back from what the DATABASE reports
 * (schema-introspection.test-support.ts) and compared: tables, columns, types (through the
 * accepted pairs), nullability, defaults, database-generated keys, primary and unique keys,
 * indexes, foreign keys, triggers and CHECK constraints. Not compared: column order, collations
 * and SQLite's WITHOUT ROWID.
 *
 * A difference is either fixed in the definition or listed in DELIBERATE with the reason.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openProxyDb } from '../db.ts';
import { makeTempDir } from '../helpers.test-support.ts';
import { usePostgres } from './engines.test-support.ts';
import { migratePostgres } from './migrate.ts';
import { TABLES } from './schema.ts';
import {
  DELIBERATE,
  differences,
  readPostgres,
  readSqlite,
  unexplained,
  type Schema,
} from './schema-introspection.test-support.ts';

const server = usePostgres();
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** SQLite's schema made as production makes it (openProxyDb on a fresh file), plus `extra` steps. */
function sqliteSchema(extra: readonly string[] = []): Schema {
  const dir = makeTempDir();
  dirs.push(dir);
  const db = openProxyDb(join(dir, 'proxy.sqlite'));
  try {
    for (const step of extra) db.exec(step);
    return readSqlite(db);
  } finally {
    db.close();
  }
}

/** PostgreSQL's schema made as production makes it (migratePostgres on a fresh database). */
async function postgresSchema(extra: readonly string[] = []): Promise<Schema> {
  const pool = new pg.Pool({ connectionString: await server.freshDatabase(), max: 1 });
  pool.on('error', () => undefined);
  try {
    await migratePostgres(pool);
    for (const statement of extra) await pool.query(statement);
    const client = await pool.connect();
    try {
      return await readPostgres(client);
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}

describe('schema parity of SQLite and PostgreSQL', () => {
  it('the two engines report the same tables, columns, keys, indexes and triggers', async () => {
    const sqlite = sqliteSchema();
    const postgres = await postgresSchema();
    // each reader sees every kind of thing compared (a reader that saw nothing would agree)
    for (const schema of [sqlite, postgres]) {
      expect([...schema.keys()]).toEqual(expect.arrayContaining(Object.keys(TABLES)));
      expect(schema.get('spend_ledger')?.columns.get('state')).toMatchObject({
        notNull: true,
        default: "'settled'",
        generated: false,
      });
      expect(schema.get('spend_ledger')?.columns.get('id')?.generated).toBe(true);
      expect(schema.get('spend_ledger')?.indexes.get('spend_ledger_state')).toBe(
        "(state) where state <> 'settled'",
      );
      expect(schema.get('triage_state')?.primaryKey).toEqual(['user', 'change_id']);
      expect(schema.get('bulk_job')?.unique).toEqual(['(id)']);
      expect(schema.get('bulk_item')?.foreignKeys).toEqual([
        '(job_seq) → bulk_job (seq) on delete cascade on update no action',
      ]);
      expect(schema.get('spend_ledger')?.checks).toEqual([
        "state in 'pending', 'settled', 'uncertain'",
      ]);
      expect(schema.get('vetting_decision')?.triggers).toEqual(
        expect.arrayContaining(['before delete refuses', 'before update refuses']),
      );
    }
    expect(unexplained(sqlite, postgres)).toEqual([]);
    // every deliberate difference is still there (a stale entry would hide a future one)
    expect(differences(sqlite, postgres).sort()).toEqual(Object.keys(DELIBERATE).sort());
  });

  it('a column, index or table added to one engine only is a difference', async () => {
    const extraPostgres = [
      `ALTER TABLE carrier_name ADD COLUMN nickname TEXT;
       CREATE INDEX lease_holder ON lease (holder);
       ALTER TABLE carrier_name ALTER COLUMN source DROP NOT NULL;
       ALTER TABLE alert_state ALTER COLUMN value SET DEFAULT '{}';
       ALTER TABLE bulk_job ALTER COLUMN total TYPE BIGINT;
       CREATE UNIQUE INDEX bulk_item_identifier ON bulk_item (job_seq, identifier);
       ALTER TABLE lease ADD CHECK (expires_ms > 0);`,
    ];
    const sqlite = sqliteSchema([
      'ALTER TABLE bulk_job ADD COLUMN priority INTEGER NOT NULL DEFAULT 0',
      'CREATE TABLE scratch (id TEXT PRIMARY KEY)',
      "CREATE TRIGGER lease_kept BEFORE DELETE ON lease BEGIN SELECT RAISE(ABORT, 'kept'); END",
    ]);
    const postgres = await postgresSchema(extraPostgres);
    expect(unexplained(sqlite, postgres)).toEqual([
      'alert_state.value default: SQLite null, PostgreSQL "\'{}\'"',
      'bulk_item: unique (job_seq, identifier): only in PostgreSQL',
      'column bulk_job.priority: only in SQLite',
      'bulk_job.total: type SQLite INTEGER, PostgreSQL bigint (not an accepted pair)',
      'column carrier_name.nickname: only in PostgreSQL',
      'carrier_name.source not null: SQLite true, PostgreSQL false',
      'index lease_holder on lease: only in PostgreSQL',
      'lease: trigger before delete refuses: only in SQLite',
      'lease: check expires_ms > 0: only in PostgreSQL',
      'table scratch: only in SQLite',
    ]);
  });
});
