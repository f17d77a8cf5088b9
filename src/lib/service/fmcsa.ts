/**
 * The consolidated FMCSA profile (`/v2/profile-fmcsa`): a fixed set of 236 FMCSA-sourced keys, every
 * one present in every response (null where empty). The spec gives only the count; the selection
 * below is ours (docs/service-shapes.md): carrier-level values FMCSA itself publishes, no value the
 * service computes, no nested arrays.
 */
import { hasContent } from './kinds.ts';
import { singleItem } from './envelope.ts';
import {
  AUTHORITY_FIELDS,
  BASIC_FIELDS,
  CARGO_FIELDS,
  CONTACT_FIELDS,
  CRASH_FIELDS,
  FLEET_FIELDS,
  IDENTITY_FIELDS,
  INSPECTION_FIELDS,
  INSURANCE_FIELDS,
  OPERATION_CLASS_FIELDS,
  PROFILE_ALIASES,
  SCORE_FIELDS,
  VIOLATION_FIELDS,
} from './fields.ts';
import {
  canonicalKey,
  joinPath,
  readRecord,
  setOwn,
  type Extra,
  type Parsed,
  type ParseIssue,
  type ValueOf,
} from './record.ts';

function omit<S extends object, K extends keyof S>(spec: S, keys: readonly K[]): Omit<S, K> {
  const dropped = new Set<PropertyKey>(keys);
  return Object.fromEntries(Object.entries(spec).filter(([key]) => !dropped.has(key))) as Omit<
    S,
    K
  >;
}

/** The FMCSA profile's fields per family; each exclusion says why it is not FMCSA-sourced. */
export const FMCSA_SPEC = {
  // doc_id is the service's own key; dot_age is computed by the service.
  ...omit(IDENTITY_FIELDS, ['doc_id', 'dot_age']),
  // SmartWay (EPA), CARB TRU (California) and PHMSA registration come from other agencies.
  ...omit(OPERATION_CLASS_FIELDS, ['smartway_flag', 'carbtru_flag', 'phmsa_flag']),
  // Ages and day counts are computed; indicator_authority is the service's verdict; no arrays.
  ...omit(AUTHORITY_FIELDS, [
    'authority_age_common',
    'authority_age_contract',
    'authority_age_broker',
    'authority_age_common_active',
    'authority_age_contract_active',
    'days_since_last_revocation',
    'indicator_authority',
    'authority_history',
  ]),
  // Cancel count and last cancellation are aggregates the service derives from insurance_history.
  ...omit(INSURANCE_FIELDS, [
    'indicator_insurance',
    'insurance_cancel_count',
    'insurance_last_canceled',
    'insurance_history',
  ]),
  // ISS is FMCSA's Inspection Selection System: kept. Risk/safety scores and indicators are derived.
  ...omit(SCORE_FIELDS, [
    'risk_score',
    'risk_score_probability',
    'safety_score',
    'indicator_carrier_safety',
    'indicator_industry_benchmarks',
  ]),
  ...BASIC_FIELDS,
  ...VIOLATION_FIELDS,
  // OOS alerts are the service's comparison, inspected_* are its aggregates, and the national
  // averages describe no carrier.
  ...omit(INSPECTION_FIELDS, [
    'oos_alert_driver',
    'oos_alert_vehicle',
    'oos_alert_hazmat',
    'inspected_states',
    'inspected_power_units',
    'inspected_trailers',
    'natl_avg_oos_vehicle',
    'natl_avg_oos_driver',
    'natl_avg_oos_hazmat',
  ]),
  ...CRASH_FIELDS,
  // The biennial schedule is computed from the DOT number; the rest is derived or nested.
  ...omit(FLEET_FIELDS, [
    'biennial_due_date',
    'biennial_overdue_flag',
    'radius_of_operation',
    'equipment_summary',
    'equipment_history',
    'observed_fleet_timeline',
    'ownership_profile',
  ]),
  ...CARGO_FIELDS,
  // Combined one-line addresses, address ids and email_domain are the service's own composites.
  ...omit(CONTACT_FIELDS, [
    'email_domain',
    'physical_address',
    'mailing_address',
    'physical_address_authority',
    'physical_address_id',
    'mailing_address_id',
    'physical_address_authority_id',
    'contact_history',
    'address_ids',
  ]),
} as const;

export type FmcsaField = keyof typeof FMCSA_SPEC;

/** The 236 keys of every FMCSA profile response, in family order. */
export const FMCSA_PROFILE_FIELDS = Object.keys(FMCSA_SPEC) as readonly FmcsaField[];

/** Every FMCSA key is present; `null` means FMCSA has no value. */
export type FmcsaProfile = {
  -readonly [F in FmcsaField]: ValueOf<(typeof FMCSA_SPEC)[F]> | null;
} & {
  extra: Extra;
};

function sentKeys(raw: Record<string, unknown>): Set<string> {
  return new Set(Object.keys(raw).map((key) => canonicalKey(raw, key, PROFILE_ALIASES)));
}

/**
 * The FMCSA profile of a body (bare object, or the first item of an envelope or array); `null` when
 * the body holds no FMCSA field at all (e.g. an error body). Missing keys are reported and set null.
 */
export function parseFmcsaProfile(body: unknown): Parsed<FmcsaProfile | null> {
  const issues: ParseIssue[] = [];
  const item = singleItem(body, issues);
  const sent = item ? sentKeys(item.raw) : new Set<string>();
  if (!item || !FMCSA_PROFILE_FIELDS.some((field) => sent.has(field))) {
    if (hasContent(body)) issues.push({ path: '', message: 'no FMCSA profile fields in the body' });
    return { value: null, issues };
  }
  const record: Record<string, unknown> = readRecord(
    item.raw,
    FMCSA_SPEC,
    item.path,
    issues,
    PROFILE_ALIASES,
  );
  for (const field of FMCSA_PROFILE_FIELDS) {
    if (record[field] !== undefined) continue;
    setOwn(record, field, null);
    if (!sent.has(field)) issues.push({ path: joinPath(item.path, field), message: 'missing key' });
  }
  return { value: record as FmcsaProfile, issues };
}
