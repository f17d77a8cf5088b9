/**
 * PostgreSQL's migrator: brings a database to the schema's definition (schema.ts) by the one list
 * of changes SQLite's migrator (../db.ts) applies too, each recorded in `schema_change`. Every
 * replica runs `migratePostgres` at start; they take turns on one advisory lock, so however many
 * start together, each change is applied exactly once, in its own transaction (a failed one leaves
 * nothing behind and stops the start-up).
 *
 * A database made before that record existed kept `schema_migrations` (versions 1..10, each the
 * tables it created): its changes are recorded from it, and it is dropped, in one transaction.
 */
import type pg from 'pg';
import { createTableSql } from './ddl.ts';
import {
  CHANGE_RECORD_TABLE,
  SCHEMA,
  TABLES,
  changeSql,
  legacyApplied,
  plan,
  type SchemaDefinition,
} from './schema.ts';

/** Key of the advisory lock the migrations are applied under (any fixed number; "cdmigr01"). */
const MIGRATION_LOCK_KEY = '7234315406735823409';

/** The table of the numbered migrations before `schema_change`. */
const LEGACY_RECORD_TABLE = 'schema_migrations';

/** Apply the changes not applied yet; answers the changes this call applied. */
export async function migratePostgres(
  pool: pg.Pool,
  schema: SchemaDefinition = SCHEMA,
): Promise<string[]> {
  const client = await pool.connect();
  // a connection breaking while migrations run rejects the statement in flight; the listener only
  // keeps the client's 'error' event from crashing the process
  const ignore = () => undefined;
  client.on('error', ignore);
  let broken: Error | undefined;
  const done: string[] = [];
  const inTransaction = async (what: string, fn: () => Promise<void>) => {
    await client.query('BEGIN');
    try {
      await fn();
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw new Error(`schema change "${what}" failed: ${(err as Error).message}`, {
        cause: err,
      });
    }
  };
  const record = async (names: readonly string[]) => {
    const at = new Date().toISOString();
    for (const name of names) {
      await client.query(`INSERT INTO ${CHANGE_RECORD_TABLE} (name, applied_at) VALUES ($1, $2)`, [
        name,
        at,
      ]);
    }
  };
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const found = await client.query<{ record: string | null; legacy: string | null }>(
        `SELECT to_regclass('${CHANGE_RECORD_TABLE}')::text AS record,
                to_regclass('${LEGACY_RECORD_TABLE}')::text AS legacy`,
      );
      const { record: hasRecord, legacy: hasLegacy } = found.rows[0] ?? {};
      if (hasRecord === null || hasRecord === undefined) {
        await inTransaction(`create ${CHANGE_RECORD_TABLE}`, async () => {
          const statements = createTableSql(
            CHANGE_RECORD_TABLE,
            TABLES[CHANGE_RECORD_TABLE],
            'postgres',
          );
          for (const statement of statements) await client.query(statement);
          if (hasLegacy !== null && hasLegacy !== undefined) {
            const versions = await client.query<{ version: number }>(
              `SELECT version FROM ${LEGACY_RECORD_TABLE}`,
            );
            const postgresVersions = versions.rows.map((row) => Number(row.version));
            await record(legacyApplied(schema.changes, { postgresVersions }));
            await client.query(`DROP TABLE ${LEGACY_RECORD_TABLE}`);
          }
        });
      }
      const applied = await client.query<{ name: string }>(
        `SELECT name FROM ${CHANGE_RECORD_TABLE}`,
      );
      const known = new Set(applied.rows.map((row) => row.name));
      for (const { change, covers } of plan(schema.changes, known, 'postgres')) {
        await inTransaction(change.name, async () => {
          for (const statement of changeSql(change, schema.tables, 'postgres')) {
            await client.query(statement);
          }
          await record(covers);
        });
        done.push(change.name);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } catch (err) {
    broken = err as Error;
    throw err;
  } finally {
    // A connection that failed is dropped (its session lock goes with it), not reused.
    client.off('error', ignore);
    client.release(broken);
  }
  return done;
}
