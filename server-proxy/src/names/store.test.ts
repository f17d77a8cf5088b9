import { beforeEach, expect, it } from 'vitest';
import type { SqlEngine } from '../sql/engine.ts';
import { forEachEngine } from '../sql/engines.test-support.ts';
import { createCarrierNameStore, type CarrierNameStore, type NameSighting } from './store.ts';

const T1 = new Date('2026-11-20T10:00:00.000Z');
const T2 = new Date('2026-11-20T11:00:00.000Z');
const LONG_AGO = new Date('2026-01-01T00:00:00.000Z');

function sighting(dot: string, over: Partial<NameSighting> = {}): NameSighting {
  return { dot, legal: `CARRIER ${dot} LLC`, dba: null, docket: null, source: 'profile', ...over };
}

forEachEngine('carrier name store', (engine) => {
  let sql: SqlEngine;
  let store: CarrierNameStore;

  beforeEach(() => {
    sql = engine.sql;
    store = createCarrierNameStore(sql);
  });

  it('keeps names by DOT and answers only the DOTs it knows', async () => {
    await store.put(
      [
        sighting('4418207', {
          legal: 'SWIFTPATH EXPRESS LLC',
          dba: 'SWIFTPATH',
          docket: 'MC1612093',
        }),
        sighting('568253', { source: 'autocomplete' }),
      ],
      T1,
      LONG_AGO,
    );
    const names = await store.get(['4418207', '568253', '999']);
    expect([...names.keys()].sort()).toEqual(['4418207', '568253']);
    expect(names.get('4418207')).toEqual({
      dot: '4418207',
      legal: 'SWIFTPATH EXPRESS LLC',
      dba: 'SWIFTPATH',
      docket: 'MC1612093',
      source: 'profile',
      seenAt: T1.toISOString(),
    });
    expect(names.get('568253')?.source).toBe('autocomplete');
  });

  it('rewrites a row only when something changed or it is stale', async () => {
    const first = sighting('4418207', { docket: 'MC1612093' });
    expect(await store.put([first], T1, LONG_AGO)).toBe(1);
    // the same again: nothing written, seen_at unchanged
    expect(await store.put([first], T2, LONG_AGO)).toBe(0);
    expect((await store.get(['4418207'])).get('4418207')?.seenAt).toBe(T1.toISOString());
    // an answer that states no docket and no DBA keeps the stored ones: still unchanged
    expect(
      await store.put([{ ...first, docket: null, source: 'autocomplete' }], T2, LONG_AGO),
    ).toBe(0);
    // a new legal name is written, the docket kept
    expect(await store.put([{ ...first, legal: 'NEW NAME LLC', docket: null }], T2, LONG_AGO)).toBe(
      1,
    );
    const renamed = (await store.get(['4418207'])).get('4418207');
    expect(renamed).toMatchObject({
      legal: 'NEW NAME LLC',
      docket: 'MC1612093',
      seenAt: T2.toISOString(),
    });
    // unchanged but older than the refresh cut-off: its seen_at is refreshed
    const T3 = new Date('2026-11-22T00:00:00.000Z');
    expect(await store.put([{ ...first, legal: 'NEW NAME LLC' }], T3, T3)).toBe(1);
    expect((await store.get(['4418207'])).get('4418207')?.seenAt).toBe(T3.toISOString());
  });

  it('a DBA stated as none clears the stored one; a DBA not stated keeps it', async () => {
    await store.put([sighting('1', { dba: 'OLD DBA' })], T1, LONG_AGO);
    await store.put([sighting('1', { dba: null })], T2, LONG_AGO);
    expect((await store.get(['1'])).get('1')?.dba).toBe('OLD DBA');
    expect(await store.put([sighting('1', { dba: '' })], T2, LONG_AGO)).toBe(1);
    expect((await store.get(['1'])).get('1')?.dba).toBeNull();
  });

  it('writes a page of 450 carriers (several statements) in one call, and reads them back', async () => {
    const many = Array.from({ length: 450 }, (_, i) => sighting(String(5_000_000 + i)));
    expect(await store.put(many, T1, LONG_AGO)).toBe(450);
    const names = await store.get(many.map((s) => s.dot));
    expect(names.size).toBe(450);
    expect(names.get('5000449')?.legal).toBe('CARRIER 5000449 LLC');
  });
});
