import { describe, expect, it } from 'vitest';
import { parseMonitoringList } from '../service/index.ts';
import { adoptChangeIds, changeId, changeIdsOf, inboxChangesOf } from './change-id.ts';

/** A fresh parse each time: the ids are remembered per parsed profile object. */
function page() {
  return parseMonitoringList({
    total_count: 2,
    items: {
      '568253-MC277621': [
        {
          dot_number: 568253,
          last_changed_date: '2026-09-12',
          legal_name: 'HANSEN',
          legal_name_changed: 'Y',
          telephone_number: '8165550100',
          telephone_number_changed: 'Y',
        },
      ],
      '2214589-MC745120': [
        { dot_number: 2214589, last_changed_date: '2026-09-10', total_power_units: 12 },
      ],
    },
  }).value.profiles;
}

describe('change ids computed off the main thread', () => {
  it('are the ids the page would compute, per profile and in order', () => {
    const profiles = page();
    const ids = changeIdsOf(profiles);
    const own = profiles.map((profile) => inboxChangesOf(profile).map(changeId));
    expect(ids).toEqual(own);
    expect(ids.flat().length).toBeGreaterThan(1);
  });

  it('are used as given once adopted', () => {
    const profiles = page();
    const ids = changeIdsOf(profiles).map((list) => list.map((_, i) => `c1-given${i}`));
    adoptChangeIds(profiles, ids);
    expect(profiles.map((profile) => inboxChangesOf(profile).map((c) => c.id))).toEqual(ids);
  });

  it('are ignored when they do not fit the profiles, which then hash their own', () => {
    const profiles = page();
    const expected = changeIdsOf(profiles);
    adoptChangeIds(profiles, [expected[0] ?? []]);
    const short = page();
    adoptChangeIds(short, [['c1-only-one'], []]);
    expect(profiles.map((profile) => inboxChangesOf(profile).map((c) => c.id))).toEqual(expected);
    expect(short.map((profile) => inboxChangesOf(profile).map((c) => c.id))).toEqual(expected);
  });
});
