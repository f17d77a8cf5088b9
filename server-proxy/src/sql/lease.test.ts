import { afterAll, beforeAll, describe, expect, it, beforeEach } from 'vitest';
import type { SqlEngine } from './engine.ts';
import { acquireLease, leaseHolder, newHolderId, releaseLease } from './lease.ts';
import { storeTestEngines, type TestEngine } from './databases.test-support.ts';

let engines: TestEngine[] = [];
let stop: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  ({ engines, stop } = await storeTestEngines('lease'));
}, 60_000);
afterAll(async () => stop());

describe.each(['sqlite', 'postgres'] as const)('leases on %s', (name) => {
  const withEngine = async (fn: (sql: SqlEngine) => Promise<void>) => {
    const engine = engines.find((e) => e.name === name);
    if (!engine) throw new Error('engines not started');
    if (engine.skip !== undefined) throw new Error(`${name} is not available: ${engine.skip}`);
    const { sql, cleanUp } = await engine.open();
    try {
      await fn(sql);
    } finally {
      await sql.close();
      cleanUp();
    }
  };
  // the runner's own skip, with the reason, so the run reports it (never a silent early return)
  beforeEach((context) => {
    const engine = engines.find((e) => e.name === name);
    if (engine?.skip !== undefined) context.skip(engine.skip);
  });

  it('goes to one holder at a time, renews for it, and passes on once lapsed', () =>
    withEngine(async (sql) => {
      const a = newHolderId('a');
      const b = newHolderId('b');
      expect(a).not.toBe(b);
      expect(await acquireLease(sql, 'job', a, 10_000, 1_000)).toBe(true);
      expect(await acquireLease(sql, 'job', b, 10_000, 2_000)).toBe(false);
      expect(await leaseHolder(sql, 'job', 2_000)).toBe(a);
      // a renews at 9 s: b still cannot take it at 12 s (a's lease now runs to 19 s)
      expect(await acquireLease(sql, 'job', a, 10_000, 9_000)).toBe(true);
      expect(await acquireLease(sql, 'job', b, 10_000, 12_000)).toBe(false);
      // a stops renewing (it died): at 19 s the lease has lapsed and b takes it
      expect(await leaseHolder(sql, 'job', 19_000)).toBeUndefined();
      expect(await acquireLease(sql, 'job', b, 10_000, 19_000)).toBe(true);
      expect(await acquireLease(sql, 'job', a, 10_000, 20_000)).toBe(false);
      // other names are other leases
      expect(await acquireLease(sql, 'other', a, 10_000, 20_000)).toBe(true);
    }));

  it('is free at once when its holder releases it, and not when someone else tries', () =>
    withEngine(async (sql) => {
      const a = newHolderId('a');
      const b = newHolderId('b');
      expect(await acquireLease(sql, 'poll', a, 60_000, 0)).toBe(true);
      await releaseLease(sql, 'poll', b);
      expect(await leaseHolder(sql, 'poll', 1)).toBe(a);
      await releaseLease(sql, 'poll', a);
      expect(await acquireLease(sql, 'poll', b, 60_000, 2)).toBe(true);
    }));

  it('lets exactly one of many racing holders win', () =>
    withEngine(async (sql) => {
      const holders = Array.from({ length: 8 }, (_, i) => newHolderId(`r${i}`));
      const won = await Promise.all(holders.map((h) => acquireLease(sql, 'race', h, 30_000, 5)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await leaseHolder(sql, 'race', 6)).toBe(holders[won.indexOf(true)]);
    }));
});
