/**
 * The reduced profile (`/v2/profile-lite`). The spec does not show its fields; the live capture
 * `fixtures/live-shapes/profile_lite_265752.json` does, and the sandbox serves exactly that set.
 */
import { singleItem, unwrapItems } from './envelope.ts';
import { PROFILE_ALIASES, PROFILE_SPEC } from './fields.ts';
import type { ItemsPage } from './profile.ts';
import { readRecord, type Parsed, type ParseIssue, type Shape } from './record.ts';

/** The 64 keys of the live lite profile, in the order the service sends them. */
export const LITE_PROFILE_FIELDS = [
  'doc_id',
  'dot_number',
  'docket_prefix',
  'docket_number',
  'docket',
  'legal_name',
  'dba_flag',
  'dba_name',
  'ein',
  'duns',
  'usdot_status',
  'out_of_service_flag',
  'entity_type_desc',
  'added_date',
  'total_power_units',
  'total_drivers',
  'inspections_total',
  'mcs150_year',
  'mcs150_mileage',
  'mcs150_date',
  'physical_address_street',
  'physical_address_city',
  'physical_address_state',
  'physical_address_zip_code',
  'physical_address',
  'telephone_number',
  'company_contact_primary',
  'company_contact_secondary',
  'email_address',
  'insurance_bipd_on_file',
  'insurance_bond_on_file',
  'authority_common',
  'authority_contract',
  'authority_broker',
  'authority_common_pending',
  'authority_contract_pending',
  'authority_broker_pending',
  'authority_common_review',
  'authority_contract_review',
  'authority_broker_review',
  'authority_age_common',
  'authority_age_contract',
  'authority_age_broker',
  'indicator_authority',
  'indicator_insurance',
  'indicator_carrier_safety',
  'safety_score',
  'risk_score',
  'snapshot_date',
  'indicator_network_graph_contact',
  'indicator_network_graph_equipment',
  'indicator_industry_benchmarks',
  'indicator_address_history',
  'total_trailers',
  'mailing_address_street',
  'mailing_address_city',
  'mailing_address_state',
  'mailing_address_zip_code',
  'mailing_address',
  'cargo_carried',
  'iss_value',
  'iss_recommendation',
  'iss_recommendation_reason',
  'risk_factors',
] as const satisfies readonly (keyof typeof PROFILE_SPEC)[];

function pick<S extends object, K extends keyof S>(spec: S, keys: readonly K[]): Pick<S, K> {
  return Object.fromEntries(keys.map((key) => [key, spec[key]])) as Pick<S, K>;
}

const LITE_SPEC = pick(PROFILE_SPEC, LITE_PROFILE_FIELDS);
export type LiteProfile = Shape<typeof LITE_SPEC>;

function readLite(raw: Record<string, unknown>, path: string, issues: ParseIssue[]): LiteProfile {
  return readRecord(raw, LITE_SPEC, path, issues, PROFILE_ALIASES);
}

/** One lite profile from a bare object (or the first item of an envelope or array). */
export function parseLiteProfile(body: unknown): Parsed<LiteProfile> {
  const issues: ParseIssue[] = [];
  const item = singleItem(body, issues);
  return { value: item ? readLite(item.raw, item.path, issues) : { extra: {} }, issues };
}

/** All lite profiles of a body: envelope, bare object or bare array. */
export function parseLiteResponse(body: unknown): Parsed<ItemsPage<LiteProfile>> {
  const issues: ParseIssue[] = [];
  const { items, totalCount } = unwrapItems(body, issues);
  const profiles = items.map((item) => readLite(item.raw, item.path, issues));
  return { value: { items: profiles, total_count: totalCount ?? profiles.length }, issues };
}
