import { describe, expect, it } from 'vitest';
import { FMCSA_PROFILE_FIELDS } from '../../../../src/lib/service/index.ts';
import { operatingFirst, toFmcsa } from './fmcsa.ts';

const carrier = (dot: string, usdot_status: string, out_of_service_flag: unknown) => ({
  dot,
  profile: { dot_number: dot, usdot_status, out_of_service_flag },
});

describe('operatingFirst', () => {
  it('puts Active, not out-of-service carriers first and keeps the order within each group', () => {
    const ranked = operatingFirst([
      carrier('1', 'Inactive', true),
      carrier('2', 'Active', true),
      carrier('3', 'ACTIVE', false),
      carrier('4', 'Inactive', false),
      carrier('5', 'Active', false),
    ]);
    expect(ranked.map((match) => match.dot)).toEqual(['3', '5', '1', '2', '4']);
  });
});

describe('toFmcsa', () => {
  it('carries every FMCSA field, null for absent and empty values, and nothing else', () => {
    const out = toFmcsa({ dot_number: '7', legal_name: '', risk_score: 'Low', ein: '123456789' });
    expect(Object.keys(out)).toEqual([...FMCSA_PROFILE_FIELDS]);
    expect(out.dot_number).toBe('7');
    expect(out.legal_name).toBeNull();
    expect(out).not.toHaveProperty('risk_score');
  });

  it('serves a value sent under the live alias bo3_address_city as boc3_address_city', () => {
    expect(toFmcsa({ bo3_address_city: 'OMAHA' }).boc3_address_city).toBe('OMAHA');
  });
});
