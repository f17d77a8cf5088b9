import type { Migration } from '../sql/migrate.ts';

/** PostgreSQL's tables for the decisions (the same columns as SQLite's, in ../db.ts). */
export const DECISIONS_MIGRATION: Migration = {
  version: 4,
  name: 'decisions',
  // PLACEHOLDER: filled in when the store moves onto the SQL layer
  sql: 'SELECT 1',
};
