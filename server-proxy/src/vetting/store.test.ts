/**
 * The decision chain and policy versions on both engines, SQLite (the proxy's file) and PostgreSQL
 * (migration 4), with the same SQL: chaining, verification, tamper detection (a row changed or
 * deleted behind the store's back), the append-only triggers, concurrent appends that keep one
 * chain and concurrent policy saves that keep distinct versions. Then, on SQLite files: two
 * connections writing one file, and a writer killed with SIGKILL mid-stream that leaves every
 * committed record and an intact chain. Both engines through sql/engines.test-support.ts.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  applySettingsChange,
  defaultSettings,
  type PolicySettings,
} from '../../../src/lib/vetting/index.ts';
import { openProxyDb } from '../db.ts';
import type { SqlEngine, SqlExecutor } from '../sql/engine.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { forEachEngine } from '../sql/engines.test-support.ts';
import { makeTempDir } from '../helpers.test-support.ts';
import {
  GENESIS_HASH,
  canonicalJson,
  chainHash,
  PolicyChangedError,
  createVettingSqlStore,
  type DecisionContent,
  type VettingSqlStore,
} from './store.ts';

const ALICE = { id: 'alice', name: 'Alice' };
const BOB = { id: 'bob', name: 'Bob' };

function content(n: number, overrides: Partial<DecisionContent> = {}): DecisionContent {
  return {
    dot_number: String(568253 + (n % 3)),
    decision: n % 2 ? 'approved' : 'rejected',
    note: `note ${n}`,
    conditions: null,
    expires_on: null,
    supersedes: null,
    user: { id: 'alice', name: 'Alice' },
    decided_at: `2026-11-${String(10 + (n % 10)).padStart(2, '0')}T12:00:00.000Z`,
    verdict: { verdict: 'pass', reasons: [{ rule: 'usdot_status', outcome: 'pass' }] },
    policy_version: 1,
    profile: { snapshot_date: '2026-11-16', identity: [{ name: 'legal_name', value: 'X' }] },
    ...overrides,
  };
}

/** Settings changed from the default: the new-entrant threshold set to `days`. */
function withThreshold(days: number): PolicySettings {
  const changed = applySettingsChange(defaultSettings(), { new_entrant: { threshold: days } });
  if (!changed.ok) throw new Error(changed.error);
  return changed.value;
}

/** Let `sql` change the records as someone with the database's password could: triggers off. */
async function disableAppendOnly(sql: SqlEngine): Promise<void> {
  if (sql.kind === 'postgres') {
    await sql.run('ALTER TABLE vetting_decision DISABLE TRIGGER USER');
  } else {
    await sql.run('DROP TRIGGER vetting_decision_no_update');
    await sql.run('DROP TRIGGER vetting_decision_no_delete');
  }
}

