import { describe, expect, it } from 'vitest';
import { nextSort, sortRows } from './sort.ts';

describe('sortRows', () => {
  const rows = [
    { id: 1, date: '2026-03-01', n: 5 },
    { id: 2, date: undefined, n: 10 },
    { id: 3, date: '2025-12-31', n: 5 },
    { id: 4, date: '2026-11-01', n: undefined },
  ];

  it('sorts strings both ways with missing values last', () => {
    expect(sortRows(rows, (r) => r.date, 'asc').map((r) => r.id)).toEqual([3, 1, 4, 2]);
    expect(sortRows(rows, (r) => r.date, 'desc').map((r) => r.id)).toEqual([4, 1, 3, 2]);
  });

  it('sorts numbers numerically and keeps ties in their original order', () => {
    expect(sortRows(rows, (r) => r.n, 'asc').map((r) => r.id)).toEqual([1, 3, 2, 4]);
    expect(sortRows(rows, (r) => r.n, 'desc').map((r) => r.id)).toEqual([2, 1, 3, 4]);
  });

  it('compares numeric text naturally', () => {
    const levels = ['10', '2', '1'].map((level) => ({ level }));
    expect(sortRows(levels, (r) => r.level, 'asc').map((r) => r.level)).toEqual(['1', '2', '10']);
  });
});

describe('nextSort', () => {
  it('starts a new column in its first direction and flips the same column', () => {
    expect(nextSort(undefined, 'date', 'desc')).toEqual({ columnId: 'date', direction: 'desc' });
    expect(nextSort({ columnId: 'date', direction: 'desc' }, 'date', 'desc')).toEqual({
      columnId: 'date',
      direction: 'asc',
    });
    expect(nextSort({ columnId: 'date', direction: 'asc' }, 'state', 'asc')).toEqual({
      columnId: 'state',
      direction: 'asc',
    });
  });
});
