import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEARCH_KEYS } from './search-keys.ts';
import {
  RESULTS_PAGE_SIZE,
  profileQueryParams,
  searchFromParams,
  searchPath,
  searchToParams,
  sortFromParams,
  type SearchRequest,
} from './search-params.ts';

const params = (query: string) => new URLSearchParams(query);

describe('search URL ⇄ form state', () => {
  it('reads a key, its value and the page', () => {
    expect(searchFromParams(params('company=hansen&page=2'))).toEqual({
      key: 'company',
      value: 'hansen',
      plateState: undefined,
      unitType: undefined,
      page: 2,
    });
  });

  it('has no search without a non-blank key', () => {
    expect(searchFromParams(params(''))).toBeUndefined();
    expect(searchFromParams(params('company=%20%20&page=3'))).toBeUndefined();
    expect(searchFromParams(params('foo=bar'))).toBeUndefined();
  });

  it('reads plate state and unit type only with their keys', () => {
    expect(searchFromParams(params('plate_number=ABC1&plate_state=tx'))?.plateState).toBe('TX');
    expect(searchFromParams(params('unit_number=101&unit_type=trailer'))?.unitType).toBe('TRAILER');
    expect(searchFromParams(params('unit_number=101&unit_type=boat'))?.unitType).toBeUndefined();
    expect(searchFromParams(params('company=x&plate_state=TX'))?.plateState).toBeUndefined();
  });

  it('falls back to page 1 for unreadable pages', () => {
    for (const page of ['0', '-2', 'two', '1.5', '']) {
      expect(searchFromParams(params(`vin=X&page=${page}`))?.page).toBe(1);
    }
  });

  it('writes page 1 without a page parameter', () => {
    const request: SearchRequest = { key: 'email', value: 'a@b.com', page: 1 };
    expect(searchPath(request)).toBe('/search?email=a%40b.com');
    expect(searchPath({ ...request, page: 3 })).toBe('/search?email=a%40b.com&page=3');
  });

  it('sends the API page and page size', () => {
    expect(profileQueryParams({ key: 'company', value: 'x', page: 2 })).toEqual({
      company: 'x',
      page: 2,
      pageSize: RESULTS_PAGE_SIZE,
    });
  });

  it('round-trips every request through the URL', () => {
    const request = fc.record({
      key: fc.constantFrom(...SEARCH_KEYS),
      value: fc.string({ minLength: 1 }).filter((v) => v.trim() === v && v !== ''),
      page: fc.integer({ min: 1, max: 999_999 }),
      plateState: fc.option(fc.constantFrom('TX', 'ON'), { nil: undefined }),
      unitType: fc.option(fc.constantFrom('TRUCK' as const, 'TRAILER' as const), {
        nil: undefined,
      }),
    });
    fc.assert(
      fc.property(request, (r) => {
        const expected: SearchRequest = {
          ...r,
          plateState: r.key === 'plate_number' ? r.plateState : undefined,
          unitType: r.key === 'unit_number' ? r.unitType : undefined,
        };
        const url = new URLSearchParams(searchToParams(expected).toString());
        expect(searchFromParams(url)).toEqual(expected);
      }),
    );
  });

  it('keeps the sort of a page in the URL, never in the API call', () => {
    const request: SearchRequest = { key: 'company', value: 'inc', page: 2 };
    const url = searchToParams(request, { column: 'risk', desc: true }).toString();
    expect(url).toBe('company=inc&page=2&sort=risk&order=desc');
    expect(sortFromParams(params(url))).toEqual({ column: 'risk', desc: true });
    expect(sortFromParams(params('company=inc&sort=risk'))).toEqual({
      column: 'risk',
      desc: false,
    });
    expect(sortFromParams(params('company=inc&sort=bogus&order=desc'))).toBeUndefined();
    expect(searchFromParams(params(url))).toEqual({
      ...request,
      plateState: undefined,
      unitType: undefined,
    });
    expect(profileQueryParams(request)).not.toHaveProperty('sort');
  });
});
