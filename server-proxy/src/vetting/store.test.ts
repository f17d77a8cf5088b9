/**
 * The decision chain and policy versions on real SQLite files: chaining, verification, tamper
 * detection (a row changed or deleted in the file), append-only triggers, and a writer killed with
 * SIGKILL mid-stream that leaves every committed record and an intact chain.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { applySettingsChange, defaultSettings } from '../../../src/lib/vetting/index.ts';
import { openProxyDb } from '../db.ts';
import { makeTempDir } from '../test-helpers.ts';
import {
  GENESIS_HASH,
  canonicalJson,
  chainHash,
  createVettingStore,
  type DecisionContent,
} from './store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = makeTempDir();
  dirs.push(dir);
  return join(dir, 'proxy.sqlite');
}

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

/** Open the file as an outside party would (no migrations, no triggers dropped yet). */
function raw(file: string): Database.Database {
  return new Database(file);
}

describe('canonicalJson', () => {
  it('sorts keys at every level and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined, b: null }] })).toBe(
      '{"a":[{"b":null,"d":2}],"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });
});

describe('the decision chain', () => {
  it('chains each record to the one before and verifies', () => {
    const db = openProxyDb(tempFile());
    const store = createVettingStore(db);
    expect(store.verifyChain()).toEqual({ ok: true, count: 0 });
    const first = store.appendDecision(content(1));
    const second = store.appendDecision(content(2));
    expect(first.prev_hash).toBe(GENESIS_HASH);
    expect(first.hash).toBe(chainHash(GENESIS_HASH, canonicalJson(content(1))));
    expect(second.prev_hash).toBe(first.hash);
    expect(store.verifyChain()).toEqual({ ok: true, count: 2 });
    expect(store.decision(first.id)).toEqual(first);
    db.close();
  });

  it('refuses UPDATE and DELETE: records are append-only', () => {
    const db = openProxyDb(tempFile());
    const store = createVettingStore(db);
    const record = store.appendDecision(content(1));
    expect(() =>
      db.prepare("UPDATE vetting_decision SET decision = 'approved' WHERE id = ?").run(record.id),
    ).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM vetting_decision').run()).toThrow(/append-only/);
    db.close();
  });

  it('names the first record changed in the SQLite file, whether a column or the hashed content', () => {
    const file = tempFile();
    const db = openProxyDb(file);
    const store = createVettingStore(db);
    const ids = [1, 2, 3, 4].map((n) => store.appendDecision(content(n)).id);
    db.close();

    const outside = raw(file);
    outside.exec(
      'DROP TRIGGER vetting_decision_no_update; DROP TRIGGER vetting_decision_no_delete;',
    );
    outside.prepare("UPDATE vetting_decision SET decision = 'do_not_use' WHERE id = ?").run(ids[2]);
    outside.close();
    const reopened = openProxyDb(file);
    expect(createVettingStore(reopened).verifyChain()).toEqual({
      ok: false,
      count: 4,
      first_bad_id: ids[2],
      problem: 'its columns differ from its hashed content',
    });
    reopened.close();

    const again = raw(file);
    const row = again
      .prepare<[number], { content: string }>('SELECT content FROM vetting_decision WHERE id = ?')
      .get(ids[1] as number);
    again
      .prepare('UPDATE vetting_decision SET content = ? WHERE id = ?')
      .run(row?.content.replace('note 2', 'note 2 (edited)'), ids[1]);
    again.close();
    const third = openProxyDb(file);
    expect(createVettingStore(third).verifyChain()).toMatchObject({
      ok: false,
      first_bad_id: ids[1],
    });
    third.close();
  });

  it('detects a record deleted from the middle of the chain', () => {
    const file = tempFile();
    const db = openProxyDb(file);
    const store = createVettingStore(db);
    const ids = [1, 2, 3].map((n) => store.appendDecision(content(n)).id);
    db.close();
    const outside = raw(file);
    outside.exec('DROP TRIGGER vetting_decision_no_delete;');
    outside.prepare('DELETE FROM vetting_decision WHERE id = ?').run(ids[1]);
    outside.close();
    const reopened = openProxyDb(file);
    expect(createVettingStore(reopened).verifyChain()).toMatchObject({
      ok: false,
      count: 2,
      first_bad_id: ids[2],
      problem: 'its previous hash is not the hash of the record before it',
    });
    reopened.close();
  });

  it('keeps one chain across two connections writing to the same file', () => {
    const file = tempFile();
    const a = createVettingStore(openProxyDb(file));
    const bDb = openProxyDb(file);
    const b = createVettingStore(bDb);
    for (let n = 0; n < 20; n += 1) (n % 2 ? a : b).appendDecision(content(n));
    expect(b.verifyChain()).toEqual({ ok: true, count: 20 });
    bDb.close();
  });

  it('filters and pages the records, newest first', () => {
    const db = openProxyDb(tempFile());
    const store = createVettingStore(db);
    for (let n = 0; n < 7; n += 1) {
      store.appendDecision(content(n, n === 6 ? { user: { id: 'bob', name: 'Bob' } } : {}));
    }
    const all = store.decisions({ page: 1, pageSize: 5 });
    expect(all.total).toBe(7);
    expect(all.items.map((r) => r.id)).toEqual([7, 6, 5, 4, 3]);
    expect(store.decisions({ page: 2, pageSize: 5 }).items.map((r) => r.id)).toEqual([2, 1]);
    expect(store.decisions({ page: 1, pageSize: 50, user: 'bob' }).items.map((r) => r.id)).toEqual([
      7,
    ]);
    expect(store.decisions({ page: 1, pageSize: 50, dot_number: '568253' }).total).toBe(3);
    expect(store.decisions({ page: 1, pageSize: 50, decision: 'approved' }).total).toBe(3);
    const range = store.decisions({ page: 1, pageSize: 50, from: '2026-11-12', to: '2026-11-13' });
    expect(range.items.map((r) => r.decided_at.slice(0, 10)).sort()).toEqual([
      '2026-11-12',
      '2026-11-13',
    ]);
    db.close();
  });
});

describe('policy versions', () => {
  it('starts at the default version 1 and numbers every saved change', () => {
    const file = tempFile();
    const db = openProxyDb(file);
    const store = createVettingStore(db);
    expect(store.currentPolicy()).toMatchObject({
      version: 1,
      settings: defaultSettings(),
      created_at: null,
    });
    const changed = applySettingsChange(defaultSettings(), { new_entrant: { threshold: 365 } });
    if (!changed.ok) throw new Error(changed.error);
    const at = new Date('2026-11-20T10:00:00Z');
    const saved = store.savePolicy({ id: 'alice', name: 'Alice' }, changed.value, 'shorter', at);
    expect(saved).toMatchObject({
      version: 2,
      created_by: 'Alice',
      created_at: at.toISOString(),
      changes: ['New entrant: threshold 540 → 365'],
      note: 'shorter',
    });
    expect(
      store.savePolicy({ id: 'alice', name: 'Alice' }, changed.value, null, at),
    ).toBeUndefined();
    db.close();
    const reopened = createVettingStore(openProxyDb(file));
    expect(reopened.currentPolicy().version).toBe(2);
    expect(reopened.policyVersions().map((v) => v.version)).toEqual([2, 1]);
    expect(reopened.policyVersion(1)?.settings.new_entrant.threshold).toBe(540);
    expect(reopened.policyVersion(2)?.settings.new_entrant.threshold).toBe(365);
    expect(reopened.policyVersion(3)).toBeUndefined();
  });
});

const WRITER = `
import { openProxyDb } from './server-proxy/src/db.ts';
import { createVettingStore } from './server-proxy/src/vetting/store.ts';
const store = createVettingStore(openProxyDb(process.argv.at(-1)));
for (let n = 0; ; n += 1) {
  const r = store.appendDecision({ dot_number: '568253', decision: 'approved', note: 'n' + n,
    conditions: null, expires_on: null, supersedes: null, user: { id: 'w', name: 'w' },
    decided_at: new Date().toISOString(), verdict: { verdict: 'pass' }, policy_version: 1,
    profile: { snapshot_date: '2026-11-16' } });
  process.stdout.write(r.id + '\\n');
}
`;

describe('a writer killed with SIGKILL', () => {
  it('loses no committed record and leaves an intact chain', async () => {
    const file = tempFile();
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
    const store = createVettingStore(openProxyDb(file));
    const check = store.verifyChain();
    expect(check.ok).toBe(true);
    expect(check.count).toBeGreaterThanOrEqual(committed);
  });
});
