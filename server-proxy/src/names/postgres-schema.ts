import type { Migration } from '../sql/migrate.ts';

/**
 * PostgreSQL's table of carrier names: the same columns as SQLite's (../db.ts), so the store's SQL
 * is the same on both engines. `seen_at` is ISO-8601 text compared as text (collated "C").
 */
export const CARRIER_NAMES_MIGRATION: Migration = {
  version: 9,
  name: 'carrier names',
  sql: `CREATE TABLE carrier_name (
          dot_number TEXT PRIMARY KEY,
          legal_name TEXT,
          dba_name TEXT,
          docket TEXT,
          source TEXT NOT NULL,
          seen_at TEXT COLLATE "C" NOT NULL
        );`,
};
