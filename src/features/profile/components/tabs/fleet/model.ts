/**
 * What the fleet tab derives from a profile: labelled operation classes and cargo flags, the
 * driver matrix and the monthly load rows (`load_summary` items are undocumented JSON, read here
 * tolerantly with the shared kinds).
 */
import type { CsvColumn } from '../../../../../components/data-table/csv.ts';
import { readKind, type Profile, type Vehicle } from '../../../../../lib/service/index.ts';
import type { CheckItem } from '../kit/parts.tsx';

type FlagField = {
  [F in keyof Profile]-?: NonNullable<Profile[F]> extends boolean ? F : never;
}[keyof Profile];

function checklist(profile: Profile, entries: readonly (readonly [FlagField, string])[]) {
  return entries.map(([field, label]): CheckItem => ({
    label,
    value: profile[field] ?? undefined,
  }));
}

const OPERATION_CLASSES: readonly (readonly [FlagField, string])[] = [
  ['operation_class_authorized_for_hire', 'Authorized for hire'],
  ['operation_class_exempt_for_hire', 'Exempt for hire'],
  ['operation_class_private_property', 'Private property'],
  ['operation_class_private_pass_business', 'Private passengers (business)'],
  ['operation_class_private_pass_non_business', 'Private passengers (non-business)'],
  ['operation_class_migrant', 'Migrant'],
  ['operation_class_us_mail', 'U.S. mail'],
  ['operation_class_federal_govt', 'Federal government'],
  ['operation_class_state_govt', 'State government'],
  ['operation_class_local_govt', 'Local government'],
  ['operation_class_indian_nation', 'Indian nation'],
];

const CARRIER_FLAGS: readonly (readonly [FlagField, string])[] = [
  ['private', 'Private'],
  ['enterprise', 'Enterprise'],
  ['household_goods', 'Household goods'],
  ['passenger', 'Passenger carrier'],
  ['property', 'Property carrier'],
  ['hazardous_material', 'Hazardous materials'],
  ['phmsa_flag', 'PHMSA registered'],
  ['smartway_flag', 'SmartWay partner'],
  ['carbtru_flag', 'CARB TRU'],
];

const CARGO: readonly (readonly [FlagField, string])[] = [
  ['general_freight', 'General freight'],
  ['household', 'Household goods'],
  ['metal_sheet_coils_rolls', 'Metal: sheets, coils, rolls'],
  ['motor_vehicles', 'Motor vehicles'],
  ['driveaway_towaway', 'Drive-away / tow-away'],
  ['logs_poles_beams_lumber', 'Logs, poles, beams, lumber'],
  ['building_materials', 'Building materials'],
  ['mobile_homes', 'Mobile homes'],
  ['machinery_large_objects', 'Machinery, large objects'],
  ['fresh_produce', 'Fresh produce'],
  ['liquids_gases', 'Liquids / gases'],
  ['intermodal_containers', 'Intermodal containers'],
  ['passengers', 'Passengers'],
  ['oilfield_equipment', 'Oilfield equipment'],
  ['livestock', 'Livestock'],
  ['grain_feed_hay', 'Grain, feed, hay'],
  ['coal_coke', 'Coal / coke'],
  ['meat', 'Meat'],
  ['garbage_refuse_trash', 'Garbage, refuse, trash'],
  ['chemicals', 'Chemicals'],
  ['us_mail', 'U.S. mail'],
  ['dry_bulk_commodities', 'Dry bulk commodities'],
  ['refrigerated_foods', 'Refrigerated food'],
  ['beverages', 'Beverages'],
  ['paper_products', 'Paper products'],
  ['utility', 'Utilities'],
  ['farm_supplies', 'Farm supplies'],
  ['construction', 'Construction'],
  ['water_well', 'Water well'],
  ['other_cargo', 'Other'],
];

export const operationClasses = (p: Profile) => checklist(p, OPERATION_CLASSES);
export const carrierFlags = (p: Profile) => checklist(p, CARRIER_FLAGS);

/** Cargo flags: only those the profile reports, so an absent family stays "not reported". */
export function cargoFlags(profile: Profile): CheckItem[] {
  return checklist(profile, CARGO).filter((item) => item.value !== undefined);
}

/** Cargo types flagged true, as labels (for a summary line). */
export function cargoCarried(profile: Profile): string[] {
  return cargoFlags(profile)
    .filter((item) => item.value === true)
    .map((item) => item.label);
}

