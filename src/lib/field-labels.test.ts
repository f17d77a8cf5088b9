import { describe, expect, it } from 'vitest';
import {
  fieldInfo,
  fieldLabel,
  formatFieldValue,
  hasFieldLabel,
  humaniseFieldName,
} from './field-labels.ts';
import { BASIC_CATEGORIES, channelOfField } from './service/index.ts';

/** Every field the sandbox records (docs/sandbox-monitoring.md, "Field → channel mapping"). */
const SANDBOX_FIELDS = [
  'indicator_insurance',
  'insurance_bipd_on_file',
  'insurance_cancel_count',
  'insurance_last_canceled',
  'insurance_pending_cancel_date',
  'authority_common',
  'authority_contract',
  'authority_broker',
  'authority_common_last_revocation_date',
  'authority_contract_last_revocation_date',
  'authority_broker_last_revocation_date',
  'indicator_authority',
  'total_revocations',
  'last_revocation_date',
  'usdot_status',
  'safety_rating_desc',
  'safety_rating_date',
  'latest_review_type_desc',
  'latest_review_date',
  'basic_alert_unsafe_driving',
  'basic_percentile_unsafe_driving',
  'indicator_carrier_safety',
  'crashes_total',
  'crashes_tow_away',
  'crash_injuries',
  'last_crash_date',
  'iss_value',
  'total_power_units',
  'total_drivers',
  'mcs150_date',
  'mcs150_year',
  'mcs150_mileage',
  'telephone_number',
  'email_address',
  'physical_address_street',
  'physical_address',
  'risk_score',
  'risk_score_probability',
  'safety_score',
];

describe('field labels', () => {
  it.each(SANDBOX_FIELDS)('%s has its own label and a channel', (field) => {
    expect(hasFieldLabel(field)).toBe(true);
    expect(fieldLabel(field)).not.toContain('_');
    expect(channelOfField(field)).toBeDefined();
  });

  it('gives distinct labels to distinct sandbox fields', () => {
    const labels = SANDBOX_FIELDS.map(fieldLabel);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('names authority and BASIC families by pattern', () => {
    expect(fieldLabel('authority_broker')).toBe('Broker authority');
    expect(fieldLabel('authority_common_last_revocation_date')).toBe(
      'Common authority last revocation',
    );
    expect(fieldLabel('basic_alert_unsafe_driving')).toBe('Unsafe Driving alert');
    expect(fieldInfo('basic_percentile_hours_of_service').kind).toBe('percentile');
  });

  it('names every per-BASIC field by the BASIC, never by the service key or its misspelling', () => {
    const families = [
      'basic_alert_',
      'basic_roadside_alert_',
      'basic_ac_indicator_',
      'basic_percentile_',
      'basic_measure_',
      'intervention_threshold_',
      'violations_',
      'violations_severe_',
      'violations_oos_',
      'inspections_w_violations_',
    ];
    const labels = families.flatMap((prefix) =>
      BASIC_CATEGORIES.map((basic) => fieldLabel(`${prefix}${basic}`)),
    );
    for (const label of labels) {
      expect(label).not.toMatch(/_|maintence|basic /i);
    }
    expect(new Set(labels).size).toBe(labels.length);
    expect(fieldLabel('basic_roadside_alert_vehicle_maintence')).toBe(
      'Vehicle Maintenance roadside alert',
    );
    expect(fieldLabel('intervention_threshold_hours_of_service')).toBe(
      'Hours-of-Service Compliance intervention threshold',
    );
    expect(formatFieldValue('intervention_threshold_unsafe_driving', 0.65)).toBe('65%');
    expect(fieldLabel('violations_oos_driver_fitness')).toBe(
      'Driver Fitness out-of-service violations',
    );
  });

  it('labels the fields a decision record keeps and its rules read', () => {
    for (const field of [
      'dot_number',
      'doc_id',
      'ein',
      'entity_type_desc',
      'carrier_operation_desc',
      'operation_class_authorized_for_hire',
      'dot_age',
      'added_date',
      'authority_age_common_active',
      'authority_age_broker',
      'insurance_cargo_required',
      'insurance_bond_required',
      'inspections_driver_out_of_service_pct',
      'natl_avg_oos_driver',
      'phone_last_changed',
      'address_last_changed',
    ]) {
      expect(hasFieldLabel(field), field).toBe(true);
    }
    expect(formatFieldValue('inspections_driver_out_of_service_pct', 0.211)).toBe('21.1%');
  });

  it('derives a readable label for unknown fields', () => {
    expect(hasFieldLabel('cargo_hazmat_flag')).toBe(false);
    expect(fieldLabel('cargo_hazmat_flag')).toBe('Cargo hazmat flag');
    expect(humaniseFieldName('__')).toBe('__');
  });
});

describe('formatFieldValue', () => {
  it('formats by the field kind', () => {
    expect(formatFieldValue('insurance_bipd_on_file', 750000)).toBe('$750,000');
    expect(formatFieldValue('total_power_units', 1204)).toBe('1,204');
    expect(formatFieldValue('mcs150_date', '2025-08-20')).toBe('20 Aug 2025');
    expect(formatFieldValue('indicator_insurance', false)).toBe('No');
    expect(formatFieldValue('basic_percentile_unsafe_driving', 0.41)).toBe('41%');
    expect(formatFieldValue('risk_score_probability', 8)).toBe('8%');
    expect(formatFieldValue('telephone_number', '5625290199')).toBe('(562) 529-0199');
    expect(formatFieldValue('mcs150_year', 2025)).toBe('2025');
  });

  it('shows missing values as a dash and unexpected types as sent', () => {
    expect(formatFieldValue('insurance_bipd_on_file', null)).toBe('—');
    expect(formatFieldValue('insurance_bipd_on_file', '')).toBe('—');
    expect(formatFieldValue('total_power_units', 'n/a')).toBe('n/a');
    expect(formatFieldValue('unknown_field', { a: 1 })).toBe('{"a":1}');
    expect(formatFieldValue('unknown_field', true)).toBe('true');
  });
});
