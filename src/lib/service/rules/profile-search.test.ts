import { describe, expect, it } from 'vitest';
import { ParamError } from '../param-error.ts';
import { MAX_PAGE_SIZE, parsePaging, parseProfileSearch } from './profile-search.ts';
import type { RawQuery } from './query.ts';

function errorOf(query: RawQuery): ParamError {
  try {
    parseProfileSearch(query);
  } catch (err) {
    if (err instanceof ParamError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(query)} to be rejected`);
}

describe('parseProfileSearch: accepted searches', () => {
  it.each([
    [{ dot_number: '568253' }, { key: 'dot_number', value: '568253' }],
    [{ dot_number: '000568253' }, { key: 'dot_number', value: '568253' }],
    [{ docket_number: 'MC277621' }, { key: 'docket_number', value: 'MC277621' }],
    [{ docket_number: 'mx-12' }, { key: 'docket_number', value: 'mx-12' }],
    [{ docket_number: '277621' }, { key: 'docket_number', value: '277621' }],
    [{ company: ' Hansen ' }, { key: 'company', value: 'Hansen' }],
    [{ ein: '12-3456789' }, { key: 'ein', value: '12-3456789' }],
    [{ ein: '123456789' }, { key: 'ein', value: '123456789' }],
    [{ email: 'dispatch@example.com' }, { key: 'email', value: 'dispatch@example.com' }],
    [{ email: 'example.com' }, { key: 'email', value: 'example.com' }],
    [{ phone: '(555) 123-4567' }, { key: 'phone', value: '(555) 123-4567' }],
    [{ phone: '+1 555 123 4567' }, { key: 'phone', value: '+1 555 123 4567' }],
    [{ address: '12 Main St' }, { key: 'address', value: '12 Main St' }],
    [{ vin: '1FUJGLDR5CLBP8834' }, { key: 'vin', value: '1FUJGLDR5CLBP8834' }],
    [{ plate_number: 'ABC1234' }, { key: 'plate_number', value: 'ABC1234' }],
    [
      { plate_number: 'ABC1234', plate_state: 'tx' },
      { key: 'plate_number', value: 'ABC1234', state: 'TX' },
    ],
    [{ unit_number: 'T-101' }, { key: 'unit_number', value: 'T-101' }],
    [
      { unit_number: 'T-101', unit_type: 'trailer' },
      { key: 'unit_number', value: 'T-101', unitType: 'TRAILER' },
    ],
  ])('%j', (query, expected) => {
    expect(parseProfileSearch(query).query).toMatchObject(expected);
  });

  it('defaults to page 1 and pageSize 100', () => {
    expect(parseProfileSearch({ dot_number: '1' })).toMatchObject({ page: 1, pageSize: 100 });
  });
});

describe('parseProfileSearch: rejected searches carry a specific code', () => {
  it.each([
    [{}, 'missing_search_key'],
    [{ page: '2' }, 'missing_search_key'],
    [{ dot_number: '1', ein: '123456789' }, 'multiple_search_keys'],
    [{ dot_number: '1', foo: 'x' }, 'unknown_parameter'],
    [{ dot_number: ['1', '2'] }, 'duplicate_parameter'],
    [{ dot_number: '' }, 'invalid_dot_number'],
    [{ dot_number: '12a' }, 'invalid_dot_number'],
    [{ dot_number: '0' }, 'invalid_dot_number'],
    [{ dot_number: '123456789' }, 'invalid_dot_number'],
    [{ docket_number: 'XX123' }, 'invalid_docket_number'],
    [{ docket_number: 'MC' }, 'invalid_docket_number'],
    [{ company: 'a' }, 'invalid_company'],
    [{ company: 'ab\u0000c' }, 'invalid_company'],
    [{ ein: '12345678' }, 'invalid_ein'],
    [{ ein: '123-456789' }, 'invalid_ein'],
    [{ email: 'not an email' }, 'invalid_email'],
    [{ phone: '12345' }, 'invalid_phone'],
    [{ phone: 'call me' }, 'invalid_phone'],
    [{ address: 'ab' }, 'invalid_address'],
    [{ vin: '1FUJGLDR5CLBP883' }, 'invalid_vin'],
    [{ vin: '1FUJGLDR5CLBP883O' }, 'invalid_vin'],
    [{ plate_number: 'TOO-LONG-PLATE' }, 'invalid_plate_number'],
    [{ plate_number: 'ABC', plate_state: 'Texas' }, 'invalid_plate_state'],
    [{ dot_number: '1', plate_state: 'TX' }, 'plate_state_without_plate_number'],
    [{ unit_number: '7', unit_type: 'BUS' }, 'invalid_unit_type'],
    [{ dot_number: '1', unit_type: 'TRUCK' }, 'unit_type_without_unit_number'],
    [{ unit_number: '#7' }, 'invalid_unit_number'],
    [{ dot_number: '1', page: '0' }, 'invalid_page'],
    [{ dot_number: '1', page: '1.5' }, 'invalid_page'],
    [{ dot_number: '1', page: '-1' }, 'invalid_page'],
    [{ dot_number: '1', pageSize: '0' }, 'invalid_page_size'],
    [{ dot_number: '1', pageSize: 'ten' }, 'invalid_page_size'],
  ])('%j -> %s', (query, code) => {
    const err = errorOf(query);
    expect(err.status).toBe(400);
    expect(err.code).toBe(code);
    expect(err.hint.length).toBeGreaterThan(5);
  });

  it('names both keys when two are given', () => {
    expect(errorOf({ vin: 'x', company: 'y' }).message).toContain('company, vin');
  });
});

describe('parsePaging', () => {
  it('clamps pageSize above the maximum instead of rejecting it', () => {
    expect(parsePaging({ pageSize: '5000' })).toEqual({ page: 1, pageSize: MAX_PAGE_SIZE });
    expect(parsePaging({ page: '3', pageSize: '7' })).toEqual({ page: 3, pageSize: 7 });
  });
});
