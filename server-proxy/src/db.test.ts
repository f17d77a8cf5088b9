import { existsSync, rmSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openProxyDb } from './db.ts';
import { CHANGES, SCHEMA, TABLES, addColumn, createTable, type ProxyTable } from './sql/schema.ts';
import { legacySqliteFile } from './sql/schema-fixtures.test-support.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-db-test-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tables = (db: ReturnType<typeof openProxyDb>) =>
  db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
    .map((row) => row.name);

const recorded = (db: ReturnType<typeof openProxyDb>) =>
  db
    .prepare<[], { name: string }>('SELECT name FROM schema_change ORDER BY name')
    .all()
    .map((row) => row.name);

describe('openProxyDb', () => {
  it('creates the missing folder, uses WAL and foreign keys, and migrates', () => {
    const file = join(tempDir(), 'nested', 'deeper', 'proxy.sqlite');
    const db = openProxyDb(file);
    expect(existsSync(file)).toBe(true);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(10);
    expect(recorded(db)).toEqual(CHANGES.map((change) => change.name).sort());
    expect(tables(db)).toEqual([
      'alert_delivery',
      'alert_seen',
      'alert_state',
      'alert_subscription',
      'api_token',
      'audit_log',
      'bulk_item',
      'bulk_job',
      'carrier_name',
      'inbox_visit',
      'lease',
      'schema_change',
      'sessions',
      'spend_ledger',
      'tender_check',
      'triage_state',
      'vetting_decision',
      'vetting_policy',
      'vetting_standing_change',
    ]);
    db.close();
  });

  it('keeps data and does not re-run steps when reopened', () => {
    const file = join(tempDir(), 'proxy.sqlite');
    const first = openProxyDb(file);
    first.prepare("INSERT INTO sessions VALUES ('h', 'alice', '2026-01-01', '2026-01-02')").run();
    first.close();
    const again = openProxyDb(file);
    expect(migrate(again)).toEqual([]);
    expect(recorded(again)).toEqual(CHANGES.map((change) => change.name).sort());
    expect(again.prepare('SELECT user FROM sessions').all()).toEqual([{ user: 'alice' }]);
    again.close();
  });
});

/** The schema plus `tables`, and `changes` after the proxy's own. */
const extended = (tables: Record<string, ProxyTable>, changes: typeof CHANGES) => ({
  tables: { ...TABLES, ...tables },
  changes: [...CHANGES, ...changes],
});

describe('migrate', () => {
  it('applies only the changes not recorded, in order, each from the definition', () => {
    const db = openProxyDb(join(tempDir(), 'proxy.sqlite'));
    const one = extended({ extra: { columns: { n: { type: 'int' } } } }, [createTable('extra')]);
    expect(migrate(db, one)).toEqual(['create extra']);
    expect(migrate(db, one)).toEqual([]);
    // the definition grows a column and the list a change that adds it
    const two = extended(
      { extra: { columns: { n: { type: 'int' }, m: { type: 'text', default: "'x'" } } } },
      [createTable('extra'), addColumn('extra', 'm')],
    );
    db.prepare('INSERT INTO extra (n) VALUES (7)').run();
    expect(migrate(db, two)).toEqual(['add column extra.m']);
    expect(db.prepare('SELECT n, m FROM extra').all()).toEqual([{ n: 7, m: 'x' }]);
    // a fresh file creates the table as defined now, which counts as adding the column
    const fresh = openProxyDb(join(tempDir(), 'proxy.sqlite'));
    expect(migrate(fresh, two)).toEqual(['create extra']);
    expect(recorded(fresh)).toEqual(expect.arrayContaining(['add column extra.m', 'create extra']));
    fresh.close();
    db.close();
  });

  it('rolls back a failing change and records nothing of it', () => {
    const db = openProxyDb(join(tempDir(), 'proxy.sqlite'));
    const broken = extended(
      {
        half: {
          columns: { n: { type: 'int' } },
          dialectSql: { sqlite: ['INSERT INTO nowhere VALUES (1)'] },
        },
      },
      [createTable('half')],
    );
    expect(() => migrate(db, broken)).toThrow(/nowhere/);
    expect(tables(db)).not.toContain('half');
    expect(recorded(db)).not.toContain('create half');
    expect(migrate(db, SCHEMA)).toEqual([]);
    db.close();
  });
});

describe('add column spend_ledger.state (step 3 of the numbered steps)', () => {
  it('marks the rows of an existing ledger settled', () => {
    const file = join(tempDir(), 'proxy.sqlite');
    const raw = legacySqliteFile(file, 2);
    raw
      .prepare(
        `INSERT INTO spend_ledger (call_id, at, month, day, mode, endpoint, dot, user, cache_hit,
           price_mills) VALUES ('c', '2026-05-01', '2026-05', '2026-05-01', 'live', 'profile', '1',
           'a', 0, 3000)`,
      )
      .run();
    raw.close();
    const db = openProxyDb(file);
    expect(db.prepare('SELECT dot, state FROM spend_ledger').all()).toEqual([
      { dot: '1', state: 'settled' },
    ]);
    expect(() => db.prepare("UPDATE spend_ledger SET state = 'lost'").run()).toThrow(/CHECK/);
    db.close();
  });
});

describe('step 10 of the numbered steps (what PostgreSQL already had)', () => {
  it("keeps a step-9 file's sessions, refuses a NULL session id, and adds the two indexes", () => {
    const file = join(tempDir(), 'proxy.sqlite');
    const raw = legacySqliteFile(file, 9);
    raw.prepare("INSERT INTO sessions VALUES ('h1', 'alice', '2026-05-01', '2026-05-02')").run();
    // accepted before step 10: SQLite's TEXT PRIMARY KEY of a rowid table takes NULL
    raw.prepare("INSERT INTO sessions VALUES (NULL, 'bob', '2026-05-01', '2026-05-02')").run();
    raw.close();
    const db = openProxyDb(file);
    expect(db.prepare('SELECT id_hash, user, expires_at FROM sessions').all()).toEqual([
      { id_hash: 'h1', user: 'alice', expires_at: '2026-05-02' },
    ]);
    expect(() =>
      db.prepare("INSERT INTO sessions VALUES (NULL, 'bob', '2026-05-01', '2026-05-02')").run(),
    ).toThrow(/NOT NULL/);
    const indexes = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all()
      .map((row) => row.name);
    expect(indexes).toEqual(
      expect.arrayContaining(['alert_subscription_user', 'audit_log_at', 'sessions_expiry']),
    );
    db.close();
  });
});
