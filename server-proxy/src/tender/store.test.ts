import { beforeEach, expect, it } from 'vitest';
import { forEachEngine } from '../sql/engines.test-support.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { createTenderCheckStore, type NewTenderCheck, type TenderCheckStore } from './store.ts';

const DAY = 86_400_000;
const T0 = new Date('2026-11-02T09:00:00.000Z');

function newCheck(
  over: Partial<NewTenderCheck> & { at?: Date; dot?: string } = {},
): NewTenderCheck {
  const dot = over.dot ?? '568253';
  const at = over.at ?? T0;
  return {
    answer: 'call_back',
    reasons: [
      {
        rule: 'phone_match',
        outcome: 'review',
        text: '(469) 555-0163 is not a number registered for this carrier; Mike "Dispatch" Davis called.',
        evidence: [
          { field: 'input.phone', value: '4695550163', source: 'input', date: null, link: null },
          {
            field: 'input.email',
            value: 'mike@gmail.com',
            source: 'input',
            date: null,
            link: null,
          },
        ],
      },
    ],
    identity: {
      outcome: 'review',
      registered: null,
      call_back: 'Call back on the registered number ((562) 602-7220) before tendering.',
      searches: [
        {
          check: 'phone_search',
          endpoint: 'profile-lite',
          key: 'phone',
          value: '4695550163',
          status: 'billed',
          cost_usd: 0.5,
          fetched_at: at.toISOString(),
          found: [],
          total_count: 1,
        },
      ],
    },
    load_fit: { outcome: 'pass', load_given: false },
    verdict: { verdict: 'pass', policy_version: 1, reasons: [], decision: null },
    pending: [],
    cost_usd: 0.5,
    carrier: { dot_number: dot, legal_name: 'HANSEN & ADKINS AUTO TRANSPORT INC', docket: null },
    snapshot_date: '2026-11-16',
    checked_at: at.toISOString(),
    user: { id: 'ana', name: 'Ana' },
    input: {
      dot_number: dot,
      docket_number: null,
      phone: '4695550163',
      email: 'mike@gmail.com',
      contact_name: 'Mike "Dispatch" Davis',
      load: { cargo_value: 1000 },
      max_cost_usd: 5,
      redacted: false,
    },
    searches_run: [
      {
        endpoint: 'profile-lite',
        key: 'phone',
        value: '4695550163',
        dots: ['3187452'],
        total_count: 1,
      },
    ],
    ...over,
  };
}

forEachEngine('tender check store', (engine) => {
  let sql: SqlEngine;
  let store: TenderCheckStore;

  beforeEach(() => {
    sql = engine.sql;
    store = createTenderCheckStore(sql);
  });

  it('keeps a check as answered and reads it back by id', async () => {
    const { searches_run: _, ...expected } = newCheck();
    const stored = await store.insert(newCheck());
    expect(stored).toEqual({ ...expected, id: stored.id });
    expect(await store.get(stored.id)).toEqual(stored);
    expect(await store.get(stored.id + 100)).toBeUndefined();
  });

  it('lists checks newest first, by carrier, a page at a time, with their decision records', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const dot = i % 2 === 0 ? '568253' : '2214589';
      ids.push((await store.insert(newCheck({ dot, at: new Date(T0.getTime() + i * 1000) }))).id);
    }
    const all = await store.list({ page: 1, pageSize: 2 });
    expect(all.total).toBe(5);
    expect(all.items.map((item) => item.id)).toEqual([ids[4], ids[3]]);
    const page3 = await store.list({ page: 3, pageSize: 2 });
    expect(page3.items.map((item) => item.id)).toEqual([ids[0]]);
    const hansen = await store.list({ dot: '568253', page: 1, pageSize: 50 });
    expect(hansen.total).toBe(3);
    expect(hansen.items.every((item) => item.dot_number === '568253')).toBe(true);
    expect(hansen.items[0]).toMatchObject({
      answer: 'call_back',
      phone: '4695550163',
      email: 'mike@gmail.com',
      cost_usd: 0.5,
      snapshot_date: '2026-11-16',
      pending: 0,
      decision_ids: [],
      user: { id: 'ana', name: 'Ana' },
    });
  });

  it('answers the searches of a month (the free-repeat rule), not those of the month before', async () => {
    await store.insert(newCheck({ at: new Date('2026-10-31T23:00:00.000Z') }));
    expect(await store.searchesIn('2026-11')).toEqual([]);
    await store.insert(newCheck());
    expect(await store.searchesIn('2026-11')).toEqual([
      {
        endpoint: 'profile-lite',
        key: 'phone',
        value: '4695550163',
        dots: ['3187452'],
        total_count: 1,
      },
    ]);
  });

  it('blanks phone, e-mail and contact name of old checks, and scrubs them from the stored answer', async () => {
    const old = await store.insert(newCheck());
    const recent = await store.insert(newCheck({ at: new Date(T0.getTime() + 40 * DAY) }));
    const now = new Date(T0.getTime() + 45 * DAY);
    expect(await store.redactOlderThan(new Date(now.getTime() - 30 * DAY), now)).toBe(1);
    const blanked = await store.get(old.id);
    expect(blanked?.input).toMatchObject({
      phone: null,
      email: null,
      contact_name: null,
      redacted: true,
    });
    const text = JSON.stringify(blanked);
    expect(text).not.toContain('4695550163');
    expect(text).not.toContain('(469) 555-0163');
    expect(text).not.toContain('mike@gmail.com');
    expect(text).not.toContain('Dispatch');
    expect(text).toContain('[removed] is not a number registered');
    // what is not personal stays: the answer, its rules, the registered number to call back
    expect(blanked?.answer).toBe('call_back');
    expect(blanked?.identity.call_back).toContain('(562) 602-7220');
    expect(await store.searchesIn('2026-11')).toContainEqual(
      expect.objectContaining({ value: '[removed]' }),
    );
    const list = await store.list({ page: 1, pageSize: 10 });
    expect(list.items.find((item) => item.id === old.id)).toMatchObject({
      phone: null,
      email: null,
    });
    // the recent one is kept whole, and a second pass changes nothing
    expect((await store.get(recent.id))?.input.phone).toBe('4695550163');
    expect(await store.redactOlderThan(new Date(now.getTime() - 30 * DAY), now)).toBe(0);
  });
});
