import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  RECENT_LIMIT,
  RECENT_STORAGE_KEY,
  clearRecentCarriers,
  parseRecent,
  readRecentCarriers,
  rememberCarrier,
  useRecentCarriers,
} from './recent.ts';

afterEach(() => localStorage.clear());

describe('recently viewed carriers', () => {
  it('keeps the newest first, once per DOT', () => {
    rememberCarrier({ dot: '1', name: 'ONE' }, new Date('2026-11-01T00:00:00Z'));
    rememberCarrier({ dot: '2', name: 'TWO' }, new Date('2026-11-02T00:00:00Z'));
    rememberCarrier({ dot: '1', name: 'ONE RENAMED' }, new Date('2026-11-03T00:00:00Z'));
    expect(readRecentCarriers()).toEqual([
      { dot: '1', name: 'ONE RENAMED', viewedAt: '2026-11-03T00:00:00.000Z' },
      { dot: '2', name: 'TWO', viewedAt: '2026-11-02T00:00:00.000Z' },
    ]);
  });

  it(`keeps at most ${RECENT_LIMIT}`, () => {
    for (let i = 0; i < RECENT_LIMIT + 3; i += 1)
      rememberCarrier({ dot: String(i), name: `C${i}` });
    const dots = readRecentCarriers().map((c) => c.dot);
    expect(dots).toHaveLength(RECENT_LIMIT);
    expect(dots[0]).toBe(String(RECENT_LIMIT + 2));
    expect(dots).not.toContain('0');
  });

  it('names a carrier without a name by its DOT and ignores a blank DOT', () => {
    rememberCarrier({ dot: ' ', name: 'X' });
    rememberCarrier({ dot: '9', name: '  ' });
    expect(readRecentCarriers().map((c) => c.name)).toEqual(['DOT 9']);
  });

  it('reads damaged storage as an empty list and skips bad entries', () => {
    expect(parseRecent('not json')).toEqual([]);
    expect(parseRecent('{"dot":"1"}')).toEqual([]);
    expect(parseRecent('[{"dot":"1","name":"A","viewedAt":"x"},{"dot":2}]')).toEqual([
      { dot: '1', name: 'A', viewedAt: 'x' },
    ]);
  });

  it('re-renders the hook on changes in this tab and in others', () => {
    function List() {
      return (
        <p>
          {useRecentCarriers()
            .map((c) => c.name)
            .join(',') || 'none'}
        </p>
      );
    }
    render(<List />);
    expect(screen.getByText('none')).toBeDefined();
    act(() => rememberCarrier({ dot: '1', name: 'ALPHA' }));
    expect(screen.getByText('ALPHA')).toBeDefined();
    act(() => {
      const other = JSON.stringify([{ dot: '2', name: 'BETA', viewedAt: 'x' }]);
      localStorage.setItem(RECENT_STORAGE_KEY, other);
      window.dispatchEvent(new StorageEvent('storage', { key: RECENT_STORAGE_KEY }));
    });
    expect(screen.getByText('BETA')).toBeDefined();
    act(() => clearRecentCarriers());
    expect(screen.getByText('none')).toBeDefined();
  });
});
