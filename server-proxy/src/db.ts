import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { createTableSql } from './sql/ddl.ts';
import {
  CHANGE_RECORD_TABLE,
  CHANGES,
  SCHEMA,
  TABLES,
  changeSql,
  legacyApplied,
  plan,
  type SchemaDefinition,
} from './sql/schema.ts';
import { storageOf } from './storage.ts';

/** The last `PRAGMA user_version` of the numbered steps this file's schema used to be made by. */
const LEGACY_VERSION = Math.max(...CHANGES.map((change) => change.legacyStep ?? 0));

/**
 * Bring the database to the schema's definition (sql/schema.ts): each change not yet recorded in
 * `schema_change`, in order, each in its own transaction with its record. A file made before that
 * record existed is read by its `PRAGMA user_version` (N = the changes of the first N old steps).
 * Once every change of those steps is in, `user_version` says so (an older proxy opened on the file
 * then finds nothing to do). Answers the changes this call applied.
 */
export function migrate(db: Database.Database, schema: SchemaDefinition = SCHEMA): string[] {
  const recorded = (name: string) =>
    db.prepare(`SELECT 1 FROM ${CHANGE_RECORD_TABLE} WHERE name = ?`).get(name) !== undefined;
  const record = (names: readonly string[]) => {
    const insert = db.prepare(
      `INSERT INTO ${CHANGE_RECORD_TABLE} (name, applied_at) VALUES (?, ?)`,
    );
    const at = new Date().toISOString();
    for (const name of names) insert.run(name, at);
  };
  db.transaction(() => {
    const exists = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(CHANGE_RECORD_TABLE);
    if (exists !== undefined) return;
    for (const statement of createTableSql(
      CHANGE_RECORD_TABLE,
      TABLES[CHANGE_RECORD_TABLE],
      'sqlite',
    )) {
      db.exec(statement);
    }
    const version = db.pragma('user_version', { simple: true }) as number;
    record(legacyApplied(schema.changes, { sqliteVersion: version }));
  }).immediate();
  const applied = new Set(
    db
      .prepare<[], { name: string }>(`SELECT name FROM ${CHANGE_RECORD_TABLE}`)
      .all()
      .map((row) => row.name),
  );
  const done: string[] = [];
  for (const { change, covers } of plan(schema.changes, applied, 'sqlite')) {
    db.transaction(() => {
      if (recorded(change.name)) return; // another connection applied it meanwhile
      const columns = () =>
        db
          .prepare<[], { name: string }>(`PRAGMA table_info("${change.table}")`)
          .all()
          .map((column) => column.name);
      for (const statement of changeSql(change, schema.tables, 'sqlite', columns)) {
        db.exec(statement);
      }
      record(covers);
      done.push(change.name);
    }).immediate();
  }
  const legacy = CHANGES.filter((change) => change.legacyStep !== undefined);
  if (schema === SCHEMA && legacy.every((change) => recorded(change.name))) {
    if ((db.pragma('user_version', { simple: true }) as number) < LEGACY_VERSION) {
      db.pragma(`user_version = ${LEGACY_VERSION}`);
    }
  }
  return done;
}

/**
 * How the file's schema stands against the definition: the changes it lacks and those it recorded
 * that this code does not know (written by a newer version). Reads only.
 */
export function schemaState(
  db: Database.Database,
  schema: SchemaDefinition = SCHEMA,
): { pending: string[]; unknown: string[] } {
  const exists = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
    .get(CHANGE_RECORD_TABLE);
  const recorded = new Set(
    exists === undefined
      ? legacyApplied(schema.changes, {
          sqliteVersion: db.pragma('user_version', { simple: true }) as number,
        })
      : db
          .prepare<[], { name: string }>(`SELECT name FROM ${CHANGE_RECORD_TABLE}`)
          .all()
          .map((row) => row.name),
  );
  const known = new Set(schema.changes.map((change) => change.name));
  return {
    pending: schema.changes.filter((change) => !recorded.has(change.name)).map((c) => c.name),
    unknown: [...recorded].filter((name) => !known.has(name)),
  };
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
