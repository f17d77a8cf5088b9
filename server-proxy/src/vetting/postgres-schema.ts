import type { Migration } from '../sql/migrate.ts';

/**
 * PostgreSQL's tables for the vetting policy versions and the decision records: the same columns
 * as SQLite's (../db.ts, migration 4), so the store's SQL is the same on both engines. Times are
 * ISO-8601 text compared as text (collated "C"); a record's `id` is a BIGINT identity, which `pg`
 * hands back as a string (the store wraps it in Number()). As on SQLite, the records are
 * append-only: a trigger refuses UPDATE, DELETE and TRUNCATE (a correction is a new record).
 */
export const DECISIONS_MIGRATION: Migration = {
  version: 4,
  name: 'decisions',
  sql: `CREATE TABLE vetting_policy (
          version INTEGER PRIMARY KEY,
          settings TEXT NOT NULL,
          created_by TEXT NOT NULL,
          created_at TEXT COLLATE "C" NOT NULL,
          changes TEXT NOT NULL,
          note TEXT
        );
        CREATE TABLE vetting_decision (
          id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          dot_number TEXT NOT NULL,
          decision TEXT NOT NULL,
          "user" TEXT NOT NULL,
          decided_at TEXT COLLATE "C" NOT NULL,
          expires_on TEXT COLLATE "C",
          verdict TEXT,
          policy_version INTEGER NOT NULL,
          content TEXT NOT NULL,
          prev_hash TEXT NOT NULL,
          hash TEXT NOT NULL UNIQUE
        );
        CREATE INDEX vetting_decision_dot ON vetting_decision (dot_number, id);
        CREATE INDEX vetting_decision_user ON vetting_decision ("user", id);
        CREATE FUNCTION vetting_decision_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            RAISE EXCEPTION 'decision records are append-only';
          END
        $$;
        CREATE TRIGGER vetting_decision_no_change BEFORE UPDATE OR DELETE ON vetting_decision
          FOR EACH ROW EXECUTE FUNCTION vetting_decision_append_only();
        CREATE TRIGGER vetting_decision_no_truncate BEFORE TRUNCATE ON vetting_decision
          FOR EACH STATEMENT EXECUTE FUNCTION vetting_decision_append_only();`,
};

/**
 * Decisions whose standing a saved policy changed (SQLite: ../db.ts, step 9): "needs re-vet" until
 * a newer decision on the carrier; the alerts set `announced_at` once they announced a row.
 */
export const STANDING_CHANGES_MIGRATION: Migration = {
  version: 10,
  name: 'standing changes',
  sql: `CREATE TABLE vetting_standing_change (
          id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          policy_version INTEGER NOT NULL,
          dot_number TEXT NOT NULL,
          decision_id BIGINT NOT NULL,
          standing_before TEXT NOT NULL,
          standing_after TEXT NOT NULL,
          verdict_after TEXT,
          created_at TEXT COLLATE "C" NOT NULL,
          announced_at TEXT COLLATE "C"
        );
        CREATE INDEX vetting_standing_change_decision ON vetting_standing_change (decision_id);
        CREATE INDEX vetting_standing_change_unannounced ON vetting_standing_change (id)
          WHERE announced_at IS NULL;`,
};