export interface DriverRow {
  scope: 'Interstate' | 'Intrastate';
  within: number | undefined;
  beyond: number | undefined;
  total: number | undefined;
}

export function driverMatrix(p: Profile): DriverRow[] {
  return [
    {
      scope: 'Interstate',
      within: p.num_drivers_interstate_within_100mi,
      beyond: p.num_drivers_interstate_beyond_100mi,
      total: p.num_drivers_interstate_total,
    },
    {
      scope: 'Intrastate',
      within: p.num_drivers_intrastate_within_100mi,
      beyond: p.num_drivers_intrastate_beyond_100mi,
      total: p.num_drivers_intrastate_total,
    },
  ];
}

export interface UnitRow {
  label: string;
  total: number | undefined;
  owned: number | undefined;
  termLeased: number | undefined;
}

/** Power units, trucks, trailers and buses: total, owned, term-leased (what the profile carries). */
export function unitMatrix(p: Profile): UnitRow[] {
  return [
    { label: 'Power units', total: p.total_power_units, owned: undefined, termLeased: undefined },
    {
      label: 'Tractors / trucks',
      total: p.total_trucks,
      owned: p.owned_tractors,
      termLeased: sumKnown(p.term_leased_tractors, p.term_leased_trucks),
    },
    {
      label: 'Trailers',
      total: p.total_trailers,
      owned: p.owned_trailers,
      termLeased: p.term_leased_trailers,
    },
    { label: 'Buses', total: p.total_buses, owned: undefined, termLeased: undefined },
  ];
}

function sumKnown(...values: (number | undefined)[]): number | undefined {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length ? known.reduce((a, b) => a + b, 0) : undefined;
}

export interface LoadMonth {
  month: string;
  total: number | undefined;
  ltl: number | undefined;
  ftl: number | undefined;
  deadheads: number | undefined;
}

function field(item: unknown, key: string): unknown {
  return typeof item === 'object' && item !== null
    ? (item as Record<string, unknown>)[key]
    : undefined;
}

function countOf(item: unknown, key: string): number | undefined {
  const read = readKind('count', field(item, key));
  return read.ok ? read.value : undefined;
}

/** `load_summary` items with a readable month, oldest first. */
export function loadMonths(profile: Profile): LoadMonth[] {
  const rows: LoadMonth[] = [];
  for (const item of profile.load_summary ?? []) {
    const month = readKind('date', field(item, 'month'));
    if (!month.ok || month.value === undefined) continue;
    rows.push({
      month: month.value,
      total: countOf(item, 'total_loads'),
      ltl: countOf(item, 'ltl_loads'),
      ftl: countOf(item, 'ftl_loads'),
      deadheads: countOf(item, 'deadheads'),
    });
  }
  return rows.sort((a, b) => a.month.localeCompare(b.month));
}

/** True when the profile carries any load figure. */
export function hasLoads(p: Profile): boolean {
  return (
    p.total_loads !== undefined ||
    p.first_load_date !== undefined ||
    p.last_load_date !== undefined ||
    loadMonths(p).length > 0
  );
}

/** `equipment_history` as CSV: one vehicle a line, every vehicle (not only the rows shown). */
export const EQUIPMENT_CSV: readonly CsvColumn<Vehicle>[] = [
  { header: 'vin', value: (v) => v.vin },
  { header: 'unit_type', value: (v) => v.unit_type_desc ?? v.type },
  { header: 'primary_category', value: (v) => v.primary_category },
  { header: 'make', value: (v) => v.make },
  { header: 'model', value: (v) => v.model },
  { header: 'model_year', value: (v) => v.model_year },
  { header: 'plate', value: (v) => v.insp_unit_license },
  { header: 'plate_state', value: (v) => v.insp_unit_license_state },
  { header: 'unit', value: (v) => v.insp_unit_company },
  { header: 'inspections', value: (v) => v.inspections_total_vin_dot ?? v.inspections_total_vin },
  {
    header: 'last_inspected',
    value: (v) => v.last_inspection_date_vin_dot ?? v.last_inspection_date_vin,
  },
  { header: 'multi_dot', value: (v) => v.multi_dot_flag },
  { header: 'dots_with_vin', value: (v) => v.countd_dots_vin },
];
