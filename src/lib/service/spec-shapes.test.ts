import { describe, expect, it } from 'vitest';
import {
  auditProfileParse,
  FMCSA_PROFILE_FIELDS,
  parseAutocomplete,
  parseErrorBody,
  parseFmcsaProfile,
  parseMonitoringList,
  parseMonitoringMutation,
  parseProfile,
  parseProfileResponse,
  UNKNOWN_ERROR,
} from './index.ts';
import { fixtureObject, specShapedProfileResponse } from './fixtures.test-support.ts';

describe('spec-shaped profile responses', () => {
  it('normalise to the same value as the live shape', () => {
    const live = parseProfile(fixtureObject('profile_265752')).value;
    const spec = parseProfileResponse(specShapedProfileResponse());
    expect(spec.issues).toEqual([]);
    expect(spec.value).toEqual({ items: [live], total_count: 1 });
  });

  it('read an empty envelope as no items', () => {
    expect(parseProfileResponse({ items: [], total_count: 0 }).value).toEqual({
      items: [],
      total_count: 0,
    });
  });

  it('read a bare array of profiles', () => {
    const { value } = parseProfileResponse([{ dot_number: 1 }, { dot_number: '2' }]);
    expect(value.items.map((p) => p.dot_number)).toEqual(['1', '2']);
    expect(value.total_count).toBe(2);
  });

  it('keep the total the envelope states, even with one item on the page', () => {
    const { value } = parseProfileResponse({ items: [{ dot_number: '1' }], total_count: '40' });
    expect(value.total_count).toBe(40);
  });
});

describe('value normalisation', () => {
  it('reads every boolean spelling', () => {
    const spellings = [true, 'Y', 'y', 1, 'true', 'TRUE', false, 'N', 0, 'false'];
    const read = spellings.map((flag) => parseProfile({ dba_flag: flag }).value.dba_flag);
    expect(read).toEqual([true, true, true, true, true, true, false, false, false, false]);
  });

  it('keeps a tri-state null distinct from false and from absent', () => {
    const { value } = parseProfile({
      indicator_authority: null,
      indicator_insurance: 'N',
      legal_name: 'X',
    });
    expect(value.indicator_authority).toBeNull();
    expect(value).toHaveProperty('indicator_authority', null);
    expect(value.indicator_insurance).toBe(false);
    expect(value).not.toHaveProperty('indicator_carrier_safety');
  });

  it('reads numbers sent as strings or numbers, with separators', () => {
    const { value, issues } = parseProfile({
      total_drivers: ' 12 ',
      insurance_bipd_on_file: '$1,000,000',
      crashes_total: 7,
      natl_avg_oos_driver: '0.0667',
      basic_percentile_unsafe_driving: 0.72,
    });
    expect(issues).toEqual([]);
    expect(value).toMatchObject({
      total_drivers: 12,
      insurance_bipd_on_file: 1000000,
      crashes_total: 7,
      natl_avg_oos_driver: 0.0667,
      basic_percentile_unsafe_driving: 0.72,
    });
  });

  it('stringifies numeric identifiers and normalises compact dates', () => {
    const { value } = parseProfile({ dot_number: 568253, ein: 341441019, added_date: '19851025' });
    expect(value).toMatchObject({
      dot_number: '568253',
      ein: '341441019',
      added_date: '1985-10-25',
    });
  });

  it('drops and reports what it cannot read, and the audit calls it lost', () => {
    const raw = {
      total_drivers: 'many',
      dba_flag: 'maybe',
      added_date: 'yesterday',
      legal_name: 'X',
    };
    const { value, issues } = parseProfile(raw);
    expect(value).toEqual({ legal_name: 'X', extra: {} });
    expect(issues.map((issue) => issue.path)).toEqual(['total_drivers', 'dba_flag', 'added_date']);
    expect(auditProfileParse(raw).lost).toEqual(['total_drivers', 'dba_flag', 'added_date']);
  });

  it('keeps unknown keys, top-level and nested, in extra', () => {
    const raw = {
      brand_new_field: { a: 1 },
      crash_history: [{ _id: '1', brand_new_crash_field: 'x' }],
    };
    const { value } = parseProfile(raw);
    expect(value.extra).toEqual({ brand_new_field: { a: 1 } });
    expect(value.crash_history).toEqual([{ _id: '1', extra: { brand_new_crash_field: 'x' } }]);
    const audit = auditProfileParse(raw);
    expect(audit.unknown).toEqual(['brand_new_field', 'crash_history[0].brand_new_crash_field']);
    expect(audit.lost).toEqual([]);
  });

  it('prefers boc3_address_city when the live spelling is also sent, keeping the other in extra', () => {
    const raw = { boc3_address_city: 'ALBANY', bo3_address_city: 'NEW YORK' };
    const { value } = parseProfile(raw);
    expect(value.boc3_address_city).toBe('ALBANY');
    expect(value.extra).toEqual({ bo3_address_city: 'NEW YORK' });
    expect(auditProfileParse(raw).lost).toEqual([]);
  });

  it('keeps the first of several risk_factors objects and reports the rest', () => {
    const { value, issues } = parseProfile({
      risk_factors: [{ boc3_on_file: 'Y' }, { boc3_on_file: 'N' }],
    });
    expect(value.risk_factors).toEqual({ boc3_on_file: true, extra: {} });
    expect(issues).toHaveLength(1);
  });

  it('reads a lone object where an array is expected', () => {
    const { value } = parseProfile({
      authority_history: { _id: 'a', original_served_date: '2020-01-02' },
    });
    expect(value.authority_history).toEqual([
      { _id: 'a', original_served_date: '2020-01-02', extra: {} },
    ]);
  });

  it('reads nested inspection vins and violations', () => {
    const { value, issues } = parseProfile({
      inspection_history: [
        {
          report_number: 'TX123',
          viol_total: '2',
          vins: [{ vin: '1FUJ', insp_unit_type_id: 11 }],
          violations: [{ viol_code: '393.9A', oos_indicator: 'Y', severity_weight: '6' }],
        },
      ],
    });
    expect(issues).toEqual([]);
    const inspection = value.inspection_history?.[0];
    expect(inspection?.viol_total).toBe(2);
    expect(inspection?.vins).toEqual([{ vin: '1FUJ', insp_unit_type_id: '11', extra: {} }]);
    expect(inspection?.violations?.[0]).toMatchObject({
      viol_code: '393.9A',
      oos_indicator: true,
      severity_weight: 6,
    });
  });
});

