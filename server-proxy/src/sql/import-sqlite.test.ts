/**
 * Importing a single proxy's SQLite file into PostgreSQL: the file is written through the real
 * stores on SQLite, imported into a fresh database on a throwaway PostgreSQL, and read back through
 * the same stores on PostgreSQL. Where PostgreSQL is not installed each test is skipped by the
 * runner with the reason.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkIdentifiers } from '../../../src/lib/service/rules/entries.ts';
import type { BulkEstimate } from '../../../src/lib/bulk/contract.ts';
import { applySettingsChange, defaultSettings } from '../../../src/lib/vetting/index.ts';
import { createAlertStore, type SubscriptionInput } from '../alerts/store.ts';
import { createBulkStore } from '../bulk/store.ts';
import { openProxyDb } from '../db.ts';
import { createAuditTrail } from '../governance/audit.ts';
import { createSpendLedger } from '../governance/spend.ts';
import { makeTempDir } from '../helpers.test-support.ts';
import { createTriageStore } from '../triage/store.ts';
import { loadSigningKey } from '../vetting/signing.ts';
import { createVettingSqlStore, type DecisionContent } from '../vetting/store.ts';
import type { SqlEngine } from './engine.ts';
import { IMPORTED_TABLES, importSqlite, ImportRefusal, NOT_IMPORTED } from './import-sqlite.ts';
import { migratePostgres } from './migrate.ts';
import { legacySqliteFile } from './schema-fixtures.test-support.ts';
import { createPostgresEngine } from './postgres.ts';
import { createSqliteEngine } from './sqlite.ts';
import { usePostgres } from './engines.test-support.ts';

const postgres = usePostgres();

const TSX = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const CLI = fileURLToPath(new URL('./import-sqlite-cli.ts', import.meta.url));

const NOW = new Date();
const ALICE = { id: 'alice', name: 'Alice' };
const BILLED_DOT = '568253';
const WEBHOOK: SubscriptionInput = {
  kind: 'webhook',
  target: 'https://hooks.example.com/in',
  channels: ['insurance'],
  severity: 'all',
  schedule: 'immediate',
  digest_time: null,
  time_zone: null,
};

function decision(n: number): DecisionContent {
  return {
    dot_number: String(2214589 + n),
    decision: n % 2 ? 'approved' : 'rejected',
    note: `note ${n}`,
    conditions: null,
    expires_on: null,
    supersedes: null,
    user: ALICE,
    decided_at: new Date(NOW.getTime() - (10 - n) * 60_000).toISOString(),
    verdict: { verdict: 'pass', reasons: [] },
    policy_version: 2,
    profile: { snapshot_date: '2026-11-16' },
  };
}

const ledger = (sql: SqlEngine) => createSpendLedger(sql, { mode: 'live' });

let dir: string;
let target: ReturnType<typeof createPostgresEngine>;
let targetUrl: string;

beforeEach(async () => {
  dir = makeTempDir();
  targetUrl = await postgres.freshDatabase();
  target = createPostgresEngine(targetUrl);
});

afterEach(async () => {
  await target?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The proxy file written through the real stores on SQLite; answers its path. */
async function populate(extra?: (db: Database.Database) => void): Promise<string> {
  const file = join(dir, 'proxy.sqlite');
  const db = openProxyDb(file);
  const sql = createSqliteEngine(db);
  const triage = createTriageStore(sql);
  await triage.put(
    ALICE,
    [
      { id: 'c1', profileId: '568253-MC1', field: 'indicator_insurance', state: 'reviewed' },
      {
        id: 'c2',
        profileId: '568253-MC1',
        field: 'phone',
        state: 'escalated',
        note: 'call them',
      },
    ],
    NOW,
  );
  await triage.recordVisit('alice', NOW);
  const vetting = createVettingSqlStore(sql);
  const changed = applySettingsChange(defaultSettings(), { new_entrant: { threshold: 200 } });
  if (!changed.ok) throw new Error(changed.error);
  await vetting.savePolicy(ALICE, changed.value, 'stricter', NOW);
  const again = applySettingsChange(changed.value, { new_entrant: { threshold: 300 } });
  if (!again.ok) throw new Error(again.error);
  await vetting.savePolicy(ALICE, again.value, 'stricter still', NOW);
  for (const n of [1, 2, 3]) await vetting.appendDecision(decision(n));
  const spend = ledger(sql);
  await spend.record({
    endpoint: 'profile',
    dots: [BILLED_DOT],
    at: NOW,
    user: 'alice',
    cacheHit: false,
  });
  await spend.record({
    endpoint: 'profile',
    dots: [BILLED_DOT],
    at: NOW,
    user: 'bob',
    cacheHit: true,
  });
  await spend.record({
    endpoint: 'profile',
    dots: ['2214589'],
    at: NOW,
    user: 'bob',
    cacheHit: false,
  });
  await spend.flush();
  const audit = createAuditTrail(db, sql);
  for (let i = 0; i < 5; i += 1) {
    audit.record({
      at: new Date(NOW.getTime() + i),
      user: 'alice',
      method: 'GET',
      endpoint: 'profile',
      dot: BILLED_DOT,
      cacheHit: false,
      billable: true,
      status: 200,
    });
  }
  await audit.flush();
  const alerts = createAlertStore(sql);
  await alerts.createSubscription('alice', WEBHOOK, NOW);
  await alerts.state.set('last_poll_at', NOW.toISOString());
  const bulk = createBulkStore(sql);
  const { valid } = checkIdentifiers(['568253', 'MC-277621', '2214589']);
  await bulk.create({
    identifiers: valid,
    estimate: { carriers: 3 } as BulkEstimate,
    user: 'alice',
    at: NOW,
  });
  extra?.(db);
  await sql.close();
  db.close();
  return file;
}

