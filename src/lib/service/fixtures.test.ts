import { describe, expect, it } from 'vitest';
import {
  auditProfileParse,
  parseAutocomplete,
  parseErrorBody,
  parseLiteProfile,
  parseMonitoringList,
  parseMonitoringMutation,
  parseProfile,
  parseProfileResponse,
  PROFILE_FIELDS,
} from './index.ts';
import { fixture, fixtureObject } from './fixtures.test-support.ts';

describe('live full profile (profile_265752)', () => {
  const raw = fixtureObject('profile_265752');
  const { value: profile, issues } = parseProfile(raw);

  it('parses without issues, loss or unknown keys', () => {
    expect(issues).toEqual([]);
    expect(auditProfileParse(raw)).toEqual({ lost: [], unknown: [], issues: [] });
    expect(profile.extra).toEqual({});
  });

  it('knows every one of its 283 top-level keys', () => {
    const known = new Set<string>([...PROFILE_FIELDS, 'bo3_address_city']);
    expect(Object.keys(raw)).toHaveLength(283);
    expect(Object.keys(raw).filter((key) => !known.has(key))).toEqual([]);
  });

  it('unwraps the one-element risk_factors and geo_points arrays', () => {
    expect(Array.isArray(raw.risk_factors)).toBe(true);
    expect(profile.risk_factors?.boc3_on_file).toBe(true);
    expect(profile.risk_factors?.ins_rrg_active).toBe(false);
    expect(profile.geo_points?.physical_address_zip_code).toEqual({ lat: 35.0312, lon: -89.8124 });
    expect(profile.geo_points?.crash_locations).toEqual([
      { lat: 41.527908333333336, lon: -106.95548333333333, date: '2026-08-24' },
      { lat: 34.330068965517235, lon: -117.03577500000003, date: '2026-08-01' },
    ]);
    expect(profile.geo_points).not.toHaveProperty('inspection_locations');
  });

  it('renames bo3_address_city to boc3_address_city', () => {
    expect(profile.boc3_address_city).toBe('NEW YORK');
    expect(profile).not.toHaveProperty('bo3_address_city');
  });

  it('turns counters, dollars, ages and rates into numbers and keeps identifiers as strings', () => {
    expect(profile.total_power_units).toBe(101844);
    expect(profile.insurance_bipd_required).toBe(5000000);
    expect(profile.authority_age_broker).toBe(6735);
    expect(profile.inspections_vehicle_out_of_service_pct).toBe(0.183);
    expect(profile.risk_score_probability).toBeCloseTo(0.4433, 4);
    expect(profile.mcs150_year).toBe(2024);
    expect(profile.dot_number).toBe('265752');
    expect(profile.physical_address_id).toBe('-8508964526328369867');
    expect(profile.boc3_address_zip_code).toBe('10005');
    expect(profile.crash_history?.[0]?.county_code).toBe('007');
    expect(profile.crash_history?.[1]?.report_time).toBe('0255');
    expect(profile.insurance_history?.[0]?.minimum_coverage_amount).toBe(5000);
    expect(profile.basic_history?.[0]?.basic_measure_vehicle_maintence).toBe(3.13);
  });

  it('keeps dates as YYYY-MM-DD and timestamps as sent', () => {
    expect(profile.mcs150_date).toBe('2024-12-30');
    expect(profile.crash_history?.[0]?.changed_date).toBe('2026-08-26T00:00:00');
  });

  it('drops empty strings and empty arrays instead of keeping them', () => {
    expect(profile).not.toHaveProperty('preferred_states');
    expect(profile).not.toHaveProperty('preferred_lanes');
    expect(profile).not.toHaveProperty('network_graph_cellphone_number');
    expect(profile).not.toHaveProperty('inspection_history');
    expect(profile.radius_of_operation).toEqual({
      reported_operation_type: 'interstate',
      reported_pct_drivers_within_100mi: 0.78,
      extra: {},
    });
  });

  it('keeps the tri-state false indicators as false', () => {
    expect(profile.indicator_authority).toBe(false);
    expect(profile.indicator_insurance).toBe(false);
    expect(profile.indicator_carrier_safety).toBe(true);
  });

  it('reads live-only keys into typed fields', () => {
    expect(profile.dba_name).toBe('FEDEX GROUND');
    expect(profile.duns).toBe('119133494');
    expect(profile.biennial_due_date).toBe('2027-02-28');
    expect(profile.biennial_overdue_flag).toBe(false);
    expect(profile.insurance_history?.[0]?.next_renewal_date).toBe('2021-10-01');
    expect(profile.network_graph_duns).toEqual(['3859536']);
  });

  it('reads the bare object as a one-item response', () => {
    expect(parseProfileResponse(raw).value).toEqual({ items: [profile], total_count: 1 });
  });
});