describe('spec-shaped monitoring bodies', () => {
  it('read boolean true, string "true", numeric strings and epoch strings', () => {
    const { value, issues } = parseMonitoringList({
      total_count: '1',
      items: {
        '568253-MC277621': [
          {
            total_power_units_current: '900',
            total_power_units_prior: 897,
            total_power_units_changed: 'true',
            mcs150_date_current: '2026-09-01',
            mcs150_date_prior: null,
            mcs150_date_changed: true,
            started_monitoring_at: '1754006400',
            last_changed_date: '2026-09-12',
          },
        ],
      },
    });
    expect(issues).toEqual([]);
    expect(value.totalCount).toBe(1);
    const record = value.profiles[0]?.records[0];
    expect(record?.changes).toEqual([
      { field: 'total_power_units', current: 900, prior: 897, channel: 'fleet' },
      { field: 'mcs150_date', current: '2026-09-01', prior: null, channel: 'fleet' },
    ]);
    expect(record?.startedMonitoringAt).toBe('2025-08-01T00:00:00.000Z');
    expect(record?.lastChangedDate).toBe('2026-09-12');
  });

  it('read items sent as an array of records carrying profile_id', () => {
    const { value } = parseMonitoringList({
      items: [
        {
          profile_id: '1-MC1',
          legal_name_current: 'B',
          legal_name_prior: 'A',
          legal_name_changed: 1,
        },
        { profile_id: '1-MC1', fax_number_current: '5', fax_number_changed: 'Y' },
      ],
    });
    expect(value.totalCount).toBe(1);
    expect(value.profiles[0]?.records.map((r) => r.changes.map((c) => c.field))).toEqual([
      ['legal_name'],
      ['fax_number'],
    ]);
    expect(value.profiles[0]?.records[0]?.extra).toEqual({ profile_id: '1-MC1' });
  });

  it('read a profile id without docket', () => {
    const { value } = parseMonitoringList({ total_count: 1, items: { '42': [] } });
    expect(value.profiles).toEqual([{ profileId: '42', dot: '42', records: [] }]);
  });

  it('read the 200 add and remove bodies', () => {
    expect(
      parseMonitoringMutation({ status: 'Profiles added or updated successfully', added: '3' })
        .value,
    ).toEqual({
      status: 'Profiles added or updated successfully',
      added: 3,
      failed: [],
      extra: {},
    });
    expect(parseMonitoringMutation({ status: 'ok', removed: 2, error: '' }).value).toEqual({
      status: 'ok',
      removed: 2,
      failed: [],
      extra: {},
    });
  });
});

describe('autocomplete and errors', () => {
  it('reads the {items} wrapper and drops items without a DOT', () => {
    const { value, issues } = parseAutocomplete({
      items: [{ dot_number: 7, legal_name: 'A' }, { legal_name: 'no dot' }],
    });
    expect(value).toEqual([{ dot_number: '7', legal_name: 'A', extra: {} }]);
    expect(issues).toEqual([
      { path: 'items[1].dot_number', message: 'no DOT number; item dropped' },
    ]);
  });

  it('reads error bodies with a hint, a message key, plain text, or nothing', () => {
    expect(parseErrorBody({ error: 'bad', code: 'missing_param', hint: 'add q' }).value).toEqual({
      error: 'bad',
      code: 'missing_param',
      hint: 'add q',
      extra: {},
    });
    expect(parseErrorBody({ message: 'Too many requests' }).value.error).toBe('Too many requests');
    expect(parseErrorBody('Service Unavailable').value.error).toBe('Service Unavailable');
    const empty = parseErrorBody(null);
    expect(empty.value.error).toBe(UNKNOWN_ERROR);
    expect(empty.issues).toHaveLength(1);
  });
});

describe('FMCSA profile', () => {
  const allNull = Object.fromEntries(FMCSA_PROFILE_FIELDS.map((field) => [field, null]));

  it('carries every one of the 236 keys, null where empty', () => {
    const { value, issues } = parseFmcsaProfile({
      ...allNull,
      dot_number: '568253',
      total_drivers: '897',
    });
    expect(issues).toEqual([]);
    expect(value?.dot_number).toBe('568253');
    expect(value?.total_drivers).toBe(897);
    expect(value?.legal_name).toBeNull();
    expect(Object.keys(value ?? {})).toHaveLength(237);
  });

  it('reports missing keys and still sets them to null', () => {
    const { value, issues } = parseFmcsaProfile({ items: [{ dot_number: '1' }] });
    expect(value?.ein).toBeNull();
    expect(issues).toHaveLength(235);
    expect(issues[0]?.path).toBe('items[0].docket_prefix');
  });

  it('reads an error body as no profile', () => {
    const { value, issues } = parseFmcsaProfile({ error: 'not found', code: 'not_found' });
    expect(value).toBeNull();
    expect(issues).toHaveLength(1);
  });
});
