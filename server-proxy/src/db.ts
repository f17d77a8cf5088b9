import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { storageOf } from './storage.ts';

/**
 * Schema steps of the proxy's own database, applied in order. Step N brings `user_version` from N to
 * N + 1. Never edit a released step: append a new one.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE spend_ledger (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     call_id TEXT NOT NULL,
     at TEXT NOT NULL,
     month TEXT NOT NULL,
     day TEXT NOT NULL,
     mode TEXT NOT NULL,
     endpoint TEXT NOT NULL,
     dot TEXT,
     user TEXT NOT NULL,
     cache_hit INTEGER NOT NULL,
     price_mills INTEGER NOT NULL
   );
   CREATE INDEX spend_ledger_month ON spend_ledger (mode, month, endpoint, dot);
   CREATE TABLE audit_log (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     at TEXT NOT NULL,
     user TEXT NOT NULL,
     method TEXT NOT NULL,
     endpoint TEXT NOT NULL,
     search_key TEXT,
     search_value TEXT,
     dot TEXT,
     cache_hit INTEGER NOT NULL,
     billable INTEGER NOT NULL,
     status INTEGER NOT NULL
   );
   CREATE INDEX audit_log_user ON audit_log (user, id);
   CREATE INDEX audit_log_dot ON audit_log (dot, id);
   CREATE TABLE sessions (
     id_hash TEXT PRIMARY KEY,
     user TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL
   );
   CREATE INDEX sessions_expiry ON sessions (expires_at);`,
  // 2: monitoring triage (one row per user and reviewed/escalated change) and inbox visits
  `CREATE TABLE triage_state (
     user TEXT NOT NULL,
     change_id TEXT NOT NULL,
     profile_id TEXT NOT NULL,
     field TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('reviewed', 'escalated')),
     note TEXT,
     user_name TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (user, change_id)
   ) WITHOUT ROWID;
   CREATE INDEX triage_state_profile ON triage_state (user, profile_id);
   CREATE TABLE inbox_visit (
     user TEXT PRIMARY KEY,
     last_visit_at TEXT NOT NULL,
     previous_visit_at TEXT
   ) WITHOUT ROWID;`,
  // 3: the state of a ledger row. A call that may bill is written as `pending` rows (its intent)
  // before it is sent; they become the `settled` rows of what the service served, are deleted when
  // the call never reached the service, or stay as `uncertain` (priced at the quote) when it may
  // have. Rows left `pending` by a crash are made `uncertain` at start-up. Every state counts as
  // spent.
  `ALTER TABLE spend_ledger ADD COLUMN state TEXT NOT NULL DEFAULT 'settled'
     CHECK (state IN ('pending', 'settled', 'uncertain'));
   CREATE INDEX spend_ledger_call ON spend_ledger (call_id);
   CREATE INDEX spend_ledger_state ON spend_ledger (state) WHERE state <> 'settled';`,
  // 4: vetting (docs/vetting.md): numbered policy versions, and decision records chained by hash.
  // Decisions are append-only: the triggers refuse UPDATE and DELETE (a correction is a new record).
  `CREATE TABLE vetting_policy (
     version INTEGER PRIMARY KEY,
     settings TEXT NOT NULL,
     created_by TEXT NOT NULL,
     created_at TEXT NOT NULL,
     changes TEXT NOT NULL,
     note TEXT
   );
   CREATE TABLE vetting_decision (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     dot_number TEXT NOT NULL,
     decision TEXT NOT NULL,
     user TEXT NOT NULL,
     decided_at TEXT NOT NULL,
     expires_on TEXT,
     verdict TEXT,
     policy_version INTEGER NOT NULL,
     content TEXT NOT NULL,
     prev_hash TEXT NOT NULL,
     hash TEXT NOT NULL UNIQUE
   );
   CREATE INDEX vetting_decision_dot ON vetting_decision (dot_number, id);
   CREATE INDEX vetting_decision_user ON vetting_decision (user, id);
   CREATE TRIGGER vetting_decision_no_update BEFORE UPDATE ON vetting_decision
     BEGIN SELECT RAISE(ABORT, 'decision records are append-only'); END;
   CREATE TRIGGER vetting_decision_no_delete BEFORE DELETE ON vetting_decision
     BEGIN SELECT RAISE(ABORT, 'decision records are append-only'); END;`,
  // 5: bulk vetting jobs (docs/bulk-vetting.md): a job and one row per identifier, each item's
  // result written as it finishes so a restarted proxy resumes at the first pending item.
  `CREATE TABLE bulk_job (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     status TEXT NOT NULL
       CHECK (status IN ('queued', 'running', 'paused', 'done', 'cancelled', 'failed')),
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     created_by TEXT NOT NULL,
     total INTEGER NOT NULL,
     estimate TEXT NOT NULL,
     pause_code TEXT,
     pause_message TEXT
   );
   CREATE INDEX bulk_job_status ON bulk_job (status, seq);
   CREATE TABLE bulk_item (
     job_seq INTEGER NOT NULL REFERENCES bulk_job (seq) ON DELETE CASCADE,
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
     finished_at TEXT,
     PRIMARY KEY (job_seq, position)
   ) WITHOUT ROWID;
   CREATE INDEX bulk_item_status ON bulk_item (job_seq, status, position);
   CREATE INDEX bulk_item_finished ON bulk_item (job_seq, finished_at);
   CREATE INDEX bulk_item_done_dot ON bulk_item (dot_number, finished_at) WHERE status = 'done';`,
  // 6: alerts (docs/alerts.md): change ids already seen by the poller (with what they were, for
  // digests), subscriptions, the outbox of deliveries and the poller's own state.
  `CREATE TABLE alert_seen (
     change_id TEXT PRIMARY KEY,
     profile_id TEXT NOT NULL,
     dot TEXT NOT NULL,
     field TEXT NOT NULL,
     channel TEXT,
     change_date TEXT,
     prior TEXT,
     current TEXT,
     impact TEXT,
     first_seen_at TEXT NOT NULL,
     announced INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE INDEX alert_seen_first ON alert_seen (first_seen_at) WHERE announced = 1;
   CREATE TABLE alert_subscription (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     user TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('email', 'webhook')),
     target TEXT NOT NULL,
     channels TEXT NOT NULL,
     severity TEXT NOT NULL,
     schedule TEXT NOT NULL CHECK (schedule IN ('immediate', 'daily')),
     digest_time TEXT,
     time_zone TEXT,
     last_digest_at TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE TABLE alert_delivery (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     subscription_id INTEGER,
     source TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('email', 'webhook')),
     target TEXT NOT NULL,
     payload TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'delivered', 'failed')),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at TEXT NOT NULL,
     give_up_at TEXT NOT NULL,
     last_error TEXT,
     created_at TEXT NOT NULL,
     delivered_at TEXT
   );
   CREATE INDEX alert_delivery_due ON alert_delivery (state, next_attempt_at);
   CREATE TABLE alert_state (
     key TEXT PRIMARY KEY,
     value TEXT NOT NULL
   ) WITHOUT ROWID;`,
  // Leases: which process runs a piece of background work (alert polling, a bulk job) now.
  `CREATE TABLE lease (
     name TEXT PRIMARY KEY,
     holder TEXT NOT NULL,
     expires_ms INTEGER NOT NULL
   ) WITHOUT ROWID;`,
  // 8: carrier names seen in the service's answers (server-proxy/src/names/), one row per DOT
  `CREATE TABLE carrier_name (
     dot_number TEXT PRIMARY KEY,
     legal_name TEXT,
     dba_name TEXT,
     docket TEXT,
     source TEXT NOT NULL,
     seen_at TEXT NOT NULL
   ) WITHOUT ROWID;`,
  // 9: decisions whose standing a saved policy changed (vetting/standing-changes.ts): "needs
  // re-vet" until a newer decision on the carrier; the alerts announce each row once.
  `CREATE TABLE vetting_standing_change (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     policy_version INTEGER NOT NULL,
     dot_number TEXT NOT NULL,
     decision_id INTEGER NOT NULL,
     standing_before TEXT NOT NULL,
     standing_after TEXT NOT NULL,
     verdict_after TEXT,
     created_at TEXT NOT NULL,
     announced_at TEXT
   );
   CREATE INDEX vetting_standing_change_decision ON vetting_standing_change (decision_id);
   CREATE INDEX vetting_standing_change_unannounced ON vetting_standing_change (id)
     WHERE announced_at IS NULL;`,
  // 10: what PostgreSQL's schema already had (sql/schema-parity.test.ts found the gaps): the audit
  // log's index by time (its list is ordered by at, retention deletes by at), subscriptions by
  // user, and a session id that cannot be NULL (a rowid table's TEXT PRIMARY KEY accepts NULL in
  // SQLite). SQLite cannot add NOT NULL to a column, so sessions is copied into a new table.
  `CREATE INDEX audit_log_at ON audit_log (at, id);
   CREATE INDEX alert_subscription_user ON alert_subscription (user, id);
   CREATE TABLE sessions_next (
     id_hash TEXT NOT NULL PRIMARY KEY,
     user TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL
   );
   INSERT INTO sessions_next (id_hash, user, created_at, expires_at)
     SELECT id_hash, user, created_at, expires_at FROM sessions WHERE id_hash IS NOT NULL;
   DROP TABLE sessions;
   ALTER TABLE sessions_next RENAME TO sessions;
   CREATE INDEX sessions_expiry ON sessions (expires_at);`,
];

/** Apply the steps not yet applied (by `user_version`), each in its own transaction. */
export function migrate(db: Database.Database, steps: readonly string[] = MIGRATIONS): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current; version < steps.length; version += 1) {
    const step = steps[version] ?? '';
    db.transaction(() => {
      db.exec(step);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return db.pragma('user_version', { simple: true }) as number;
}

/** How long a write waits for another connection's write lock before it fails (SQLITE_BUSY). */
const BUSY_TIMEOUT_MS = 2000;

/**
 * Open (creating the folder and file if missing) the proxy database in WAL mode and migrate it.
 * The file's identity is taken now, so a later deleted or replaced data dir is noticed (storage.ts).
 */
export function openProxyDb(
  file: string,
  { busyTimeoutMs = BUSY_TIMEOUT_MS }: { busyTimeoutMs?: number } = {},
): Database.Database {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  migrate(db);
  storageOf(db);
  return db;
}
