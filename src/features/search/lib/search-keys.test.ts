import { describe, expect, it } from 'vitest';
import { detectSearchKey, normaliseSearchValue, type SearchKey } from './search-keys.ts';

describe('detectSearchKey', () => {
  const table: [string, SearchKey, SearchKey[]][] = [
    ['568253', 'dot_number', ['docket_number']],
    [' 7 ', 'dot_number', ['docket_number']],
    ['12345678', 'dot_number', ['docket_number']],
    ['953364174', 'ein', []],
    ['95-3364174', 'ein', []],
    ['MC277621', 'docket_number', []],
    ['mc-277621', 'docket_number', []],
    ['MX 12', 'docket_number', []],
    ['FF012844', 'docket_number', []],
    ['1FUJGLDR5CLBP8834', 'vin', []],
    ['12345678901234567', 'vin', []],
    ['safety@hansenadkins.com', 'email', []],
    ['@hansenadkins.com', 'email', []],
    ['5626027220', 'phone', []],
    ['(562) 602-7220', 'phone', []],
    ['+1 562.602.7220', 'phone', []],
    ['15626027220', 'phone', []],
    ['Hansen', 'company', []],
    ['hansenadkins.com', 'company', []],
    ['1FUJGLDR5CLBP883O', 'company', []], // O is not in the VIN alphabet
    ['MC', 'company', []],
    ['123456789012', 'company', []], // 12 digits: no key's format
    ['25562602722', 'company', []], // 11 digits not starting with 1
  ];

  it.each(table)('%j → %s', (input, key, alternatives) => {
    expect(detectSearchKey(input)).toEqual({ key, alternatives });
  });

  it('returns undefined for blank input', () => {
    expect(detectSearchKey('')).toBeUndefined();
    expect(detectSearchKey('   ')).toBeUndefined();
  });
});

describe('normaliseSearchValue', () => {
  it('trims every value', () => {
    expect(normaliseSearchValue('company', '  Hansen  ')).toBe('Hansen');
  });

  it('compacts and upper-cases dockets', () => {
    expect(normaliseSearchValue('docket_number', ' mc 277621 ')).toBe('MC277621');
    expect(normaliseSearchValue('docket_number', '277621')).toBe('277621');
  });

  it('drops the leading @ of a bare domain', () => {
    expect(normaliseSearchValue('email', '@hansenadkins.com')).toBe('hansenadkins.com');
    expect(normaliseSearchValue('email', 'a@b.com')).toBe('a@b.com');
  });
});
