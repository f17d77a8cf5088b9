/**
 * PostgreSQL's schema, in numbered migrations recorded in `schema_migrations`. Every replica runs
 * `migratePostgres` at start; they take turns on one advisory lock, so however many start
 * together, each migration is applied exactly once, in its own transaction (a failed one leaves
 * nothing behind and stops the start-up).
 *
 * SQLite's schema stays in ../db.ts; a table moved to PostgreSQL keeps SQLite's columns, so the
 * stores' SQL is the same on both engines.
 */
import type pg from 'pg';
import { ALERTS_MIGRATION } from '../alerts/postgres-schema.ts';
import { BULK_MIGRATION } from '../bulk/postgres-schema.ts';
import { AUDIT_MIGRATION } from '../governance/audit-schema.ts';
import { SPEND_MIGRATION } from '../governance/spend-schema.ts';
import { CARRIER_NAMES_MIGRATION } from '../names/postgres-schema.ts';
import { DECISIONS_MIGRATION, STANDING_CHANGES_MIGRATION } from '../vetting/postgres-schema.ts';

/** Key of the advisory lock the migrations are applied under (any fixed number; "cdmigr01"). */
const MIGRATION_LOCK_KEY = '7234315406735823409';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Timestamps are ISO-8601 text compared as text, so they are collated "C" (byte order), whatever
 * the database's default collation; so are the ids triage is ordered by, to list in SQLite's order.
 */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions',
    sql: `CREATE TABLE sessions (
            id_hash TEXT PRIMARY KEY,
            "user" TEXT NOT NULL,
            created_at TEXT COLLATE "C" NOT NULL,
            expires_at TEXT COLLATE "C" NOT NULL
          );
          CREATE INDEX sessions_expiry ON sessions (expires_at);`,
  },
  {
    version: 2,
    name: 'triage',
    sql: `CREATE TABLE triage_state (
            "user" TEXT NOT NULL,
            change_id TEXT COLLATE "C" NOT NULL,
            profile_id TEXT COLLATE "C" NOT NULL,
            field TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('reviewed', 'escalated')),
            note TEXT,
            user_name TEXT NOT NULL,
            updated_at TEXT COLLATE "C" NOT NULL,
            PRIMARY KEY ("user", change_id)
          );
          CREATE INDEX triage_state_profile ON triage_state ("user", profile_id);
          CREATE TABLE inbox_visit (
            "user" TEXT PRIMARY KEY,
            last_visit_at TEXT COLLATE "C" NOT NULL,
            previous_visit_at TEXT COLLATE "C"
          );`,
  },
  {
    version: 3,
    name: 'leases',
    sql: `CREATE TABLE lease (
            name TEXT PRIMARY KEY,
            holder TEXT NOT NULL,
            expires_ms BIGINT NOT NULL
          );`,
  },
  DECISIONS_MIGRATION,
  SPEND_MIGRATION,
  AUDIT_MIGRATION,
  ALERTS_MIGRATION,
  BULK_MIGRATION,
  CARRIER_NAMES_MIGRATION,
  STANDING_CHANGES_MIGRATION,
];

/** Apply the migrations not applied yet; answers the versions this call applied. */
export async function migratePostgres(
  pool: pg.Pool,
  migrations: readonly Migration[] = POSTGRES_MIGRATIONS,
): Promise<number[]> {
  const client = await pool.connect();
  // a connection breaking while migrations run rejects the statement in flight; the listener only
  // keeps the client's 'error' event from crashing the process
  const ignore = () => undefined;
  client.on('error', ignore);
  let broken: Error | undefined;
  const applied: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(
        `CREATE TABLE IF NOT EXISTS schema_migrations (
           version INTEGER PRIMARY KEY,
           name TEXT NOT NULL,
           applied_at TEXT NOT NULL
         )`,
      );
      const done = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const known = new Set(done.rows.map((row) => Number(row.version)));
      for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
        if (known.has(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query(
            'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
            [migration.version, migration.name, new Date().toISOString()],
          );
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new Error(
            `migration ${migration.version} (${migration.name}) failed: ${(err as Error).message}`,
            { cause: err },
          );
        }
        applied.push(migration.version);
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
  return applied;
}
