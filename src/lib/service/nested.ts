/**
 * Item specs of the profile's nested arrays and objects (spec "Nested arrays of the profile", plus
 * the live-only keys documented in fixtures/live-shapes/README.md).
 */
import { HISTORY_BASICS } from './basics.ts';
import { each, list, type Spec } from './record.ts';

/** `{prefix}{name}{suffix}` -> def, typed so each generated key stays a literal. */
export function keyed<
  const P extends string,
  const N extends string,
  const S extends string,
  const D,
>(prefix: P, names: readonly N[], suffix: S, def: D): { readonly [K in `${P}${N}${S}`]: D } {
  return Object.fromEntries(names.map((name) => [`${prefix}${name}${suffix}`, def])) as {
    readonly [K in `${P}${N}${S}`]: D;
  };
}

/** `contact_history` and `address_ids` items. */
export const CONTACT_ENTRY = {
  _id: 'id',
  key: 'text',
  value: 'text',
  start_date: 'date',
  end_date: 'date',
  current_flag: 'flag',
} as const satisfies Spec;

export const AUTHORITY_ENTRY = {
  _id: 'id',
  authority_type_desc: 'text',
  original_action_desc: 'text',
  original_served_date: 'date',
  dispensation_action_desc: 'text',
  dispensation_served_date: 'date',
} as const satisfies Spec;

export const INSURANCE_ENTRY = {
  _id: 'id',
  insurance_status: 'text',
  insurance_form_code: 'id',
  insurance_type_code: 'text',
  insurance_carrier: 'text',
  policy_number: 'id',
  effective_date: 'date',
  /** live only */
  next_renewal_date: 'date',
  cancel_method: 'text',
  cancel_effective_date: 'date',
  underlying_limit_amount: 'dollars',
  minimum_coverage_amount: 'dollars',
} as const satisfies Spec;

const EQUIPMENT_COUNT = { type: 'text', category: 'text', count: 'count' } as const satisfies Spec;

export const EQUIPMENT_SUMMARY = {
  primary_category: list(EQUIPMENT_COUNT),
  secondary_category: list(EQUIPMENT_COUNT),
} as const satisfies Spec;

/** `equipment_history` items and `network_graph_equipment_ext[].shared_vins` items. */
export const VEHICLE = {
  _id: 'id',
  vin: 'id',
  type: 'text',
  unit_type_desc: 'text',
  primary_category: 'text',
  insp_unit_license: 'id',
  insp_unit_license_state: 'text',
  insp_unit_company: 'id',
  inspections_total_vin: 'count',
  inspections_total_vin_dot: 'count',
  countd_dots_vin: 'count',
  multi_dot_flag: 'flag',
  last_inspection_date_vin: 'date',
  last_inspection_date_vin_dot: 'date',
  last_inspected_under_dot: 'id',
  most_recent_inspection_flag: 'flag',
  make: 'text',
  model: 'text',
  model_year: 'year',
  vehicle_type: 'text',
  gvwr: 'text',
  body_class: 'text',
  ncsa_body_type: 'text',
  body_cab_type: 'text',
  fuel_type_primary: 'text',
  other_trailer_info: 'text',
  trailer_body_type: 'text',
  trailer_type: 'text',
} as const satisfies Spec;

export const NETWORK_EQUIPMENT_CARRIER = {
  _id: 'id',
  dot_number: 'id',
  dockets: each('id'),
  legal_name: 'text',
  entity_type_desc: 'text',
  usdot_status: 'text',
  out_of_service_flag: 'flag',
  carrier_operation_desc: 'text',
  hazardous_material_flag: 'flag',
  count_shared_vins: 'count',
  shared_vins: list(VEHICLE),
  count_shared_power_units: 'count',
  count_shared_trailers: 'count',
} as const satisfies Spec;

export const PREFERRED_LANE = { state: 'text', inspections: 'count' } as const satisfies Spec;