describe('canonicalJson', () => {
  it('sorts keys at every level and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined, b: null }] })).toBe(
      '{"a":[{"b":null,"d":2}],"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });
});

forEachEngine('the vetting store', (engine) => {
  let sql: SqlEngine;
  let store: VettingSqlStore;

  beforeEach(() => {
    sql = engine.sql;
    store = createVettingSqlStore(sql);
  });

  it('chains each record to the one before and verifies', async () => {
    expect(await store.verifyChain()).toEqual({ ok: true, count: 0 });
    const first = await store.appendDecision(content(1));
    const second = await store.appendDecision(content(2));
    expect(first.prev_hash).toBe(GENESIS_HASH);
    expect(first.hash).toBe(chainHash(GENESIS_HASH, canonicalJson(content(1))));
    expect(second.prev_hash).toBe(first.hash);
    expect(second.id).toBeGreaterThan(first.id);
    expect(await store.verifyChain()).toEqual({ ok: true, count: 2 });
    expect(await store.decision(first.id)).toEqual(first);
    expect(await store.decision(second.id + 1)).toBeUndefined();
  });

  it('refuses UPDATE and DELETE: records are append-only', async () => {
    const record = await store.appendDecision(content(1));
    await expect(
      sql.run("UPDATE vetting_decision SET decision = 'approved' WHERE id = ?", [record.id]),
    ).rejects.toThrow(/append-only/);
    await expect(sql.run('DELETE FROM vetting_decision')).rejects.toThrow(/append-only/);
    expect(await store.verifyChain()).toEqual({ ok: true, count: 1 });
  });

  it('names the first record changed behind its back, whether a column or the hashed content', async () => {
    const ids: number[] = [];
    for (const n of [1, 2, 3, 4]) ids.push((await store.appendDecision(content(n))).id);
    await disableAppendOnly(sql);
    await sql.run("UPDATE vetting_decision SET decision = 'do_not_use' WHERE id = ?", [ids[2]!]);
    expect(await store.verifyChain()).toEqual({
      ok: false,
      count: 4,
      first_bad_id: ids[2],
      problem: 'its columns differ from its hashed content',
    });

    const [row] = await sql.query<{ content: string }>(
      'SELECT content FROM vetting_decision WHERE id = ?',
      [ids[1]!],
    );
    await sql.run('UPDATE vetting_decision SET content = ? WHERE id = ?', [
      row!.content.replace('note 2', 'note 2 (edited)'),
      ids[1]!,
    ]);
    expect(await store.verifyChain()).toEqual({
      ok: false,
      count: 4,
      first_bad_id: ids[1],
      problem: 'its hash does not match its content',
    });
  });

  it('detects a record deleted from the middle of the chain', async () => {
    const ids: number[] = [];
    for (const n of [1, 2, 3]) ids.push((await store.appendDecision(content(n))).id);
    await disableAppendOnly(sql);
    await sql.run('DELETE FROM vetting_decision WHERE id = ?', [ids[1]!]);
    expect(await store.verifyChain()).toEqual({
      ok: false,
      count: 2,
      first_bad_id: ids[2],
      problem: 'its previous hash is not the hash of the record before it',
    });
  });

  it('verifies a chain longer than one batch of rows', async () => {
    for (let n = 0; n < 1203; n += 1) await store.appendDecision(content(n));
    expect(await store.verifyChain()).toEqual({ ok: true, count: 1203 });
    // a record in the third batch, changed, is found
    await disableAppendOnly(sql);
    await sql.run("UPDATE vetting_decision SET verdict = 'fail' WHERE id = 1100");
    expect(await store.verifyChain()).toMatchObject({ ok: false, count: 1203, first_bad_id: 1100 });
  });

  it('keeps one chain when many appends run at once (PostgreSQL: on several connections)', async () => {
    const records = await Promise.all(
      Array.from({ length: 40 }, (_, n) => store.appendDecision(content(n))),
    );
    expect(await store.verifyChain()).toEqual({ ok: true, count: 40 });
    // one chain: every record follows a different one, in id order
    const byId = [...records].sort((a, b) => a.id - b.id);
    expect(byId[0]?.prev_hash).toBe(GENESIS_HASH);
    for (let i = 1; i < byId.length; i += 1) expect(byId[i]?.prev_hash).toBe(byId[i - 1]?.hash);
    expect(new Set(records.map((r) => r.prev_hash)).size).toBe(40);
  });

  it('filters and pages the records, newest first', async () => {
    for (let n = 0; n < 7; n += 1) {
      await store.appendDecision(content(n, n === 6 ? { user: BOB } : {}));
    }
    const all = await store.decisions({ page: 1, pageSize: 5 });
    expect(all.total).toBe(7);
    expect(all.items.map((r) => r.id)).toEqual([7, 6, 5, 4, 3]);
    expect((await store.decisions({ page: 2, pageSize: 5 })).items.map((r) => r.id)).toEqual([
      2, 1,
    ]);
    const bob = await store.decisions({ page: 1, pageSize: 50, user: 'bob' });
    expect(bob).toMatchObject({ total: 1, items: [{ id: 7, user: BOB }] });
    expect((await store.decisions({ page: 1, pageSize: 50, dot_number: '568253' })).total).toBe(3);
    expect((await store.decisions({ page: 1, pageSize: 50, decision: 'approved' })).total).toBe(3);
    const range = await store.decisions({
      page: 1,
      pageSize: 50,
      from: '2026-11-12',
      to: '2026-11-13',
    });
    expect(range.items.map((r) => r.decided_at.slice(0, 10)).sort()).toEqual([
      '2026-11-12',
      '2026-11-13',
    ]);
    const none = await store.decisions({
      page: 1,
      pageSize: 50,
      user: 'bob',
      decision: 'approved',
    });
    expect(none).toEqual({ items: [], total: 0 });
  });

  it('answers the newest record of each DOT asked for, in the order asked', async () => {
    await store.appendDecision(content(0, { dot_number: '111', decision: 'rejected' }));
    await store.appendDecision(content(1, { dot_number: '222' }));
    const newest = await store.appendDecision(content(2, { dot_number: '111' }));
    const current = await store.currentDecisions(['222', '111', '333', '111']);
    expect(current.map((r) => [r.dot_number, r.id])).toEqual([
      ['222', 2],
      ['111', newest.id],
    ]);
    expect(current[1]).toEqual(newest);
    expect(await store.currentDecisions([])).toEqual([]);
  });

  it('lists the current decisions whose re-vet date has passed or falls within the window', async () => {
    const named = (name: string) => ({
      snapshot_date: '2026-11-16',
      identity: [{ name: 'legal_name', value: name }],
    });
    // 111: overdue, then superseded by a newer record due in 20 days → not due
    await store.appendDecision(content(0, { dot_number: '111', expires_on: '2026-11-01' }));
    await store.appendDecision(content(1, { dot_number: '111', expires_on: '2026-12-19' }));
    // 222: overdue (yesterday); 333: due today; 444: day 14; 555: day 15; 666: no date
    const overdue = await store.appendDecision(
      content(2, { dot_number: '222', expires_on: '2026-11-28', profile: named('Two Co') }),
    );
    const today = await store.appendDecision(
      content(3, { dot_number: '333', expires_on: '2026-11-29', profile: named('Three Co') }),
    );
    const last = await store.appendDecision(
      content(4, { dot_number: '444', expires_on: '2026-12-13' }),
    );
    await store.appendDecision(content(5, { dot_number: '555', expires_on: '2026-12-14' }));
    await store.appendDecision(content(6, { dot_number: '666' }));
    const asOf = new Date('2026-11-29T23:30:00Z');
    const due = await store.revetDue({ asOf });
    expect(due).toEqual([
      {
        id: overdue.id,
        dot_number: '222',
        legal_name: 'Two Co',
        decision: overdue.decision,
        decided_at: overdue.decided_at,
        expires_on: '2026-11-28',
        due: 'overdue',
      },
      {
        id: today.id,
        dot_number: '333',
        legal_name: 'Three Co',
        decision: today.decision,
        decided_at: today.decided_at,
        expires_on: '2026-11-29',
        due: 'soon',
      },
      expect.objectContaining({ id: last.id, dot_number: '444', legal_name: 'X', due: 'soon' }),
    ]);
    // a moved clock: 20 days later 111 and 555 are overdue too, and a narrower window
    const later = await store.revetDue({ asOf: new Date('2026-12-20T00:00:00Z'), withinDays: 0 });
    expect(later.map((r) => [r.dot_number, r.due])).toEqual([
      ['222', 'overdue'],
      ['333', 'overdue'],
      ['444', 'overdue'],
      ['555', 'overdue'],
      ['111', 'overdue'],
    ]);
    expect(await store.revetDue({ asOf: new Date('2026-11-01T00:00:00Z') })).toEqual([]);
  });

  it('starts at the default version 1 and numbers every saved change', async () => {
    expect(await store.currentPolicy()).toMatchObject({
      version: 1,
      settings: defaultSettings(),
      created_at: null,
    });
    expect(await store.policyVersion(1)).toMatchObject({ version: 1, created_at: null });
    const at = new Date('2026-11-20T10:00:00Z');
    const saved = await store.savePolicy(ALICE, withThreshold(365), 'shorter', at);
    expect(saved).toMatchObject({
      version: 2,
      created_by: 'Alice',
      created_at: at.toISOString(),
      changes: ['New entrant: threshold 540 → 365'],
      note: 'shorter',
    });
    expect(await store.savePolicy(ALICE, withThreshold(365), null, at)).toBeUndefined();
    expect(await store.currentPolicy()).toEqual(saved);
    expect((await store.policyVersions()).map((v) => v.version)).toEqual([2, 1]);
    expect((await store.policyVersion(1))?.settings.new_entrant.threshold).toBe(540);
    expect((await store.policyVersion(2))?.settings.new_entrant.threshold).toBe(365);
    expect(await store.policyVersion(3)).toBeUndefined();
  });

  it('gives policy versions saved at once distinct numbers', async () => {
    const at = new Date('2026-11-20T10:00:00Z');
    const saved = await Promise.all(
      [100, 200, 300, 400, 500].map((days) =>
        store.savePolicy(BOB, withThreshold(days), `${days} days`, at),
      ),
    );
    expect(saved.map((v) => v?.version).sort()).toEqual([2, 3, 4, 5, 6]);
    const versions = await store.policyVersions();
    expect(versions.map((v) => v.version)).toEqual([6, 5, 4, 3, 2, 1]);
    // each version states its change from the one before it
    for (const version of versions.slice(0, -1)) expect(version.changes).toHaveLength(1);
  });

  it('writes what a save causes in its transaction: all of it, or nothing', async () => {
    const at = new Date('2026-11-20T10:00:00Z');
    const record = await store.appendDecision(content(1));
    const flag = (tx: SqlExecutor, version: number) =>
      tx.run(
        `INSERT INTO vetting_standing_change (policy_version, dot_number, decision_id,
           standing_before, standing_after, verdict_after, created_at)
         VALUES (?, ?, ?, 'holds', 'now_fails', 'fail', ?)`,
        [version, record.dot_number, record.id, at.toISOString()],
      );
    const flags = async () =>
      Number(
        (
          await sql.query<{ n: number | string }>(
            'SELECT COUNT(*) AS n FROM vetting_standing_change',
          )
        )[0]?.n,
      );
    const saved = await store.savePolicy(ALICE, withThreshold(365), null, at, undefined, {
      basedOn: 1,
      within: (tx, version) => flag(tx, version.version).then(() => undefined),
    });
    expect(saved?.version).toBe(2);
    expect(await flags()).toBe(1);
    // the second write fails: the version is not stored either
    await expect(
      store.savePolicy(ALICE, withThreshold(200), null, at, undefined, {
        basedOn: 2,
        within: async (tx, version) => {
          await flag(tx, version.version);
          throw new Error('the disk is full');
        },
      }),
    ).rejects.toThrow('the disk is full');
    expect((await store.currentPolicy()).version).toBe(2);
    expect(await flags()).toBe(1);
    // worked out against version 1, but version 2 landed first: refused, nothing written
    await expect(
      store.savePolicy(ALICE, withThreshold(100), null, at, undefined, {
        basedOn: 1,
        within: (tx, version) => flag(tx, version.version).then(() => undefined),
      }),
    ).rejects.toBeInstanceOf(PolicyChangedError);
    expect((await store.currentPolicy()).version).toBe(2);
    expect(await flags()).toBe(1);
  });
});

describe('the decision chain in one SQLite file', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function tempFile(): string {
    const dir = makeTempDir();
    dirs.push(dir);
    return join(dir, 'proxy.sqlite');
  }

  it('keeps one chain across two connections writing to the same file', async () => {
    const file = tempFile();
    const aSql = createSqliteEngine(openProxyDb(file), { ownsDatabase: true });
    const bSql = createSqliteEngine(openProxyDb(file), { ownsDatabase: true });
    const a = createVettingSqlStore(aSql);
    const b = createVettingSqlStore(bSql);
    // in turns: in one process, a second connection waiting on the file's lock would block the
    // event loop the first one needs to commit (two processes: the SIGKILL test below)
    for (let n = 0; n < 20; n += 1) await (n % 2 ? a : b).appendDecision(content(n));
    expect(await b.verifyChain()).toEqual({ ok: true, count: 20 });
    expect((await b.currentPolicy()).version).toBe(1);
    await a.savePolicy(ALICE, withThreshold(365), null, new Date());
    expect((await b.currentPolicy()).version).toBe(2);
    await aSql.close();
    await bSql.close();
  });
});

