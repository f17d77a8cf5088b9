/**
 * The full profile's top-level fields, one constant per family of the spec's field table. Live-only
 * keys (fixtures/live-shapes/README.md) sit in the family they belong to and are marked "live".
 */
import {
  AUTHORITY_ENTRY,
  BASIC_SNAPSHOT,
  CONTACT_ENTRY,
  CRASH,
  CRASH_AGGREGATE,
  EQUIPMENT_SUMMARY,
  GEO_POINTS,
  INSPECTION,
  INSURANCE_ENTRY,
  NETWORK_EQUIPMENT_CARRIER,
  PREFERRED_LANE,
  RADIUS_OF_OPERATION,
  RISK_FACTORS,
  VEHICLE,
  keyed,
} from './nested.ts';
import { BASIC_CATEGORIES, VIOLATION_CATEGORIES } from './basics.ts';
import { each, list, one, type Aliases, type Spec } from './record.ts';

const AUTHORITY_TYPES = ['common', 'contract', 'broker'] as const;
const CONTACT_KINDS = ['name', 'email', 'phone', 'address', 'contact'] as const;

export const IDENTITY_FIELDS = {
  dot_number: 'id',
  docket_prefix: 'text',
  docket_number: 'id',
  docket: 'id',
  doc_id: 'id',
  icc_dockets: 'text',
  ein: 'id',
  /** live */
  duns: 'id',
  legal_name: 'text',
  /** live */
  dba_name: 'text',
  dba_flag: 'flag',
  entity_type_desc: 'text',
  carrier_operation_desc: 'text',
  organization_type_desc: 'text',
  usdot_status: 'text',
  out_of_service_flag: 'flag',
  /** seen in a public client */
  out_of_service_date: 'date',
  operation_classification_desc: 'text',
  added_date: 'date',
  dot_age: 'count',
  snapshot_date: 'date',
} as const satisfies Spec;

export const OPERATION_CLASS_FIELDS = {
  ...keyed(
    'operation_class_',
    [
      'authorized_for_hire',
      'exempt_for_hire',
      'private_property',
      'private_pass_business',
      'private_pass_non_business',
      'migrant',
      'us_mail',
      'federal_govt',
      'state_govt',
      'local_govt',
      'indian_nation',
    ],
    '',
    'flag',
  ),
  ...keyed(
    '',
    [
      'private',
      'enterprise',
      'household_goods',
      'passenger',
      'property',
      'hazardous_material',
      'smartway_flag',
      'carbtru_flag',
      'phmsa_flag',
    ],
    '',
    'flag',
  ),
} as const satisfies Spec;

export const AUTHORITY_FIELDS = {
  ...keyed('authority_', AUTHORITY_TYPES, '', 'text'),
  ...keyed('authority_', AUTHORITY_TYPES, '_pending', 'flag'),
  ...keyed('authority_', AUTHORITY_TYPES, '_review', 'flag'),
  ...keyed('authority_', AUTHORITY_TYPES, '_revocation', 'flag'),
  /** `authority_age_broker` is live */
  ...keyed('authority_age_', AUTHORITY_TYPES, '', 'count'),
  authority_age_common_active: 'count',
  authority_age_contract_active: 'count',
  /** `authority_start_broker` is live */
  ...keyed('authority_start_', AUTHORITY_TYPES, '', 'date'),
  /** contract and broker variants are live */
  ...keyed('authority_', AUTHORITY_TYPES, '_last_revocation_date', 'date'),
  last_revocation_date: 'date',
  total_revocations: 'count',
  days_since_last_revocation: 'count',
  indicator_authority: 'tri',
  authority_history: list(AUTHORITY_ENTRY),
} as const satisfies Spec;

export const INSURANCE_FIELDS = {
  ...keyed('insurance_', ['bipd', 'cargo', 'bond'], '_on_file', 'dollars'),
  ...keyed('insurance_', ['bipd', 'cargo', 'bond'], '_required', 'dollars'),
  indicator_insurance: 'tri',
  insurance_cancel_count: 'count',
  insurance_last_canceled: 'date',
  /** monitoring `date_type` option `insurance_pending_cancel_date_current` */
  insurance_pending_cancel_date: 'date',
  insurance_history: list(INSURANCE_ENTRY),
} as const satisfies Spec;

/** Scores, safety rating, reviews and MCS-151. `iss_*` is FMCSA's Inspection Selection System. */
export const SCORE_FIELDS = {
  iss_value: 'count',
  iss_recommendation: 'text',
  iss_recommendation_reason: 'text',
  risk_score: 'text',
  risk_score_probability: 'rate',
  safety_score: 'count',
  safety_rating_desc: 'text',
  safety_rating_date: 'date',
  latest_review_type_desc: 'text',
  latest_review_date: 'date',
  mcs151_type_desc: 'text',
  mcs151_date: 'date',
  mcs151_year: 'year',
  indicator_carrier_safety: 'tri',
  indicator_industry_benchmarks: 'flag',
} as const satisfies Spec;

