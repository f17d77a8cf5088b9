import { describe, expect, it } from 'vitest';
import { childPath, searchJson } from './json-search.ts';

const DOC = {
  legal_name: 'IRONCLAD FREIGHT',
  inspection_history: [
    { report_number: 'WI123', state: 'WI' },
    { report_number: 'TX9', state: 'TX' },
  ],
  'a/b': { 'x~y': 1 },
};

describe('searchJson', () => {
  it('escapes keys in paths', () => {
    expect(childPath('', 'a/b')).toBe('/a~1b');
    expect(childPath('/a~1b', 'x~y')).toBe('/a~1b/x~0y');
  });

  it('finds keys and values, case-insensitively, with their ancestors visible', () => {
    const result = searchJson(DOC, 'wi');
    expect([...result.matched].sort()).toEqual([
      '/inspection_history/0/report_number',
      '/inspection_history/0/state',
    ]);
    expect(result.visible.has('/inspection_history')).toBe(true);
    expect(result.visible.has('/inspection_history/0')).toBe(true);
    expect(result.visible.has('/inspection_history/1')).toBe(false);
    expect(searchJson(DOC, 'LEGAL').matched).toEqual(new Set(['/legal_name']));
  });

  it('stops at the limit and says so', () => {
    const many = Array.from({ length: 50 }, (_, index) => ({ name: `item ${index}` }));
    const result = searchJson(many, 'item', 10);
    expect(result.matched.size).toBe(10);
    expect(result.truncated).toBe(true);
  });

  it('matches nothing for a blank query', () => {
    expect(searchJson(DOC, '  ').matched.size).toBe(0);
  });
});
