/**
 * The key identity, authority, insurance and safety fields a decision record keeps of the profile
 * it was made on, as `{name, value}` pairs (absent → null), so the record reads on its own later.
 */
import {
  BASIC_CATEGORIES,
  SERVICE_COMPUTED_BASICS,
  type Profile,
} from '../../../src/lib/service/index.ts';
import type { Evidence } from '../../../src/lib/vetting/index.ts';

const IDENTITY = [
  'dot_number',
  'legal_name',
  'dba_name',
  'docket',
  'doc_id',
  'ein',
  'entity_type_desc',
  'carrier_operation_desc',
  'usdot_status',
  'out_of_service_flag',
  'dot_age',
  'physical_address',
  'telephone_number',
  'email_address',
] as const satisfies readonly (keyof Profile)[];

const AUTHORITY = [
  'authority_common',
  'authority_contract',
  'authority_broker',
  'authority_age_common_active',
  'authority_age_contract_active',
  'authority_age_broker',
  'indicator_authority',
  'total_revocations',
] as const satisfies readonly (keyof Profile)[];

const INSURANCE = [
  'insurance_bipd_on_file',
  'insurance_bipd_required',
  'insurance_cargo_on_file',
  'insurance_cargo_required',
  'insurance_bond_on_file',
  'insurance_bond_required',
  'indicator_insurance',
  'insurance_pending_cancel_date',
] as const satisfies readonly (keyof Profile)[];

const SAFETY = [
  'safety_rating_desc',
  'safety_rating_date',
  'inspections_total',
  'inspections_vehicle_out_of_service_pct',
  'inspections_driver_out_of_service_pct',
  'crashes_total',
  'crash_fatalities',
] as const satisfies readonly (keyof Profile)[];

type Scalar = string | number | boolean | null;

function scalar(value: unknown): Scalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? value
    : null;
}

function pick(profile: Profile, names: readonly (keyof Profile)[]): Evidence[] {
  return names.map((name) => ({ name, value: scalar(profile[name]) }));
}

/** The published BASIC percentiles and alerts, and the vendor's own risk score, labelled as such. */
function safety(profile: Profile): Evidence[] {
  const basics = BASIC_CATEGORIES.flatMap((basic) => {
    const percentile = profile[`basic_percentile_${basic}`];
    if (percentile === undefined) return [];
    const computed = SERVICE_COMPUTED_BASICS.includes(basic) ? ' (computed by the service)' : '';
    return [
      { name: `basic_percentile_${basic}${computed}`, value: percentile },
      { name: `basic_alert_${basic}${computed}`, value: profile[`basic_alert_${basic}`] ?? null },
    ];
  });
  return [
    ...pick(profile, SAFETY),
    ...basics,
    { name: 'risk_score (computed by the service)', value: profile.risk_score ?? null },
  ];
}

export function keyFields(profile: Profile) {
  return {
    identity: pick(profile, IDENTITY),
    authority: pick(profile, AUTHORITY),
    insurance: pick(profile, INSURANCE),
    safety: safety(profile),
  };
}
