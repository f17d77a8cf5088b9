import type { Migration } from '../sql/migrate.ts';

/** PostgreSQL's tables for the alerts (the same columns as SQLite's, in ../db.ts). */
export const ALERTS_MIGRATION: Migration = {
  version: 7,
  name: 'alerts',
  // PLACEHOLDER: filled in when the store moves onto the SQL layer
  sql: 'SELECT 1',
};
