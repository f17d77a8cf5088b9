import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  COMPARE_MAX,
  COMPARE_STORAGE_KEY,
  addToCompare,
  clearSelection,
  compareUrl,
  getSelection,
  parseCompareDots,
  parseStored,
  removeFromCompare,
  setSelection,
  useCompareSelection,
} from './selection.ts';

afterEach(() => {
  clearSelection();
  window.localStorage.clear();
});

describe('parseCompareDots', () => {
  it('normalises, drops junk and duplicates, keeps at most four', () => {
    expect(parseCompareDots('0568253, 2214589,568253,abc,,3187452,4418207,265752')).toEqual({
      dots: ['568253', '2214589', '3187452', '4418207'],
      dropped: ['abc', '265752'],
    });
    expect(parseCompareDots(null)).toEqual({ dots: [], dropped: [] });
    expect(compareUrl(['568253', '2214589'])).toBe('/compare?dot=568253,2214589');
  });

  it('reads a stored value tolerantly', () => {
    expect(parseStored('not json')).toEqual([]);
    expect(parseStored('{"dot":"1"}')).toEqual([]);
    expect(parseStored('[{"dot":"007","name":"A"},{"dot":"7"},{"dot":"x"},5]')).toEqual([
      { dot: '7', name: 'A' },
    ]);
  });
});

describe('the selection store', () => {
  it('adds up to four carriers, refuses a fifth, and persists them', () => {
    expect(addToCompare('568253', 'Hansen')).toBe('added');
    expect(addToCompare('0568253')).toBe('present');
    for (const dot of ['2', '3', '4']) expect(addToCompare(dot)).toBe('added');
    expect(addToCompare('5')).toBe('full');
    expect(addToCompare('nope')).toBe('invalid');
    expect(getSelection()).toHaveLength(COMPARE_MAX);
    expect(JSON.parse(window.localStorage.getItem(COMPARE_STORAGE_KEY) ?? '[]')).toEqual([
      { dot: '568253', name: 'Hansen' },
      { dot: '2' },
      { dot: '3' },
      { dot: '4' },
    ]);
    removeFromCompare('3');
    expect(getSelection().map((e) => e.dot)).toEqual(['568253', '2', '4']);
  });

  it('follows the page’s order and keeps known names', () => {
    addToCompare('1', 'One');
    addToCompare('2', 'Two');
    setSelection(['2', '1', '9']);
    expect(getSelection()).toEqual([
      { dot: '2', name: 'Two' },
      { dot: '1', name: 'One' },
      { dot: '9' },
    ]);
  });

  it('re-renders on changes in this tab and on another tab’s storage event', () => {
    const { result } = renderHook(() => useCompareSelection());
    expect(result.current).toEqual([]);
    act(() => {
      addToCompare('568253');
    });
    expect(result.current.map((e) => e.dot)).toEqual(['568253']);
    // another tab wrote the key: only the storage event tells this one
    act(() => {
      window.localStorage.setItem(COMPARE_STORAGE_KEY, JSON.stringify([{ dot: '2214589' }]));
      window.dispatchEvent(new StorageEvent('storage', { key: COMPARE_STORAGE_KEY }));
    });
    expect(result.current.map((e) => e.dot)).toEqual(['2214589']);
  });
});