export const BASIC_FIELDS = {
  ...keyed('basic_measure_', BASIC_CATEGORIES, '', 'rate'),
  ...keyed('basic_percentile_', BASIC_CATEGORIES, '', 'rate'),
  ...keyed('basic_alert_', BASIC_CATEGORIES, '', 'flag'),
  ...keyed('basic_roadside_alert_', BASIC_CATEGORIES, '', 'flag'),
  ...keyed('basic_ac_indicator_', VIOLATION_CATEGORIES, '', 'flag'),
  ...keyed('intervention_threshold_', BASIC_CATEGORIES, '', 'rate'),
} as const satisfies Spec;

export const VIOLATION_FIELDS = {
  ...keyed('violations_', VIOLATION_CATEGORIES, '', 'count'),
  ...keyed('violations_severe_', VIOLATION_CATEGORIES, '', 'count'),
  ...keyed('violations_oos_', VIOLATION_CATEGORIES, '', 'count'),
  violations_total: 'count',
  last_violation_date: 'date',
} as const satisfies Spec;

export const INSPECTION_FIELDS = {
  ...keyed('inspections_', ['total', 'driver', 'vehicle', 'hazmat'], '', 'count'),
  ...keyed('inspections_', ['driver', 'vehicle', 'hazmat'], '_out_of_service', 'count'),
  ...keyed('inspections_', ['driver', 'vehicle', 'hazmat'], '_out_of_service_pct', 'rate'),
  ...keyed('natl_avg_oos_', ['vehicle', 'driver', 'hazmat'], '', 'rate'),
  inspected_states: 'count',
  inspected_power_units: 'count',
  inspected_trailers: 'count',
  last_inspection_date: 'date',
  ...keyed('oos_alert_', ['driver', 'vehicle', 'hazmat'], '', 'flag'),
} as const satisfies Spec;

export const CRASH_FIELDS = {
  crashes_total: 'count',
  crash_fatalities: 'count',
  crash_injuries: 'count',
  crashes_tow_away: 'count',
  last_crash_date: 'date',
} as const satisfies Spec;

export const FLEET_FIELDS = {
  ...keyed(
    'total_',
    ['power_units', 'drivers', 'drivers_cdl', 'trucks', 'trailers', 'buses'],
    '',
    'count',
  ),
  ...keyed('owned_', ['tractors', 'trailers'], '', 'count'),
  /** `term_leased_trucks` is live */
  ...keyed('term_leased_', ['tractors', 'trailers', 'trucks'], '', 'count'),
  mcs150_mileage: 'count',
  mcs150_date: 'date',
  mcs150_year: 'year',
  /** live */
  biennial_due_date: 'date',
  /** live */
  biennial_overdue_flag: 'flag',
  avg_trip_leased_drivers: 'count',
  ...keyed('num_drivers_', ['interstate', 'intrastate'], '_within_100mi', 'count'),
  ...keyed('num_drivers_', ['interstate', 'intrastate'], '_beyond_100mi', 'count'),
  ...keyed('num_drivers_', ['interstate', 'intrastate'], '_total', 'count'),
  /** live */
  radius_of_operation: one(RADIUS_OF_OPERATION),
  equipment_summary: one(EQUIPMENT_SUMMARY),
  equipment_history: list(VEHICLE),
  /** live; item shape undocumented, kept verbatim */
  observed_fleet_timeline: 'json',
  /** live, e.g. "leased_fleet" */
  ownership_profile: 'text',
} as const satisfies Spec;

/** The cargo classes of the MCS-150 the profile flags (`<class>: boolean`), in the spec's order. */
export const CARGO_CLASSES = [
  'general_freight',
  'household',
  'metal_sheet_coils_rolls',
  'motor_vehicles',
  'driveaway_towaway',
  'logs_poles_beams_lumber',
  'building_materials',
  'mobile_homes',
  'machinery_large_objects',
  'fresh_produce',
  'liquids_gases',
  'intermodal_containers',
  'passengers',
  'oilfield_equipment',
  'livestock',
  'grain_feed_hay',
  'coal_coke',
  'meat',
  'garbage_refuse_trash',
  'chemicals',
  'us_mail',
  'dry_bulk_commodities',
  'refrigerated_foods',
  'beverages',
  'paper_products',
  'utility',
  'farm_supplies',
  'construction',
  'water_well',
  'other_cargo',
] as const;

export const CARGO_FIELDS = {
  cargo_carried: 'text',
  ...keyed('', CARGO_CLASSES, '', 'flag'),
  /** live */
  other_cargo_desc: 'text',
} as const satisfies Spec;

const ADDRESSES = ['physical_address', 'mailing_address', 'physical_address_authority'] as const;