/** Spec flags plus the live-only `bond_insurance_below_requirement`, `ins_rrg_active`, `ins_rrg_hist`. */
export const RISK_FACTORS = {
  ...keyed(
    '',
    [
      'consecutive_authority',
      'sixty_mo_in_business',
      'revocation_last_thirtysix_mo',
      'indicator_network_graph_phone',
      'indicator_network_graph_address',
      'indicator_network_graph_email',
      'indicator_network_graph_ein',
      'indicator_network_graph_duns',
      'high_shared_power_units',
      'zeo_inspections_last_twelve_mo',
      'active_usdot_status',
      'violations_severe_flag',
      'basic_alert_flag',
      'basic_ac_indicator_flag',
      'fatal_crashes_flag',
      'safety_rating_unsatisfactory_conditional',
      'secondary_contact_info_provided',
      'primary_contact_info_missing',
      'carrier_w_brokerage_authority',
      'multi_cargo_classification',
      'interstate_carrier_single_state_inspection',
      'bipd_insurance_above_minimum',
      'bipd_insurance_below_requirement',
      'bond_insurance_below_requirement',
      'cargo_insurance_on_file',
      'boc3_on_file',
      'pending_insurance_cancellation',
      'ins_rrg_active',
      'ins_rrg_hist',
      'no_active_authority',
      'not_authorized_for_hire',
      'mcs150_filed_last_24_months',
      'oos_below_industry_average',
      'smartway_flag',
      'carbtru_flag',
      'phmsa_flag',
      'hazardous_material',
      'virtual_physical_mailing_address',
      'phone_number_area_codes_match_address_state',
      'dot_out_of_service',
      'driver_only_inspections',
      'indicator_benchmark_inspection_mileage_ratio',
      'indicator_benchmark_inspected_power_units_ratio',
      'indicator_benchmark_power_unit_mileage_ratio',
    ],
    '',
    'flag',
  ),
  ...keyed(
    'stability_',
    ['name', 'email', 'phone', 'address', 'contact', 'insurance'],
    '_history',
    'flag',
  ),
} as const satisfies Spec;

/** Zip-code points (spec) plus the live `inspection_locations` / `crash_locations`. */
export const GEO_POINTS = {
  physical_address_zip_code: 'point',
  mailing_address_zip_code: 'point',
  inspection_locations: each('location'),
  crash_locations: each('location'),
} as const satisfies Spec;

/** Live-only `radius_of_operation`. */
export const RADIUS_OF_OPERATION = {
  reported_operation_type: 'text',
  reported_pct_drivers_within_100mi: 'rate',
  mismatch_reasons: each('text'),
} as const satisfies Spec;

export const CRASH = {
  _id: 'id',
  changed_date: 'timestamp',
  report_state: 'text',
  report_number: 'id',
  report_date: 'date',
  report_time: 'id',
  report_seq_no: 'id',
  dot_number: 'id',
  ci_status_code: 'text',
  final_status_date: 'date',
  location: 'text',
  city: 'text',
  state: 'text',
  county_code: 'id',
  county_name: 'text',
  latitude: 'rate',
  longitude: 'rate',
  geo_point: 'point',
  truck_bus_ind: 'text',
  trafficway_id: 'id',
  trafficway_desc: 'text',
  access_control_id: 'id',
  access_control_desc: 'text',
  road_surface_condition_id: 'id',
  road_surface_condition_desc: 'text',
  cargo_body_type_id: 'id',
  cargo_body_type_desc: 'text',
  gvw_rating_id: 'id',
  vehicle_identification_number: 'id',
  vehicle_license_number: 'id',
  vehicle_license_state: 'text',
  vehicle_hazmat_placard: 'flag',
  weather_condition_id: 'id',
  weather_condition_desc: 'text',
  vehicle_configuration_id: 'id',
  vehicle_configuration_desc: 'text',
  light_condition_id: 'id',
  light_condition_desc: 'text',
  hazmat_released: 'flag',
  agency: 'text',
  vehicles_in_accident: 'count',
  fatalities: 'count',
  injuries: 'count',
  tow_away: 'flag',
  federal_recordable: 'flag',
  state_recordable: 'flag',
  crash_event_seq_id_desc: 'text',
  included_in_sms_flag: 'flag',
} as const satisfies Spec;

