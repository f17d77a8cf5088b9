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

type ChangeRowText = Omit<ChangeRow, 'changes'> & { changes: string };

/**
 * SQLite access of the monitoring module: watchlist, change records, overrides, meta values.
 *
 * Every list request reads the whole watchlist and every change record (filters and sort apply to
 * all profiles before a page is cut), which at 10,000 watched profiles and 100,000 records is most
 * of a second of SQLite sorting and JSON parsing. So the full reads are kept in memory until the
 * next write to their table: every write goes through this class, and each one drops the copy.
 * Callers must treat what `watched()` and `changes()` return as read-only.
 */
export class MonitoringStore {
  readonly db: Database.Database;
  private allWatched: readonly WatchRow[] | undefined;
  private allChanges: readonly ChangeRow[] | undefined;
  private fieldOverrides:
    { fields: string; byDot: ReadonlyMap<string, Map<string, unknown>> } | undefined;

  constructor(db: Database.Database) {
    this.db = db;
  }

  private watchesChanged(): void {
    this.allWatched = undefined;
  }

  private changesChanged(): void {
    this.allChanges = undefined;
  }

  private overridesChanged(): void {
    this.fieldOverrides = undefined;
  }

  createTables(): void {
    this.db.exec(SCHEMA);
    this.watchesChanged();
    this.changesChanged();
    this.overridesChanged();
  }

  dropTables(): void {
    for (const table of TABLES) this.db.exec(`DROP TABLE IF EXISTS ${table}`);
    this.watchesChanged();
    this.changesChanged();
    this.overridesChanged();
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

  /** The watchlist by profile id, or the one watch of `profileId` (empty when not watched). */
  watched(profileId?: string): readonly WatchRow[] {
    if (profileId !== undefined) {
      return this.db
        .prepare<[string], WatchRow>('SELECT * FROM monitoring_watch WHERE profile_id = ?')
        .all(profileId);
    }
    this.allWatched ??= this.db
      .prepare<[], WatchRow>('SELECT * FROM monitoring_watch ORDER BY profile_id')
      .all();
    return this.allWatched;
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
    this.watchesChanged();
  }

  /** A re-add: acknowledge the profile's changes and move its billing to `key`. */
  acknowledge(profileId: string, at: string, key: string, month: string): void {
    this.db
      .prepare(
        `UPDATE monitoring_watch SET acknowledged_at = ?, billed_key = ?, billed_through = ?
         WHERE profile_id = ?`,
      )
      .run(at, key, month, profileId);
    this.watchesChanged();
  }

  setBilledThrough(profileId: string, month: string): void {
    this.db
      .prepare('UPDATE monitoring_watch SET billed_through = ? WHERE profile_id = ?')
      .run(month, profileId);
    this.watchesChanged();
  }

  /** Stop watching; the profile's change records go with it. Returns whether it was watched. */
  deleteWatch(profileId: string): boolean {
    this.changesChanged();
    this.watchesChanged();
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
    this.changesChanged();
  }

  /** All change records of the watched profiles, newest first (date, then insertion order). */
  changes(profileId?: string): readonly ChangeRow[] {
    if (profileId !== undefined) return this.readChanges(profileId);
    this.allChanges ??= this.readChanges();
    return this.allChanges;
  }

  private readChanges(profileId?: string): ChangeRow[] {
    const sql = `SELECT id, profile_id, changed_on, changes FROM monitoring_change
      ${profileId === undefined ? '' : 'WHERE profile_id = ?'}
      ORDER BY changed_on DESC, id DESC`;
    const statement = this.db.prepare<unknown[], ChangeRowText>(sql);
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

  /** The overrides of these fields of every carrier, by DOT (one read until the next override). */
  overridesOfFields(fields: readonly string[]): ReadonlyMap<string, Map<string, unknown>> {
    const key = fields.join(',');
    if (this.fieldOverrides?.fields !== key) {
      this.fieldOverrides = { fields: key, byDot: this.readOverridesOf(fields) };
    }
    return this.fieldOverrides.byDot;
  }

  private readOverridesOf(fields: readonly string[]): Map<string, Map<string, unknown>> {
    const rows = this.db
      .prepare<string[], { dot: string; field: string; value: string }>(
        `SELECT dot, field, value FROM monitoring_override
         WHERE field IN (${fields.map(() => '?').join(', ')})`,
      )
      .all(...fields);
    const byDot = new Map<string, Map<string, unknown>>();
    for (const row of rows) {
      const overrides = byDot.get(row.dot) ?? new Map<string, unknown>();
      overrides.set(row.field, JSON.parse(row.value) as unknown);
      byDot.set(row.dot, overrides);
    }
    return byDot;
  }

  setOverride(dot: string, field: string, value: unknown): void {
    this.overridesChanged();
    this.db
      .prepare(
        `INSERT INTO monitoring_override (dot, field, value) VALUES (?, ?, ?)
         ON CONFLICT (dot, field) DO UPDATE SET value = excluded.value`,
      )
      .run(dot, field, JSON.stringify(value ?? null));
  }
}
