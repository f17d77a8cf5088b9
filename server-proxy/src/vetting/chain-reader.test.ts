/**
 * Receipts against the real table on both engines, with the attacks the issue names done as someone
 * holding the database's password would: triggers off, then truncate, delete, edit and rehash.
 */
import { beforeEach, expect, it } from 'vitest';
import type { SqlEngine } from '../sql/engine.ts';
import { forEachEngine } from '../sql/engines.test-support.ts';
import { makeTempDir } from '../helpers.test-support.ts';
import { sqlChainReader } from './chain-reader.ts';
import { checkStatements, issueCheckpoint, issueReceipt } from './receipts.ts';
import { loadSigningKey } from './signing.ts';
import {
  canonicalJson,
  chainHash,
  createVettingSqlStore,
  type DecisionContent,
  type VettingSqlStore,
} from './store.ts';

const key = loadSigningKey({ dataDir: makeTempDir() });
const NOW = new Date('2026-11-29T10:00:00Z');

function content(n: number): DecisionContent {
  return {
    dot_number: String(568253 + n),
    decision: 'approved',
    note: `note ${n}`,
    conditions: null,
    expires_on: null,
    supersedes: null,
    user: { id: 'alice', name: 'Alice' },
    decided_at: `2026-11-1${n}T12:00:00.000Z`,
    verdict: { verdict: 'pass', reasons: [] },
    policy_version: 1,
    profile: null,
  };
}

async function triggersOff(sql: SqlEngine): Promise<void> {
  if (sql.kind === 'postgres') {
    await sql.run('ALTER TABLE vetting_decision DISABLE TRIGGER USER');
  } else {
    await sql.run('DROP TRIGGER vetting_decision_no_update');
    await sql.run('DROP TRIGGER vetting_decision_no_delete');
  }
}

/** Recompute every hash from record `fromId` on, as a careful forger would. */
async function rehashFrom(sql: SqlEngine, fromId: number): Promise<void> {
  const rows = await sql.query<{ id: number | string; content: string; prev_hash: string }>(
    'SELECT id, content, prev_hash FROM vetting_decision ORDER BY id',
  );
  let prev: string | undefined;
  for (const row of rows) {
    const id = Number(row.id);
    if (id < fromId) {
      const [kept] = await sql.query<{ hash: string }>(
        'SELECT hash FROM vetting_decision WHERE id = ?',
        [id],
      );
      prev = kept?.hash;
      continue;
    }
    const before = prev ?? '0'.repeat(64);
    const hash = chainHash(before, canonicalJson(JSON.parse(row.content) as DecisionContent));
    await sql.run('UPDATE vetting_decision SET prev_hash = ?, hash = ? WHERE id = ?', [
      before,
      hash,
      id,
    ]);
    prev = hash;
  }
}

forEachEngine('decision receipts', (engine) => {
  let sql: SqlEngine;
  let store: VettingSqlStore;
  let kept: unknown[];

  beforeEach(async () => {
    sql = engine.sql;
    store = createVettingSqlStore(sql);
    for (let n = 1; n <= 5; n += 1) await store.appendDecision(content(n));
    const reader = sqlChainReader(sql);
    kept = [await issueReceipt(key, reader, 3, NOW), await issueCheckpoint(key, reader, NOW)];
  });

  const check = () => checkStatements(key, sqlChainReader(sql), kept);

  it('hold while records are only appended', async () => {
    await store.appendDecision(content(6));
    expect((await check()).map((r) => r.ok)).toEqual([true, true]);
    expect(kept[0]).toMatchObject({ record_id: 3, record_position: 3, chain_length: 5 });
  });

  it('find the chain truncated, even to nothing (the chain check alone says ok)', async () => {
    await triggersOff(sql);
    await sql.run('DELETE FROM vetting_decision WHERE id > 2');
    expect(await store.verifyChain()).toMatchObject({ ok: true });
    expect((await check()).map((r) => r.problem)).toEqual([
      expect.stringMatching(/holds 2 records; it held 5/),
      expect.stringMatching(/holds 2 records; it held 5/),
    ]);
    await sql.run('DELETE FROM vetting_decision');
    expect(await store.verifyChain()).toMatchObject({ ok: true, count: 0 });
    expect((await check()).every((r) => !r.ok)).toBe(true);
  });

  it('find one record deleted and the rest rehashed', async () => {
    await triggersOff(sql);
    await sql.run('DELETE FROM vetting_decision WHERE id = 2');
    await rehashFrom(sql, 3);
    await store.appendDecision(content(7));
    expect(await store.verifyChain()).toMatchObject({ ok: true, count: 5 });
    const [receipt, checkpoint] = await check();
    expect(receipt?.problem).toMatch(/record 3 was changed/);
    expect(checkpoint?.problem).toMatch(/not the head/);
  });

  it('find a record edited and every hash after it recomputed', async () => {
    await triggersOff(sql);
    const edited = { ...content(4), decision: 'rejected' };
    await sql.run('UPDATE vetting_decision SET content = ?, decision = ? WHERE id = 4', [
      canonicalJson(edited),
      'rejected',
    ]);
    await rehashFrom(sql, 4);
    expect(await store.verifyChain()).toMatchObject({ ok: true, count: 5 });
    const [receipt, checkpoint] = await check();
    expect(receipt?.problem).toMatch(/not the head/);
    expect(checkpoint?.problem).toMatch(/not the head/);
  });
});
