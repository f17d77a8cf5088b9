import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers.test-support.ts';
import {
  checkStatements,
  issueCheckpoint,
  issueReceipt,
  recordSignatureProblem,
  signRecord,
  type ChainEntry,
  type ChainReader,
} from './receipts.ts';
import { loadSigningKey } from './signing.ts';

const key = loadSigningKey({ dataDir: makeTempDir() });
const NOW = new Date('2026-11-29T10:00:00Z');

/** A chain held in an array (ids ascending), read the way the store reads the table. */
function arrayChain(entries: ChainEntry[]): ChainReader {
  return {
    async head() {
      return { length: entries.length, head: entries.at(-1) };
    },
    async byId(id) {
      const index = entries.findIndex((e) => e.id === id);
      const entry = entries[index];
      return entry ? { ...entry, position: index + 1 } : undefined;
    },
    async atPosition(position) {
      return entries[position - 1];
    },
  };
}

/** Records hashed as a chain: each hash over the previous one and the record's content. */
function chainOf(contents: string[], firstId = 1): ChainEntry[] {
  let prev = '0'.repeat(64);
  return contents.map((content, i) => {
    prev = createHash('sha256').update(prev).update(content).digest('hex');
    return { id: firstId + i, hash: prev };
  });
}

describe('receipts and checkpoints', () => {
  const original = chainOf(['a', 'b', 'c', 'd', 'e']);

  it('hold while the chain only grows', async () => {
    const receipt = await issueReceipt(key, arrayChain(original), 3, NOW);
    const checkpoint = await issueCheckpoint(key, arrayChain(original), NOW);
    expect(receipt).toMatchObject({ record_id: 3, record_position: 3, chain_length: 5 });
    const grown = [...original, ...chainOf(['f'], 6)];
    const results = await checkStatements(key, arrayChain(grown), [receipt, checkpoint]);
    expect(results.map((r) => r.ok)).toEqual([true, true]);
  });

  it('find truncation, a deleted record and an edit with every later hash recomputed', async () => {
    const receipt = await issueReceipt(key, arrayChain(original), 2, NOW);
    const checkpoint = await issueCheckpoint(key, arrayChain(original), NOW);
    const kept = [receipt, checkpoint];

    const truncated = original.slice(0, 3);
    const [r1, c1] = await checkStatements(key, arrayChain(truncated), kept);
    expect(r1?.problem).toMatch(/holds 3 records; it held 5/);
    expect(c1?.problem).toMatch(/holds 3 records; it held 5/);

    const emptied: ChainEntry[] = [];
    expect((await checkStatements(key, arrayChain(emptied), kept)).every((r) => !r.ok)).toBe(true);

    // record 1 deleted, the rest rehashed and a new one appended so the length is the same again
    const deleted = [...chainOf(['b', 'c', 'd', 'e'], 2), ...chainOf(['z'], 6)];
    const [r2, c2] = await checkStatements(key, arrayChain(deleted), kept);
    expect(r2?.problem).toMatch(/record 2 was changed|position/);
    expect(c2?.problem).toMatch(/not the head/);

    // record 4 edited and 4..5 rehashed: record 2 is as it was, but the head both statements name
    // is not
    const edited = [...original.slice(0, 3), ...chainOf(['a', 'b', 'c', 'D', 'e']).slice(3)];
    const [r3, c3] = await checkStatements(key, arrayChain(edited), kept);
    expect(r3?.problem).toMatch(/not the head/);
    expect(c3?.problem).toMatch(/not the head/);
  });

  it('refuse a statement whose signature does not hold, and answer every index', async () => {
    const receipt = await issueReceipt(key, arrayChain(original), 2, NOW);
    if (!receipt) throw new Error('no receipt');
    const forged = {
      ...receipt,
      payload: receipt.payload.replace('"chain_length":5', '"chain_length":1'),
    };
    const results = await checkStatements(key, arrayChain(original), [forged, 'junk', receipt]);
    expect(results.map((r) => [r.index, r.ok])).toEqual([
      [0, false],
      [1, false],
      [2, true],
    ]);
    expect(results[0]?.problem).toMatch(/signature/);
  });

  it('sign records so an edited hash or a missing signature shows', () => {
    const [record] = original;
    if (!record) throw new Error('no record');
    const signed = signRecord(key, record);
    const stored = { signature: signed.signature, key_id: signed.key_id };
    expect(recordSignatureProblem(key, record, stored)).toBeUndefined();
    expect(recordSignatureProblem(key, { ...record, hash: 'f'.repeat(64) }, stored)).toMatch(
      /does not match/,
    );
    expect(recordSignatureProblem(key, record, { signature: null, key_id: null })).toMatch(
      /not signed/,
    );
  });
});
