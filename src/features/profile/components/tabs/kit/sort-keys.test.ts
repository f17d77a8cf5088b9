import { describe, expect, it } from 'vitest';
import { dateSortKey, idSortKey } from './sort-keys.ts';

describe('dateSortKey', () => {
  it('orders ISO dates as their text does', () => {
    const dates = ['2026-11-15', '2025-01-31', '2026-02-01', '2026-11-05T10:00:00Z', '1999-12-31'];
    const byKey = [...dates].sort((a, b) => (dateSortKey(a) ?? 0) - (dateSortKey(b) ?? 0));
    expect(byKey).toEqual([...dates].sort());
    expect(dateSortKey('2026-11-05T10:00:00Z')).toBe(20261105);
  });

  it('has no key for a missing or unreadable date', () => {
    expect(dateSortKey(undefined)).toBeUndefined();
    expect(dateSortKey(null)).toBeUndefined();
    expect(dateSortKey('15/11/2026')).toBeUndefined();
  });
});

describe('idSortKey', () => {
  it('reads whole-number ids as numbers and keeps other ids', () => {
    expect(idSortKey('5')).toBe(5);
    expect(idSortKey('10')).toBeGreaterThan(idSortKey('9') as number);
    expect(idSortKey('5A')).toBe('5A');
    expect(idSortKey('')).toBeUndefined();
    expect(idSortKey(undefined)).toBeUndefined();
  });
});
