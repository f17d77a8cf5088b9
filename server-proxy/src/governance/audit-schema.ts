import type { Migration } from '../sql/migrate.ts';

/**
 * PostgreSQL's tables for the audit log (the same columns as SQLite's, in ../db.ts). Times are
 * ISO text collated "C", ordered as SQLite orders them.
 */
export const AUDIT_MIGRATION: Migration = {
  version: 6,
  name: 'audit log',
  sql: `CREATE TABLE audit_log (
          id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          at TEXT COLLATE "C" NOT NULL,
          "user" TEXT NOT NULL,
          method TEXT NOT NULL,
          endpoint TEXT NOT NULL,
          search_key TEXT,
          search_value TEXT,
          dot TEXT,
          cache_hit INTEGER NOT NULL,
          billable INTEGER NOT NULL,
          status INTEGER NOT NULL
        );
        CREATE INDEX audit_log_user ON audit_log ("user", id);
        CREATE INDEX audit_log_dot ON audit_log (dot, id);
        CREATE INDEX audit_log_at ON audit_log (at, id);`,
};
