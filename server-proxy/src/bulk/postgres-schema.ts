import type { Migration } from '../sql/migrate.ts';

/** PostgreSQL's tables for the bulk jobs (the same columns as SQLite's, in ../db.ts). */
export const BULK_MIGRATION: Migration = {
  version: 8,
  name: 'bulk jobs',
  // PLACEHOLDER: filled in when the store moves onto the SQL layer
  sql: 'SELECT 1',
};
