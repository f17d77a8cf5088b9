import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

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

/** Open (creating the folder and file if missing) the proxy database in WAL mode and migrate it. */
export function openProxyDb(file: string): Database.Database {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 2000');
  migrate(db);
  return db;
}
