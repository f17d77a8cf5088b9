import type { Migration } from '../sql/migrate.ts';

/** PostgreSQL's tables for the audit log (the same columns as SQLite's, in ../db.ts). */
export const AUDIT_MIGRATION: Migration = {
  version: 6,
  name: 'audit log',
  // PLACEHOLDER: filled in when the store moves onto the SQL layer
  sql: 'SELECT 1',
};
