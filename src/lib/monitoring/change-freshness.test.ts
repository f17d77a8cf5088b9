import { describe, expect, it } from 'vitest';
import { fixture } from '../service/fixtures.test-support.ts';
import { changeOutdates, newestChangeDays, utcDayOf } from './change-freshness.ts';

describe('changeOutdates', () => {
  const fetchedAt = '2026-11-26T14:30:00.000Z';

  it('a change dated after the day of the fetch outdates it; one dated before does not', () => {
    expect(changeOutdates('2026-11-27', { fetchedAt })).toBe(true);
    expect(changeOutdates('2026-11-25', { fetchedAt })).toBe(false);
  });

  it('a change dated the day of the fetch counts (the day alone cannot order them)', () => {
    expect(changeOutdates('2026-11-26', { fetchedAt })).toBe(true);
    expect(changeOutdates('2026-11-26', { fetchedAt: new Date(fetchedAt) })).toBe(true);
  });

  it('data fetched anew after a change holds it and every earlier one', () => {
    const held = { fetchedAt, refreshedAfterChange: '2026-11-26' };
    expect(changeOutdates('2026-11-26', held)).toBe(false);
    expect(changeOutdates('2026-11-27', held)).toBe(true);
  });

  it('a day it cannot read, or a fetch time it cannot read, outdates nothing', () => {
    expect(changeOutdates('20261127', { fetchedAt })).toBe(false);
    expect(changeOutdates('2026-11-27', { fetchedAt: 'never' })).toBe(false);
    expect(utcDayOf('never')).toBeUndefined();
  });
});

describe('newestChangeDays', () => {
  it('reads the live-shape list: flags as true, "Y" or 1, dates as YYYYMMDD', () => {
    expect(newestChangeDays(fixture('monitoring_list'))).toEqual(
      new Map([
        ['818175', '2026-09-12'],
        ['568253', '2026-09-10'],
      ]),
    );
  });

  it('keeps the newest day per DOT and skips records without a change or a date', () => {
    const body = {
      items: {
        '4418207-MC1612093': [
          { authority_common_changed: true, last_changed_date: '20261130' },
          { email_address_changed: 'Y', last_changed_date: '20261204' },
          { phone_changed: false, last_changed_date: '20261210' },
          { fax_changed: true },
        ],
        '1234567': [{ fleet_size_changed: 1, last_changed_date: '2026-12-01' }],
        'not-a-dot': [{ x_changed: true, last_changed_date: '20261201' }],
      },
    };
    expect(newestChangeDays(body)).toEqual(
      new Map([
        ['4418207', '2026-12-04'],
        ['1234567', '2026-12-01'],
      ]),
    );
    expect(newestChangeDays({ error: 'nope' }).size).toBe(0);
    expect(newestChangeDays(null).size).toBe(0);
  });
});