const WRITER = `
import { openProxyDb } from './server-proxy/src/db.ts';
import { createSqliteEngine } from './server-proxy/src/sql/sqlite.ts';
import { createVettingSqlStore } from './server-proxy/src/vetting/store.ts';
const store = createVettingSqlStore(createSqliteEngine(openProxyDb(process.argv.at(-1))));
for (let n = 0; ; n += 1) {
  const r = await store.appendDecision({ dot_number: '568253', decision: 'approved', note: 'n' + n,
    conditions: null, expires_on: null, supersedes: null, user: { id: 'w', name: 'w' },
    decided_at: new Date().toISOString(), verdict: { verdict: 'pass' }, policy_version: 1,
    profile: { snapshot_date: '2026-11-16' } });
  process.stdout.write(r.id + '\\n');
}
`;

describe('a writer killed with SIGKILL', () => {
  it('loses no committed record and leaves an intact chain', async () => {
    const dir = makeTempDir();
    const file = join(dir, 'proxy.sqlite');
    openProxyDb(file).close();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', WRITER, file],
      { cwd: join(import.meta.dirname, '../../..'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let committed = 0;
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const lines = chunk.toString().trim().split('\n');
        committed = Math.max(committed, Number(lines.at(-1)));
        if (committed >= 200) resolve();
      });
      child.on('exit', () => reject(new Error(`writer exited early: ${errors}`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    const sql = createSqliteEngine(openProxyDb(file), { ownsDatabase: true });
    const check = await createVettingSqlStore(sql).verifyChain();
    expect(check.ok).toBe(true);
    expect(check.count).toBeGreaterThanOrEqual(committed);
    await sql.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