export const CRASH_AGGREGATE = {
  _id: 'id',
  report_month: 'date',
  crashes_total: 'count',
  crashes_total_recordable: 'count',
  crashes_tow_away: 'count',
  crash_fatalities: 'count',
  crash_injuries: 'count',
  vehicle_miles_traveled: 'count',
  total_power_units: 'count',
  crash_rate: 'rate',
  crash_rate_recordable: 'rate',
} as const satisfies Spec;

export const INSPECTED_UNIT = {
  vin: 'id',
  insp_unit_id: 'id',
  insp_unit_type_id: 'id',
  insp_unit_type_desc: 'text',
  insp_unit_make: 'text',
  insp_unit_license: 'id',
  insp_unit_license_state: 'text',
  insp_unit_company: 'id',
} as const satisfies Spec;

export const VIOLATION = {
  _id: 'id',
  report_number: 'id',
  report_state: 'text',
  insp_date: 'date',
  change_date: 'date',
  inspection_id: 'id',
  violation_id: 'id',
  viol_code: 'id',
  part_no: 'id',
  part_no_section: 'id',
  seq_no: 'id',
  basic_group_id: 'id',
  basic_group_desc: 'text',
  viol_group_id: 'id',
  viol_group_desc: 'text',
  viol_desc: 'text',
  viol_category_id: 'id',
  viol_category_desc: 'text',
  viol_type: 'text',
  viol_unit_id: 'id',
  viol_unit_desc: 'text',
  insp_unit_id: 'id',
  oos_indicator: 'flag',
  defect_verification_id: 'id',
  defect_verification_desc: 'text',
  citation_number: 'id',
  oos_weight: 'rate',
  severity_weight: 'rate',
  time_weight: 'rate',
  total_severity_weight: 'rate',
  included_in_sms_flag: 'flag',
} as const satisfies Spec;

export const INSPECTION = {
  _id: 'id',
  report_state: 'text',
  report_number: 'id',
  insp_date: 'date',
  insp_start_time: 'id',
  insp_end_time: 'id',
  ci_status_code: 'text',
  county_code_state: 'text',
  county_name: 'text',
  latitude: 'rate',
  longitude: 'rate',
  geo_point: 'point',
  insp_level_id: 'id',
  insp_facility: 'text',
  location_desc: 'text',
  hazmat_placard_req: 'flag',
  alcohol_control_sub: 'flag',
  drug_intrdctn_search: 'flag',
  drug_intrdctn_arrests: 'count',
  size_weight_enf: 'flag',
  traffic_enf: 'flag',
  gross_comb_veh_wt: 'count',
  viol_total: 'count',
  oos_total: 'count',
  driver_viol_total: 'count',
  driver_oos_total: 'count',
  vehicle_viol_total: 'count',
  vehicle_oos_total: 'count',
  hazmat_viol_total: 'count',
  hazmat_oos_total: 'count',
  time_weight: 'rate',
  unsafe_insp: 'flag',
  fatigued_insp: 'flag',
  dr_fitness_insp: 'flag',
  subt_alcohol_insp: 'flag',
  vh_maint_insp: 'flag',
  hm_insp: 'flag',
  vins: list(INSPECTED_UNIT),
  violations: list(VIOLATION),
  included_in_sms_flag: 'flag',
} as const satisfies Spec;

export const BASIC_SNAPSHOT = {
  snapshot_date: 'date',
  inspections_total: 'count',
  inspections_vehicle: 'count',
  inspections_vehicle_out_of_service: 'count',
  inspections_driver: 'count',
  inspections_driver_out_of_service: 'count',
  ...keyed('inspections_w_violations_', HISTORY_BASICS, '', 'count'),
  ...keyed('basic_measure_', HISTORY_BASICS, '', 'rate'),
  ...keyed('basic_ac_indicator_', HISTORY_BASICS, '', 'flag'),
} as const satisfies Spec;
