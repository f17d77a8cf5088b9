import type Database from 'better-sqlite3';

/** One changed field of a change record, values as they are on the wire profile. */
export interface FieldChange {
  field: string;
  prior: unknown;
  current: unknown;
}

export interface WatchRow {
  profile_id: string;
  dot: string;
  /** epoch seconds */
  started_at: number;
  /** ISO timestamp of the last re-add, or null */
  acknowledged_at: string | null;
  /** the key billed for this profile's months, null for the seeded (complimentary) watchlist */
  billed_key: string | null;
  /** last month ('YYYY-MM') billed to `billed_key` */
  billed_through: string | null;
}

export interface ChangeRow {
  id: number;
  profile_id: string;
  /** 'YYYYMMDD' */
  changed_on: string;
  changes: FieldChange[];
}

/** Meta key: when the watchlist was seeded (ISO); absent on a new database. */
export const SEEDED_AT = 'seeded_at';
/** Meta key: the last day number whose scripted events were applied. */
export const EVENTS_THROUGH = 'events_through';

const TABLES = ['monitoring_meta', 'monitoring_watch', 'monitoring_change', 'monitoring_override'];

const SCHEMA = `
CREATE TABLE IF NOT EXISTS monitoring_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS monitoring_watch (
  profile_id TEXT PRIMARY KEY,
  dot TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  acknowledged_at TEXT,
  billed_key TEXT,
  billed_through TEXT
);
CREATE TABLE IF NOT EXISTS monitoring_change (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  profile_id TEXT NOT NULL,
  changed_on TEXT NOT NULL,
  changes TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS monitoring_change_profile ON monitoring_change (profile_id);
CREATE TABLE IF NOT EXISTS monitoring_override (
  dot TEXT NOT NULL,
  field TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (dot, field)
);`;

/** SQLite access of the monitoring module: watchlist, change records, overrides, meta values. */
export class MonitoringStore {
  readonly db: Database.Database;

  constructor(db: Database.Database) {
    this.db = db;
  }

  createTables(): void {
    this.db.exec(SCHEMA);
  }

  dropTables(): void {
    for (const table of TABLES) this.db.exec(`DROP TABLE IF EXISTS ${table}`);
  }

  getMeta(key: string): string | undefined {
    const row = this.db
      .prepare<[string], { value: string }>('SELECT value FROM monitoring_meta WHERE key = ?')
      .get(key);
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.db
      .prepare(
        'INSERT INTO monitoring_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      )
      .run(key, value);
  }

  watched(profileId?: string): WatchRow[] {
    if (profileId !== undefined) {
      return this.db
        .prepare<[string], WatchRow>('SELECT * FROM monitoring_watch WHERE profile_id = ?')
        .all(profileId);
    }
    return this.db
      .prepare<[], WatchRow>('SELECT * FROM monitoring_watch ORDER BY profile_id')
      .all();
  }

  getWatch(profileId: string): WatchRow | undefined {
    return this.watched(profileId)[0];
  }

  insertWatch(row: WatchRow): void {
    this.db
      .prepare(
        `INSERT INTO monitoring_watch
         (profile_id, dot, started_at, acknowledged_at, billed_key, billed_through)
         VALUES (@profile_id, @dot, @started_at, @acknowledged_at, @billed_key, @billed_through)`,
      )
      .run(row);
  }

  /** A re-add: acknowledge the profile's changes and move its billing to `key`. */
  acknowledge(profileId: string, at: string, key: string, month: string): void {
    this.db
      .prepare(
        `UPDATE monitoring_watch SET acknowledged_at = ?, billed_key = ?, billed_through = ?
         WHERE profile_id = ?`,
      )
      .run(at, key, month, profileId);
  }

  setBilledThrough(profileId: string, month: string): void {
    this.db
      .prepare('UPDATE monitoring_watch SET billed_through = ? WHERE profile_id = ?')
      .run(month, profileId);
  }

  /** Stop watching; the profile's change records go with it. Returns whether it was watched. */
  deleteWatch(profileId: string): boolean {
    this.db.prepare('DELETE FROM monitoring_change WHERE profile_id = ?').run(profileId);
    return (
      this.db.prepare('DELETE FROM monitoring_watch WHERE profile_id = ?').run(profileId).changes >
      0
    );
  }

  insertChange(profileId: string, changedOn: string, changes: FieldChange[]): void {
    this.db
      .prepare('INSERT INTO monitoring_change (profile_id, changed_on, changes) VALUES (?, ?, ?)')
      .run(profileId, changedOn, JSON.stringify(changes));
  }

  /** All change records of the watched profiles, newest first (date, then insertion order). */
  changes(profileId?: string): ChangeRow[] {
    const sql = `SELECT id, profile_id, changed_on, changes FROM monitoring_change
      ${profileId === undefined ? '' : 'WHERE profile_id = ?'}
      ORDER BY changed_on DESC, id DESC`;
    const statement = this.db.prepare<unknown[], Omit<ChangeRow, 'changes'> & { changes: string }>(
      sql,
    );
    const rows = profileId === undefined ? statement.all() : statement.all(profileId);
    return rows.map((row) => ({ ...row, changes: JSON.parse(row.changes) as FieldChange[] }));
  }

  /** The overridden fields of one carrier (a null value means the field is now absent). */
  overrides(dot: string): Map<string, unknown> {
    const rows = this.db
      .prepare<[string], { field: string; value: string }>(
        'SELECT field, value FROM monitoring_override WHERE dot = ?',
      )
      .all(dot);
    return new Map(rows.map((row) => [row.field, JSON.parse(row.value) as unknown]));
  }

  setOverride(dot: string, field: string, value: unknown): void {
    this.db
      .prepare(
        `INSERT INTO monitoring_override (dot, field, value) VALUES (?, ?, ?)
         ON CONFLICT (dot, field) DO UPDATE SET value = excluded.value`,
      )
      .run(dot, field, JSON.stringify(value ?? null));
  }
}