export const CONTACT_FIELDS = {
  telephone_number: 'id',
  fax_number: 'id',
  cellphone_number: 'id',
  email_address: 'text',
  email_domain: 'text',
  company_contact_primary: 'text',
  company_contact_secondary: 'text',
  /** combined one-line addresses (`mailing_address`, `physical_address_authority` are live) */
  ...keyed('', ADDRESSES, '', 'text'),
  ...keyed('', ADDRESSES, '_street', 'text'),
  ...keyed('', ADDRESSES, '_city', 'text'),
  ...keyed('', ADDRESSES, '_state', 'text'),
  ...keyed('', ADDRESSES, '_iso_country_code', 'text'),
  ...keyed('', ADDRESSES, '_zip_code', 'id'),
  physical_telephone_number_authority: 'id',
  physical_fax_number_authority: 'id',
  ...keyed('', ADDRESSES, '_id', 'id'),
  ...keyed('undeliverable_', ADDRESSES, '', 'flag'),
  boc3_company_name: 'text',
  boc3_attn: 'text',
  boc3_address_city: 'text',
  boc3_address_state: 'text',
  boc3_address_street: 'text',
  boc3_address_zip_code: 'id',
  boc3_address_country_code: 'text',
  contact_history: list(CONTACT_ENTRY),
  address_ids: list(CONTACT_ENTRY),
} as const satisfies Spec;

const CHANGE_COUNTER_FIELDS = {
  ...keyed('', CONTACT_KINDS, '_change_count', 'count'),
  ...keyed('', CONTACT_KINDS, '_last_changed', 'date'),
  indicator_address_history: 'flag',
} as const satisfies Spec;

const BENCHMARK_FIELDS = {
  ...keyed('observed_', ['IM', 'IRPU', 'PUM'], '', 'rate'),
  ...keyed('expected_lb_', ['IM', 'IRPU', 'PUM'], '', 'rate'),
  ...keyed('expected_ub_', ['IM', 'IRPU', 'PUM'], '', 'rate'),
  ...keyed(
    'indicator_benchmark_',
    ['inspection_mileage_ratio', 'inspected_power_units_ratio', 'power_unit_mileage_ratio'],
    '',
    'flag',
  ),
} as const satisfies Spec;

const NETWORK_COUNTS = [
  'physical_address',
  'mailing_address',
  'telephone_numbers',
  'cellphone_numbers',
  'fax_numbers',
  'email_address',
  'ein',
  'duns',
  'equipment',
  'power_units',
  'trailers',
] as const;
const NETWORK_LISTS = [
  'physical_address',
  'mailing_address',
  'telephone_number',
  'cellphone_number',
  'fax_number',
  'email',
  'ein',
  'duns',
  'equipment',
] as const;

const NETWORK_FIELDS = {
  indicator_network_graph_contact: 'flag',
  indicator_network_graph_equipment: 'flag',
  ...keyed('network_graph_count_', NETWORK_COUNTS, '', 'count'),
  ...keyed('network_graph_', NETWORK_LISTS, '', each('id')),
  network_graph_equipment_ext: list(NETWORK_EQUIPMENT_CARRIER),
  shared_power_units: 'count',
  shared_trailers: 'count',
} as const satisfies Spec;

const LOAD_FIELDS = {
  ...keyed('', ['total_loads', 'ltl_loads', 'ftl_loads', 'deadheads'], '', 'count'),
  first_load_date: 'date',
  last_load_date: 'date',
  ...keyed('', ['ltl', 'ftl', 'deadhead'], '_percentage', 'rate'),
  /** item fields not documented; kept verbatim */
  load_summary: each('json'),
  preferred_lanes: list(PREFERRED_LANE),
  /** live; an empty string in the fixture, format unknown */
  preferred_states: 'text',
} as const satisfies Spec;

const DERIVED_FIELDS = {
  risk_factors: one(RISK_FACTORS),
  geo_points: one(GEO_POINTS),
} as const satisfies Spec;

const HISTORY_FIELDS = {
  crash_history: list(CRASH),
  crash_aggregates: list(CRASH_AGGREGATE),
  inspection_history: list(INSPECTION),
  basic_history: list(BASIC_SNAPSHOT),
} as const satisfies Spec;

/** Every known top-level field of the full profile. */
export const PROFILE_SPEC = {
  ...IDENTITY_FIELDS,
  ...OPERATION_CLASS_FIELDS,
  ...AUTHORITY_FIELDS,
  ...INSURANCE_FIELDS,
  ...SCORE_FIELDS,
  ...BASIC_FIELDS,
  ...VIOLATION_FIELDS,
  ...INSPECTION_FIELDS,
  ...CRASH_FIELDS,
  ...FLEET_FIELDS,
  ...CARGO_FIELDS,
  ...CONTACT_FIELDS,
  ...CHANGE_COUNTER_FIELDS,
  ...BENCHMARK_FIELDS,
  ...NETWORK_FIELDS,
  ...LOAD_FIELDS,
  ...DERIVED_FIELDS,
  ...HISTORY_FIELDS,
} as const satisfies Spec;

export type ProfileField = keyof typeof PROFILE_SPEC;

/** Known top-level field names of the full profile, in family order. */
export const PROFILE_FIELDS = Object.keys(PROFILE_SPEC) as readonly ProfileField[];

/** Live spellings renamed to the spec's (only when the spec's key is not also present). */
export const PROFILE_ALIASES: Aliases = { bo3_address_city: 'boc3_address_city' };
