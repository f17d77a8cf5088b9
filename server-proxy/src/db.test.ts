import { existsSync, rmSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate, openProxyDb } from './db.ts';

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

describe('openProxyDb', () => {
  it('creates the missing folder, uses WAL and foreign keys, and migrates', () => {
    const file = join(tempDir(), 'nested', 'deeper', 'proxy.sqlite');
    const db = openProxyDb(file);
    expect(existsSync(file)).toBe(true);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(tables(db)).toEqual([
      'alert_delivery',
      'alert_seen',
      'alert_state',
      'alert_subscription',
      'audit_log',
      'bulk_item',
      'bulk_job',
      'carrier_name',
      'inbox_visit',
      'lease',
      'sessions',
      'spend_ledger',
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
    expect(again.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(again.prepare('SELECT user FROM sessions').all()).toEqual([{ user: 'alice' }]);
    again.close();
  });
});

describe('migrate', () => {
  it('applies only the steps past user_version, in order', () => {
    const db = openProxyDb(join(tempDir(), 'proxy.sqlite'));
    const steps = [...MIGRATIONS, 'CREATE TABLE extra (n INTEGER)', 'INSERT INTO extra VALUES (7)'];
    expect(migrate(db, steps)).toBe(MIGRATIONS.length + 2);
    expect(migrate(db, steps)).toBe(MIGRATIONS.length + 2);
    expect(db.prepare('SELECT n FROM extra').all()).toEqual([{ n: 7 }]);
    db.close();
  });

  it('rolls back a failing step and leaves the version before it', () => {
    const db = openProxyDb(join(tempDir(), 'proxy.sqlite'));
    const steps = [...MIGRATIONS, 'CREATE TABLE half (n INTEGER); INSERT INTO nowhere VALUES (1)'];
    expect(() => migrate(db, steps)).toThrow(/nowhere/);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(tables(db)).not.toContain('half');
    db.close();
  });
});

describe('migration 3 (ledger row states)', () => {
  it('marks the rows of an existing ledger settled', () => {
    const file = join(tempDir(), 'proxy.sqlite');
    const raw = new Database(file);
    migrate(raw, MIGRATIONS.slice(0, 2));
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

describe('migration 10 (what PostgreSQL already had)', () => {
  it("keeps a step-9 file's sessions, refuses a NULL session id, and adds the two indexes", () => {
    const file = join(tempDir(), 'proxy.sqlite');
    const raw = new Database(file);
    migrate(raw, MIGRATIONS.slice(0, 9));
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