async function rowCounts(sql: SqlEngine): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of IMPORTED_TABLES) {
    const [row] = await sql.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${table}`);
    counts[table] = Number(row?.n);
  }
  return counts;
}

const allEmpty = Object.fromEntries(IMPORTED_TABLES.map((t) => [t, 0]));

describe('importing a SQLite proxy file into PostgreSQL', () => {
  it('copies the team state, which the PostgreSQL stores read as SQLite did', async () => {
    const file = await populate();
    const source = new Database(file, { readonly: true });
    const sourceSql = createSqliteEngine(source);
    const sourceDecisions = await createVettingSqlStore(sourceSql).decisions({
      page: 1,
      pageSize: 50,
    });
    const sourceSpent = await ledger(sourceSql).spentMills(NOW);
    const sourceTriage = await createTriageStore(sourceSql).byProfiles('alice', ['568253-MC1']);
    const sourceVisit = await createTriageStore(sourceSql).visit('alice');
    await sourceSql.close();
    source.close();

    const digest = () => createHash('sha256').update(readFileSync(file)).digest('hex');
    const before = digest();
    const report = await importSqlite(file, target);
    expect(digest()).toBe(before);
    const copied = Object.fromEntries(report.tables.map((t) => [t.table, t.rows]));
    expect(copied).toMatchObject({
      vetting_policy: 2,
      vetting_decision: 3,
      triage_state: 2,
      inbox_visit: 1,
      spend_ledger: 3,
      audit_log: 5,
      alert_subscription: 1,
      alert_state: 1,
      bulk_job: 1,
      bulk_item: 3,
    });
    expect(report.total).toBe(Object.values(copied).reduce((a, b) => a + b, 0));
    expect(report.chain).toEqual({ ok: true, count: 3 });

    const triage = createTriageStore(target);
    expect(await triage.byProfiles('alice', ['568253-MC1'])).toEqual(sourceTriage);
    expect(await triage.visit('alice')).toEqual(sourceVisit);

    const vetting = createVettingSqlStore(target);
    expect(await vetting.verifyChain()).toEqual({ ok: true, count: 3 });
    expect(await vetting.decisions({ page: 1, pageSize: 50 })).toEqual(sourceDecisions);
    expect((await vetting.currentPolicy()).version).toBe(3);

    const spend = ledger(target);
    expect(await spend.spentMills(NOW)).toBe(sourceSpent);
    expect(sourceSpent).toBeGreaterThan(0);
    const quote = await spend.estimate('profile', { dots: [BILLED_DOT, '4418207'] }, NOW);
    expect(quote).toMatchObject({ units: 2, billableUnits: 1 });
    expect(await spend.check({ endpoint: 'profile', dots: [BILLED_DOT], at: NOW })).toEqual({
      ok: true,
      costUsd: 0,
    });

    const auditDb = new Database(':memory:');
    const audit = await createAuditTrail(auditDb, target).query({ page: 1, pageSize: 10 });
    auditDb.close();
    expect(audit.total_count).toBe(5);
    expect(audit.items[0]).toMatchObject({ id: 5, user: 'alice', dot: BILLED_DOT, billable: true });

    const alerts = createAlertStore(target);
    expect(await alerts.subscription(1)).toMatchObject({ user: 'alice', target: WEBHOOK.target });
    expect(await alerts.state.get('last_poll_at')).toBe(NOW.toISOString());
    const bulk = createBulkStore(target);
    const [job] = await bulk.jobs();
    expect(job).toMatchObject({ status: 'queued', total: 3 });
    expect(await bulk.items(Number(job?.seq), { offset: 0, limit: 10 })).toHaveLength(3);

    // written after the import: fresh ids past the imported ones, the chain continues
    const fourth = await vetting.appendDecision(decision(4));
    expect(fourth.id).toBe(4);
    expect(fourth.prev_hash).toBe(sourceDecisions.items[0]?.hash);
    expect(await vetting.verifyChain()).toEqual({ ok: true, count: 4 });
    const sub = await alerts.createSubscription('bob', WEBHOOK, NOW);
    expect(sub.id).toBe(2);
    const { valid } = checkIdentifiers(['568253']);
    const second = await bulk.create({
      identifiers: valid,
      estimate: { carriers: 1 } as BulkEstimate,
      user: 'bob',
      at: NOW,
    });
    expect(second.seq).toBe(2);
    await spend.record({
      endpoint: 'profile',
      dots: ['4418207'],
      at: NOW,
      user: 'bob',
      cacheHit: false,
    });
    await spend.flush();
    const [ids] = await target.query<{ n: string; distinct_ids: string; top: string }>(
      'SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS distinct_ids, MAX(id) AS top FROM spend_ledger',
    );
    expect(ids).toEqual({ n: '4', distinct_ids: '4', top: '4' });
  });

  it('decides about every table PostgreSQL has: imported, or left out with a reason', async () => {
    // a table added by a later migration must be put in one list or the other
    await importSqlite(await populate(), target, { dryRun: true });
    const tables = await target.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    const decided = [...IMPORTED_TABLES, ...Object.keys(NOT_IMPORTED)].sort();
    expect(tables.map((row) => row.table_name).sort()).toEqual(decided);
  });

  it('copies a broken decision chain verbatim and reports where it breaks', async () => {
    const file = await populate((db) => {
      // someone with the file edited the second record's note behind the store's back
      db.exec('DROP TRIGGER vetting_decision_no_update');
      db.prepare(
        "UPDATE vetting_decision SET content = replace(content, 'note 2', 'note X') WHERE id = 2",
      ).run();
    });
    const report = await importSqlite(file, target);
    expect(report.chain).toMatchObject({ ok: false, count: 3, first_bad_id: 2 });
    expect(report.chain.problem).toMatch(/hash does not match its content/);
    expect(await createVettingSqlStore(target).verifyChain()).toEqual(report.chain);
  });

  it("keeps each record's signature: it holds under the single proxy's key, not under another", async () => {
    // the single proxy signed its records with the key it made in its DATA_DIR
    const key = loadSigningKey({ dataDir: dir });
    const file = join(dir, 'proxy.sqlite');
    const db = openProxyDb(file);
    const sql = createSqliteEngine(db);
    const store = createVettingSqlStore(sql, key);
    for (const n of [1, 2, 3]) await store.appendDecision(decision(n));
    await sql.close();
    db.close();

    await importSqlite(file, target);
    // the replicas given a copy of that key (DECISION_SIGNING_KEY_FILE): every signature holds
    expect(await createVettingSqlStore(target, key).verifyChain()).toMatchObject({
      ok: true,
      count: 3,
      signed: 3,
    });
    // replicas with a key of their own: the first signed record is named
    const other = loadSigningKey({ dataDir: makeTempDir() });
    expect(await createVettingSqlStore(target, other).verifyChain()).toMatchObject({
      ok: false,
      first_bad_id: 1,
      problem: `its signature does not hold: signed with key ${key.id}, not this proxy's ${other.id}`,
    });
  });

  it('keeps ids SQLite issued unused, even those of rows deleted since', async () => {
    const file = await populate((db) => {
      db.prepare('DELETE FROM audit_log WHERE id = (SELECT MAX(id) FROM audit_log)').run();
    });
    await importSqlite(file, target);
    const [row] = await target.query<{ id: string }>(
      `INSERT INTO audit_log (at, "user", method, endpoint, cache_hit, billable, status)
       VALUES (?, 'bob', 'GET', 'profile', 0, 1, 200) RETURNING id`,
      [NOW.toISOString()],
    );
    expect(Number(row?.id)).toBe(6);
  });

  it('refuses a target that already holds rows, naming the table, and copies nothing', async () => {
    const file = await populate();
    await migratePostgres(target.pool);
    await createTriageStore(target).put(
      ALICE,
      [{ id: 'x', profileId: '1-MC1', field: 'phone', state: 'reviewed' }],
      NOW,
    );
    const error = await importSqlite(file, target).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ImportRefusal);
    expect((error as Error).message).toMatch(/triage_state \(1\)/);
    expect(await rowCounts(target)).toEqual({ ...allEmpty, triage_state: 1 });
  });

  it('prints the counts on a dry run and copies nothing', async () => {
    const file = await populate();
    const report = await importSqlite(file, target, { dryRun: true });
    expect(report.dryRun).toBe(true);
    expect(report.tables.find((t) => t.table === 'vetting_decision')?.rows).toBe(3);
    expect(report.chain).toEqual({ ok: true, count: 3 });
    expect(await rowCounts(target)).toEqual(allEmpty);
  });

  it('leaves every table empty when a row fails half-way', async () => {
    const file = await populate((db) => {
      // a value SQLite's CHECK would refuse, as a damaged or hand-edited file might hold
      db.pragma('ignore_check_constraints = ON');
      db.prepare(
        `INSERT INTO triage_state (user, change_id, profile_id, field, state, user_name, updated_at)
         VALUES ('alice', 'bad', '1-MC1', 'phone', 'archived', 'Alice', ?)`,
      ).run(NOW.toISOString());
    });
    await expect(importSqlite(file, target)).rejects.toThrow(/triage_state/);
    expect(await rowCounts(target)).toEqual(allEmpty);
  });

  it('refuses a missing file, a file that is not a proxy database, an older or newer schema', async () => {
    await expect(importSqlite(join(dir, 'nope.sqlite'), target)).rejects.toThrow(
      /no file at .*nope\.sqlite/,
    );
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not a database, just text\n'.repeat(100));
    await expect(importSqlite(text, target)).rejects.toThrow(/is not a SQLite database/);
    const other = join(dir, 'other.sqlite');
    const otherDb = new Database(other);
    otherDb.exec('CREATE TABLE t (x INTEGER)');
    otherDb.close();
    await expect(importSqlite(other, target)).rejects.toThrow(/not a carrier-desk proxy database/);
    // a file made by an older version (the fifth of the numbered steps before schema.ts)
    const older = join(dir, 'older.sqlite');
    legacySqliteFile(older, 5).close();
    await expect(importSqlite(older, target)).rejects.toThrow(
      /lacks 15 schema change\(s\) this code expects \(create alert_seen, .*, create api_token, create tender_check, add column vetting_decision.tender_check_id\): start the proxy once on this file without DATABASE_URL/,
    );
    const file = await populate();
    const newer = new Database(file);
    newer
      .prepare("INSERT INTO schema_change (name, applied_at) VALUES ('create tomorrow', 'x')")
      .run();
    newer.close();
    await expect(importSqlite(file, target)).rejects.toThrow(
      /does not know \(create tomorrow\): import with the carrier-desk version that wrote it/,
    );
  });

  it('refuses when PostgreSQL requires a column the file lacks', async () => {
    const file = await populate();
    await migratePostgres(target.pool);
    await target.run('ALTER TABLE audit_log ADD COLUMN tenant TEXT NOT NULL');
    await expect(importSqlite(file, target)).rejects.toThrow(
      /audit_log requires column\(s\) tenant/,
    );
    expect(await rowCounts(target)).toEqual(allEmpty);
  });

  it('runs as a command: output, exit codes, and never the URL or its password', async () => {
    const file = await populate();
    const url = new URL(targetUrl);
    url.password = 'pw-Secret-123';
    const withPassword = url.toString();
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(TSX, [CLI, ...args], {
          env: { PATH: process.env.PATH ?? '', DATABASE_URL: withPassword },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('exit', (code) => resolve({ code, out }));
      });

    const dry = await run(['--from', file, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toMatch(/^vetting_decision +would copy 3 rows$/m);
    expect(dry.out).toMatch(/dry run: nothing was copied/);

    const done = await run(['--from', file]);
    expect(done.code).toBe(0);
    expect(done.out).toMatch(/^vetting_decision +copied 3 rows$/m);
    expect(done.out).toMatch(/^inbox_visit +copied 1 row$/m); // alice's one visit
    expect(done.out).toMatch(/^total +copied \d+ rows$/m);
    expect(done.out).toMatch(/^sessions +not copied/m);
    expect(done.out).toMatch(/decision chain in PostgreSQL: intact, 3 records/);

    const again = await run(['--from', file]);
    expect(again.code).toBe(1);
    expect(again.out.trim().split('\n')).toHaveLength(1);
    expect(again.out).toMatch(/already holds rows in vetting_policy \(2\), vetting_decision \(3\)/);

    const missing = await run(['--from', join(dir, 'nope.sqlite')]);
    expect(missing.code).toBe(1);
    expect(missing.out).not.toMatch(/\bat .*\.ts:\d+/);

    for (const output of [dry.out, done.out, again.out, missing.out]) {
      expect(output).not.toContain('pw-Secret-123');
      expect(output).not.toContain(withPassword);
    }
  }, 60_000);
});
