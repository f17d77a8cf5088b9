import type { Migration } from '../sql/migrate.ts';

/** PostgreSQL's tables for the spend ledger (the same columns as SQLite's, in ../db.ts). */
export const SPEND_MIGRATION: Migration = {
  version: 5,
  name: 'spend ledger',
  // PLACEHOLDER: filled in when the store moves onto the SQL layer
  sql: 'SELECT 1',
};
