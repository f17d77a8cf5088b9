import { describe, expect, it } from 'vitest';
import {
  FMCSA_PROFILE_FIELDS,
  LITE_PROFILE_FIELDS,
  parseFmcsaProfile,
  parseLiteProfile,
  PROFILE_FIELDS,
  PROFILE_SPEC,
  type FieldDef,
} from './index.ts';
import { fixtureObject } from './fixtures.test-support.ts';

describe('lite field list', () => {
  it('is exactly the 64 keys of the live lite profile, in its order', () => {
    expect(LITE_PROFILE_FIELDS).toEqual(Object.keys(fixtureObject('profile_lite_265752')));
    expect(LITE_PROFILE_FIELDS).toHaveLength(64);
  });

  it('is a subset of the full profile whose values agree with the full profile', () => {
    const full = fixtureObject('profile_265752');
    expect(LITE_PROFILE_FIELDS.filter((f) => !PROFILE_FIELDS.includes(f))).toEqual([]);
    const lite = parseLiteProfile(full).value;
    expect(Object.keys(lite.extra).length).toBe(Object.keys(full).length - 64);
  });
});

describe('FMCSA field list', () => {
  it('is exactly 236 unique known profile keys', () => {
    expect(FMCSA_PROFILE_FIELDS).toHaveLength(236);
    expect(new Set(FMCSA_PROFILE_FIELDS).size).toBe(236);
    expect(FMCSA_PROFILE_FIELDS.filter((f) => !PROFILE_FIELDS.includes(f))).toEqual([]);
  });

  it('holds no derived scoring, no computed age and no indicator', () => {
    const derived = [
      /^(risk_|iss_.*_score|safety_score|indicator_|network_graph_|observed_|expected_)/,
      /^(stability|shared_|dot_age|authority_age_|days_since_)/,
      /(_loads|_percentage|^deadheads|_load_date)$/,
    ];
    expect(FMCSA_PROFILE_FIELDS.filter((f) => derived.some((re) => re.test(f)))).toEqual([]);
  });

  it('holds only scalar fields, no nested array or object', () => {
    const nested = FMCSA_PROFILE_FIELDS.filter((f) => {
      const def = PROFILE_SPEC[f] as FieldDef;
      return typeof def !== 'string' || def === 'json';
    });
    expect(nested).toEqual([]);
  });

  it('parses the FMCSA subset of the live profile into all 236 keys', () => {
    const full = fixtureObject('profile_265752');
    const subset = Object.fromEntries(FMCSA_PROFILE_FIELDS.map((f) => [f, full[f] ?? null]));
    const { value, issues } = parseFmcsaProfile({
      ...subset,
      bo3_address_city: full.bo3_address_city,
    });
    expect(issues).toEqual([]);
    expect(value?.boc3_address_city).toBe('NEW YORK');
    expect(value?.insurance_bipd_required).toBe(5000000);
    expect(value?.basic_percentile_unsafe_driving).toBeNull();
    expect(value?.extra).toEqual({});
  });
});
