/**
 * The triage store on both engines: SQLite (the proxy's file) and PostgreSQL (migration 2), with
 * the same SQL. PostgreSQL's half is skipped, with the reason printed, only where it is not
 * installed.
 */
import { beforeEach, expect, it } from 'vitest';
import type { SqlEngine } from '../sql/engine.ts';
import { forEachEngine } from '../sql/engines.test-support.ts';
import { createTriageStore, type TriageStore } from './store.ts';

const T0 = new Date('2026-09-12T10:00:00.000Z');
const T1 = new Date('2026-09-13T08:30:00.000Z');
const ANA = { id: 'ana', name: 'Ana Ruiz' };
const BO = { id: 'bo', name: 'Bo Chen' };
const P1 = '568253-MC277621';
const P2 = '1234567';

forEachEngine('triage store', (engine) => {
  let sql: SqlEngine;
  let store: TriageStore;

  beforeEach(() => {
    sql = engine.sql;
    store = createTriageStore(sql);
  });

  it('stores decisions per user, with note, author and time, and reads them by id or profile', async () => {
    const stored = await store.put(
      ANA,
      [
        { id: 'c2', profileId: P1, field: 'telephone_number', state: 'escalated' },
        {
          id: 'c1',
          profileId: P1,
          field: 'insurance_bipd_on_file',
          state: 'reviewed',
          note: 'called the insurer',
        },
        { id: 'c3', profileId: P2, field: 'not_a_channel_field', state: 'reviewed' },
      ],
      T0,
    );
    // ordered by profile id, then change id
    expect(stored.map((entry) => entry.id)).toEqual(['c3', 'c1', 'c2']);
    expect(stored[1]).toEqual({
      id: 'c1',
      profile_id: P1,
      field: 'insurance_bipd_on_file',
      channel: 'insurance',
      state: 'reviewed',
      note: 'called the insurer',
      by: 'Ana Ruiz',
      at: T0.toISOString(),
    });
    expect(stored[0]).toMatchObject({ channel: null, note: null });

    expect((await store.byIds('ana', ['c1', 'c3', 'missing'])).map((e) => e.id)).toEqual([
      'c3',
      'c1',
    ]);
    expect((await store.byProfiles('ana', [P1])).map((e) => e.id)).toEqual(['c1', 'c2']);
    expect(await store.byIds('ana', [])).toEqual([]);
    // another user's triage is their own
    expect(await store.byIds('bo', ['c1', 'c2', 'c3'])).toEqual([]);
  });

  it('updates a decision in place, and setting it back to New deletes it with its note', async () => {
    await store.put(
      ANA,
      [{ id: 'c1', profileId: P1, field: 'telephone_number', state: 'reviewed', note: 'ok' }],
      T0,
    );
    const again = await store.put(
      BO,
      [{ id: 'c1', profileId: P1, field: 'telephone_number', state: 'escalated' }],
      T1,
    );
    // the same change triaged by another user: their own row, ANA's untouched
    expect(again).toMatchObject([{ state: 'escalated', note: null, by: 'Bo Chen' }]);
    expect(await store.byIds('ana', ['c1'])).toMatchObject([{ state: 'reviewed', note: 'ok' }]);

    const updated = await store.put(
      ANA,
      [{ id: 'c1', profileId: P1, field: 'telephone_number', state: 'escalated', note: 'no' }],
      T1,
    );
    expect(updated).toMatchObject([{ state: 'escalated', note: 'no', at: T1.toISOString() }]);
    expect(
      await store.put(
        ANA,
        [{ id: 'c1', profileId: P1, field: 'telephone_number', state: 'new' }],
        T1,
      ),
    ).toEqual([]);
    expect(await store.byIds('ana', ['c1'])).toEqual([]);
    expect(await store.byIds('bo', ['c1'])).toHaveLength(1);
  });

  it('applies a batch all or nothing', async () => {
    await store.put(ANA, [{ id: 'c1', profileId: P1, field: 'f', state: 'reviewed' }], T0);
    const bad = store.put(
      ANA,
      [
        { id: 'c1', profileId: P1, field: 'f', state: 'new' },
        { id: 'c2', profileId: P1, field: 'f', state: 'bogus' as 'reviewed' }, // refused by CHECK
      ],
      T1,
    );
    await expect(bad).rejects.toThrow();
    expect((await store.byIds('ana', ['c1', 'c2'])).map((e) => e.id)).toEqual(['c1']);
  });

  it('counts decisions per state and channel', async () => {
    await store.put(
      ANA,
      [
        { id: 'c1', profileId: P1, field: 'insurance_bipd_on_file', state: 'reviewed' },
        { id: 'c2', profileId: P2, field: 'insurance_bipd_on_file', state: 'reviewed' },
        { id: 'c3', profileId: P1, field: 'telephone_number', state: 'escalated' },
        { id: 'c4', profileId: P1, field: 'not_a_channel_field', state: 'escalated' },
      ],
      T0,
    );
    await store.put(BO, [{ id: 'c9', profileId: P1, field: 'f', state: 'reviewed' }], T0);
    const summary = await store.summary('ana');
    expect(summary.total).toEqual({ reviewed: 2, escalated: 2 });
    expect(summary.byChannel.insurance).toEqual({ reviewed: 2, escalated: 0 });
    expect(summary.unmapped).toEqual({ reviewed: 0, escalated: 1 });
    const sum = Object.values(summary.byChannel).reduce((n, c) => n + c.reviewed + c.escalated, 0);
    expect(sum).toBe(3);
    expect((await store.summary('nobody')).total).toEqual({ reviewed: 0, escalated: 0 });
  });

  it('records visits: the last one becomes the previous one', async () => {
    expect(await store.visit('ana')).toEqual({ lastVisitAt: null, previousVisitAt: null });
    expect(await store.recordVisit('ana', T0)).toEqual({
      lastVisitAt: T0.toISOString(),
      previousVisitAt: null,
    });
    expect(await store.recordVisit('ana', T1)).toEqual({
      lastVisitAt: T1.toISOString(),
      previousVisitAt: T0.toISOString(),
    });
    expect(await store.visit('ana')).toEqual({
      lastVisitAt: T1.toISOString(),
      previousVisitAt: T0.toISOString(),
    });
    expect(await store.visit('bo')).toEqual({ lastVisitAt: null, previousVisitAt: null });
  });
});
