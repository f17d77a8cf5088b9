import { expect, it } from 'vitest';
import type { SqlEngine } from './engine.ts';
import { forEachEngine } from './engines.test-support.ts';
import { acquireLease, leaseHolder, newHolderId, releaseLease } from './lease.ts';

forEachEngine('leases', (engine) => {
  const withSql = (fn: (sql: SqlEngine) => Promise<void>) => fn(engine.sql);

  it('goes to one holder at a time, renews for it, and passes on once lapsed', () =>
    withSql(async (sql) => {
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
    withSql(async (sql) => {
      const a = newHolderId('a');
      const b = newHolderId('b');
      expect(await acquireLease(sql, 'poll', a, 60_000, 0)).toBe(true);
      await releaseLease(sql, 'poll', b);
      expect(await leaseHolder(sql, 'poll', 1)).toBe(a);
      await releaseLease(sql, 'poll', a);
      expect(await acquireLease(sql, 'poll', b, 60_000, 2)).toBe(true);
    }));

  it('lets exactly one of many racing holders win', () =>
    withSql(async (sql) => {
      const holders = Array.from({ length: 8 }, (_, i) => newHolderId(`r${i}`));
      const won = await Promise.all(holders.map((h) => acquireLease(sql, 'race', h, 30_000, 5)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await leaseHolder(sql, 'race', 6)).toBe(holders[won.indexOf(true)]);
    }));
});
