import { describe, expect, it } from 'vitest';
import { searchValue } from '../../../lib/service/rules/profile-search.ts';
import { SEARCH_KEYS } from './search-keys.ts';
import { searchProblem } from './validate-search.ts';

describe('searchProblem', () => {
  it('names what is wrong, in the service’s words', () => {
    expect(searchProblem({ key: 'dot_number', value: '12ab', page: 1 })).toEqual({
      field: 'value',
      message: 'USDOT number: expected a USDOT number of 1 to 8 digits, e.g. 568253.',
    });
    expect(searchProblem({ key: 'vin', value: 'NOT-A-VIN', page: 1 })?.message).toMatch(
      /17 characters/,
    );
    expect(
      searchProblem({ key: 'plate_number', value: 'ABC1234', plateState: 'TEX', page: 1 }),
    ).toMatchObject({ field: 'plateState' });
    expect(searchProblem({ key: 'docket_number', value: 'MC277621', page: 1 })).toBeUndefined();
  });

  it('accepts exactly what the sandbox (and so the proxy) accepts', () => {
    const samples = ['568253', '12ab', 'MC277621', 'x', 'ab', '12-3456789', 'a@b.co', '5626027220'];
    for (const key of SEARCH_KEYS) {
      for (const value of samples) {
        const proxyAccepts = (() => {
          try {
            searchValue(key, value);
            return true;
          } catch {
            return false;
          }
        })();
        expect(searchProblem({ key, value, page: 1 }) === undefined, `${key}=${value}`).toBe(
          proxyAccepts,
        );
      }
    }
  });
});
