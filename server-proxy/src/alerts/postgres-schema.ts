import type { Migration } from '../sql/migrate.ts';

/**
 * PostgreSQL's tables for the alerts: the same columns as SQLite's (migration 6 in ../db.ts), so
 * store.ts runs the same SQL on both. Times are ISO-8601 text compared as text, and the columns
 * digests are ordered by are text too: all collated "C" (byte order, as SQLite compares). SQLite's
 * AUTOINCREMENT keys are identity columns (never reused); `pg` answers them as strings, which the
 * store turns into numbers.
 */
export const ALERTS_MIGRATION: Migration = {
  version: 7,
  name: 'alerts',
  sql: `CREATE TABLE alert_seen (
          change_id TEXT COLLATE "C" PRIMARY KEY,
          profile_id TEXT COLLATE "C" NOT NULL,
          dot TEXT NOT NULL,
          field TEXT COLLATE "C" NOT NULL,
          channel TEXT,
          change_date TEXT COLLATE "C",
          prior TEXT,
          current TEXT,
          impact TEXT,
          first_seen_at TEXT COLLATE "C" NOT NULL,
          announced INTEGER NOT NULL
        );
        CREATE INDEX alert_seen_first ON alert_seen (first_seen_at) WHERE announced = 1;
        CREATE TABLE alert_subscription (
          id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          "user" TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('email', 'webhook')),
          target TEXT NOT NULL,
          channels TEXT NOT NULL,
          severity TEXT NOT NULL,
          schedule TEXT NOT NULL CHECK (schedule IN ('immediate', 'daily')),
          digest_time TEXT,
          time_zone TEXT,
          last_digest_at TEXT COLLATE "C",
          created_at TEXT COLLATE "C" NOT NULL,
          updated_at TEXT COLLATE "C" NOT NULL
        );
        CREATE INDEX alert_subscription_user ON alert_subscription ("user", id);
        CREATE TABLE alert_delivery (
          seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          subscription_id BIGINT,
          source TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('email', 'webhook')),
          target TEXT NOT NULL,
          payload TEXT NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'delivered', 'failed')),
          attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt_at TEXT COLLATE "C" NOT NULL,
          give_up_at TEXT COLLATE "C" NOT NULL,
          last_error TEXT,
          created_at TEXT COLLATE "C" NOT NULL,
          delivered_at TEXT COLLATE "C"
        );
        CREATE INDEX alert_delivery_due ON alert_delivery (state, next_attempt_at);
        CREATE TABLE alert_state (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL
        );`,
};