describe('live lite profile (profile_lite_265752)', () => {
  it('parses every key without issues or extras', () => {
    const { value, issues } = parseLiteProfile(fixture('profile_lite_265752'));
    expect(issues).toEqual([]);
    expect(value.extra).toEqual({});
    expect(value.total_drivers).toBe(127917);
    expect(value.risk_factors?.no_active_authority).toBe(true);
    expect(Object.keys(value)).toHaveLength(65);
  });
});

describe('monitoring list (monitoring_list)', () => {
  const { value, issues } = parseMonitoringList(fixture('monitoring_list'));
  const [first, second] = value.profiles;

  it('reads every profile id with its dot and docket', () => {
    expect(issues).toEqual([]);
    expect(value.totalCount).toBe(2);
    expect(value.profiles.map(({ profileId, dot, docket }) => [profileId, dot, docket])).toEqual([
      ['818175-MC277621', '818175', 'MC277621'],
      ['568253-MC277622', '568253', 'MC277622'],
    ]);
  });

  it('accepts true, "Y" and 1 as changed and normalises both sides by field kind', () => {
    expect(first?.records[0]?.changes).toEqual([
      {
        field: 'safety_rating_desc',
        current: 'Satisfactory',
        prior: 'Conditional',
        channel: 'safety',
      },
      { field: 'insurance_bipd_on_file', current: 1000000, prior: 750000, channel: 'insurance' },
    ]);
    expect(second?.records[0]?.changes).toEqual([
      { field: 'authority_common', current: 'INACTIVE', prior: 'ACTIVE', channel: 'authority' },
    ]);
  });

  it('ignores a field whose _changed is false but keeps its values in extra', () => {
    const record = first?.records[1];
    expect(record?.changes).toEqual([]);
    expect(record?.extra).toEqual({
      email_address_current: 'ops@sandboxfreight.example',
      email_address_prior: null,
      email_address_changed: false,
    });
  });

  it('normalises the three record dates', () => {
    expect(first?.records[0]?.lastChangedDate).toBe('2026-09-12');
    expect(first?.records[0]?.startedMonitoringAt).toBe('2025-08-01T00:00:00.000Z');
    expect(first?.records[1]?.lastAcknowledgedAt).toBe('2026-09-01T12:00:00Z');
    expect(second?.records[0]?.lastChangedDate).toBe('2026-09-10');
  });
});

describe('small bodies', () => {
  it('reads a bare autocomplete array with number and string DOTs and a null DBA', () => {
    const { value, issues } = parseAutocomplete(fixture('autocomplete'));
    expect(issues).toEqual([]);
    expect(value.map((item) => item.dot_number)).toEqual(['818175', '2233445']);
    expect(value[1]).not.toHaveProperty('dba_name');
    expect(value[0]?.dba_name).toBe('SANDBOX FREIGHT');
  });

  it('reads the 207 monitoring body with its failed list', () => {
    const { value, issues } = parseMonitoringMutation(fixture('monitoring_add_207'));
    expect(issues).toEqual([]);
    expect(value).toEqual({
      status: 'partial',
      added: 1,
      failed: [{ profileId: '999999-MC000000', error: 'Profile not found' }],
      extra: {},
    });
  });

  it('reads the 404 error body', () => {
    const { value, issues } = parseErrorBody(fixture('error_404'));
    expect(issues).toEqual([]);
    expect(value).toEqual({
      error: 'No carrier matched the supplied identifier',
      code: 'not_found',
      extra: {},
    });
  });
});
