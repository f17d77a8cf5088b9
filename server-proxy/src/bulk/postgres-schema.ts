import type { Migration } from '../sql/migrate.ts';

/**
 * PostgreSQL's tables for the bulk jobs: the same columns as SQLite's (../db.ts, migration 5), so
 * the store's SQL is the same on both engines. Times are ISO-8601 text compared as text (collated
 * "C"); `seq` is a BIGINT identity, which `pg` hands back as a string (the store wraps it in
 * Number()). Which replica works a job is a lease (`bulk-job:<id>`, the `lease` table).
 */
export const BULK_MIGRATION: Migration = {
  version: 8,
  name: 'bulk jobs',
  sql: `CREATE TABLE bulk_job (
          seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          status TEXT NOT NULL
            CHECK (status IN ('queued', 'running', 'paused', 'done', 'cancelled', 'failed')),
          created_at TEXT COLLATE "C" NOT NULL,
          updated_at TEXT COLLATE "C" NOT NULL,
          created_by TEXT NOT NULL,
          total INTEGER NOT NULL,
          estimate TEXT NOT NULL,
          pause_code TEXT,
          pause_message TEXT
        );
        CREATE INDEX bulk_job_status ON bulk_job (status, seq);
        CREATE TABLE bulk_item (
          job_seq BIGINT NOT NULL REFERENCES bulk_job (seq) ON DELETE CASCADE,
          position INTEGER NOT NULL,
          identifier TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('dot', 'docket')),
          lookup TEXT NOT NULL,
          dot_number TEXT,
          status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'failed', 'cancelled')),
          verdict TEXT,
          result TEXT,
          error_code TEXT,
          error_message TEXT,
          source TEXT,
          attempts INTEGER NOT NULL DEFAULT 0,
          finished_at TEXT COLLATE "C",
          PRIMARY KEY (job_seq, position)
        );
        CREATE INDEX bulk_item_status ON bulk_item (job_seq, status, position);
        CREATE INDEX bulk_item_finished ON bulk_item (job_seq, finished_at);
        CREATE INDEX bulk_item_done_dot ON bulk_item (dot_number, finished_at)
          WHERE status = 'done';`,
};
