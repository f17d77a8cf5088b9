import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_DATE, SNAPSHOT_DAY, ageInDays, dateOf, dayOf, daysAgo } from './calendar.ts';

/** The definition the fast path must agree with. */
const parsedDay = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);

const twoDigits = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'));
const isoLike = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), twoDigits, twoDigits)
  .map(([year, month, day]) => `${String(year).padStart(4, '0')}-${month}-${day}`);

describe('dayOf', () => {
  it('agrees with Date.parse on every YYYY-MM-DD shape, impossible dates included', () => {
    fc.assert(
      fc.property(isoLike, (date) => {
        expect(Object.is(dayOf(date), parsedDay(date)), date).toBe(true);
      }),
      { numRuns: 5000 },
    );
    for (const date of ['2024-02-29', '2026-02-29', '2026-02-31', '2026-04-31', '2026-13-01']) {
      expect(Object.is(dayOf(date), parsedDay(date)), date).toBe(true);
    }
  });

  it('falls back to Date.parse for anything else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        expect(Object.is(dayOf(text), parsedDay(text)), text).toBe(true);
      }),
    );
  });
});

describe('dateOf', () => {
  it('formats day numbers as ISO dates and round-trips with dayOf', () => {
    fc.assert(
      fc.property(fc.integer({ min: -20_000, max: 40_000 }), (day) => {
        const date = dateOf(day);
        expect(date).toBe(new Date(day * 86_400_000).toISOString().slice(0, 10));
        expect(dateOf(day)).toBe(date);
        expect(dayOf(date)).toBe(day);
      }),
    );
  });

  it('counts days back from the snapshot', () => {
    expect(dayOf(SNAPSHOT_DATE)).toBe(SNAPSHOT_DAY);
    expect(daysAgo(0)).toBe(SNAPSHOT_DATE);
    expect(daysAgo(16)).toBe('2026-10-31');
    expect(ageInDays('2025-11-16')).toBe(365);
  });
});
