/** Wire families made of records: inspections, crashes, equipment, BASIC history, network, loads. */
import { BASIC_LABELS, BASICS, HISTORY_BASICS, VIOLATION_GROUP_IDS } from './basics.ts';
import { SNAPSHOT_DATE, SNAPSHOT_DAY, dateOf, dayOf, monthOf } from './calendar.ts';
import { isDriverInspection, isVehicleInspection, timeWeight } from './derive.ts';
import { basicMeasure } from './families-safety.ts';
import type { CarrierModel, Crash, Inspection, NetworkKind, Unit } from './model.ts';
import { laneCode } from './places.ts';
import { hash, hashString } from './prng.ts';
import { compact, count, maxDate, ratio, type Fields } from './wire-helpers.ts';

const pad2 = (n: number) => String(n).padStart(2, '0');
const clock = (minute: number) => `${pad2(Math.floor(minute / 60) % 24)}${pad2(minute % 60)}`;
const titleCase = (text: string) => text.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase());

/** Numeric record id, stable for a carrier + report number. */
function recordId(dot: string, report: string): string {
  return String(1_000_000 + (hash(hashString(dot), hashString(report)) % 98_000_000));
}

function vinItem(u: Unit, index: number): Fields {
  return {
    vin: u.vin,
    insp_unit_id: String(index + 1),
    insp_unit_type_id: u.model.kind === 'TRAILER' ? '9' : '11',
    insp_unit_type_desc: u.model.unitTypeDesc,
    insp_unit_make: u.model.make,
    insp_unit_license: u.plate,
    insp_unit_license_state: u.plateState,
    insp_unit_company: u.unitNumber,
  };
}

const CATEGORY = { D: ['1', 'Driver', 'Driver'], '1': ['2', 'Vehicle', 'Truck'], '2': ['2', 'Vehicle', 'Trailer'] };

function violationItems(dot: string, i: Inspection, inspectionId: string): Fields[] {
  const tw = timeWeight(i.date);
  return i.violations.map((v, seq) => {
    const [categoryId = '', category = '', unitDesc = ''] =
      v.type.basic === 'hazardous_materials' ? ['3', 'Hazmat', 'Truck'] : CATEGORY[v.type.unit];
    const [part = '', section = ''] = v.type.code.split(/\.(.*)/s);
    const oosWeight = v.oos ? 2 : 0;
    return compact({
      _id: `${inspectionId}-${seq + 1}`,
      report_number: i.reportNumber,
      report_state: i.state,
      insp_date: i.date,
      change_date: i.date,
      inspection_id: inspectionId,
      violation_id: recordId(dot, `${i.reportNumber}/${seq}`),
      viol_code: v.type.code,
      part_no: part,
      part_no_section: section,
      seq_no: String(seq + 1),
      basic_group_id: String(BASICS.indexOf(v.type.basic) + 1),
      basic_group_desc: BASIC_LABELS[v.type.basic],
      viol_group_id: String(VIOLATION_GROUP_IDS[v.type.group] ?? 0),
      viol_group_desc: v.type.group,
      viol_desc: v.type.desc,
      viol_category_id: categoryId,
      viol_category_desc: category,
      viol_type: category.charAt(0),
      viol_unit_id: v.type.unit === 'D' ? 'D' : String(v.unitIndex + 1),
      viol_unit_desc: v.type.unit === 'D' ? 'Driver' : unitDesc,
      insp_unit_id: v.type.unit === 'D' ? undefined : String(v.unitIndex + 1),
      oos_indicator: v.oos,
      defect_verification_id: v.oos && v.type.unit !== 'D' ? '2' : undefined,
      defect_verification_desc: v.oos && v.type.unit !== 'D' ? 'Repaired' : undefined,
      citation_number: v.type.severity >= 7 ? `C${i.reportNumber.slice(-6)}${seq}` : undefined,
      oos_weight: String(oosWeight),
      severity_weight: String(v.type.severity),
      time_weight: String(tw),
      total_severity_weight: String((v.type.severity + oosWeight) * tw),
      included_in_sms_flag: tw > 0,
    });
  });
}

export function inspectionItem(dot: string, i: Inspection): Fields {
  const id = recordId(dot, i.reportNumber);
  const tally = (pred: (u: string) => boolean, oosOnly: boolean) =>
    count(i.violations.filter((v) => pred(v.type.unit) && (!oosOnly || v.oos) && v.type.basic !== 'hazardous_materials').length);
  const hazmatCount = (oosOnly: boolean) =>
    count(i.violations.filter((v) => v.type.basic === 'hazardous_materials' && (!oosOnly || v.oos)).length);
  const driver = (u: string) => u === 'D';
  const vehicle = (u: string) => u !== 'D';
  const hasBasic = (b: string) => i.violations.some((v) => v.type.basic === b);
  const tw = timeWeight(i.date);
  return {
    _id: id,
    report_state: i.state,
    report_number: i.reportNumber,
    insp_date: i.date,
    insp_start_time: clock(i.startMinute),
    insp_end_time: clock(i.startMinute + i.durationMinutes),
    ci_status_code: 'C',
    county_code_state: String(hash(hashString(i.city)) % 200).padStart(3, '0'),
    county_name: titleCase(i.city),
    latitude: i.lat,
    longitude: i.lon,
    geo_point: { lat: i.lat, lon: i.lon },
    insp_level_id: String(i.level),
    insp_facility: i.fixedSite ? 'Fixed Site' : 'Roadside',
    location_desc: `${i.city}, ${i.state}`,
    hazmat_placard_req: i.hazmat,
    alcohol_control_sub: hasBasic('controlled_substance'),
    drug_intrdctn_search: false,
    drug_intrdctn_arrests: '0',
    size_weight_enf: i.fixedSite,
    traffic_enf: hasBasic('unsafe_driving'),
    gross_comb_veh_wt: count(i.grossWeight),
    viol_total: count(i.violations.length),
    oos_total: count(i.violations.filter((v) => v.oos).length),
    driver_viol_total: tally(driver, false),
    driver_oos_total: tally(driver, true),
    vehicle_viol_total: tally(vehicle, false),
    vehicle_oos_total: tally(vehicle, true),
    hazmat_viol_total: hazmatCount(false),
    hazmat_oos_total: hazmatCount(true),
    time_weight: String(tw),
    unsafe_insp: isDriverInspection(i),
    fatigued_insp: isDriverInspection(i),
    dr_fitness_insp: isDriverInspection(i),
    subt_alcohol_insp: isDriverInspection(i),
    vh_maint_insp: isVehicleInspection(i),
    hm_insp: i.hazmat,
    vins: i.units.map(vinItem),
    violations: violationItems(dot, i, id),
    included_in_sms_flag: tw > 0,
  };
}

const WEATHER = ['No Adverse Conditions', 'Rain', 'Snow', 'Fog'];
const LIGHT = ['Daylight', 'Dark - Not Lighted', 'Dark - Lighted'];
const SURFACE = ['Dry', 'Wet', 'Snow'];

export function crashItem(dot: string, c: Crash): Fields {
  const id = recordId(dot, c.reportNumber);
  const tractor = c.unit.model.primaryCategory === 'TRACTOR';
  return {
    _id: id,
    changed_date: `${dateOf(Math.min(dayOf(c.date) + 2, SNAPSHOT_DAY - 1))}T00:00:00`,
    report_state: c.state,
    report_number: c.reportNumber,
    report_date: c.date,
    report_time: c.time,
    report_seq_no: '1',
    dot_number: dot,
    ci_status_code: 'C',
    final_status_date: dateOf(Math.min(dayOf(c.date) + 2, SNAPSHOT_DAY - 1)),
    location: c.location,
    city: c.city,
    state: c.state,
    county_code: String(hash(hashString(c.city)) % 200).padStart(3, '0'),
    county_name: titleCase(c.city),
    latitude: c.lat,
    longitude: c.lon,
    geo_point: { lat: c.lat, lon: c.lon },
    truck_bus_ind: c.unit.model.vehicleType === 'BUS' ? 'B' : 'T',
    trafficway_id: '2',
    trafficway_desc: 'Two-Way Trafficway, Divided, Unprotected Median',
    access_control_id: '1',
    access_control_desc: 'Full Control',
    road_surface_condition_id: String(c.surface),
    road_surface_condition_desc: SURFACE[c.surface - 1],
    cargo_body_type_id: tractor ? '3' : '12',
    cargo_body_type_desc: tractor ? 'Van/Enclosed Box' : 'Not applicable',
    gvw_rating_id: '3',
    vehicle_identification_number: c.unit.vin,
    vehicle_license_number: c.unit.plate,
    vehicle_license_state: c.unit.plateState,
    vehicle_hazmat_placard: false,
    weather_condition_id: String(c.weather),
    weather_condition_desc: WEATHER[c.weather - 1],
    vehicle_configuration_id: tractor ? '9' : '5',
    vehicle_configuration_desc: tractor ? 'Tractor/Semitrailer' : 'Single-Unit Truck (2-Axel, 6-Tire)',
    light_condition_id: String(c.light),
    light_condition_desc: LIGHT[c.light - 1],
    hazmat_released: c.hazmatReleased,
    agency: `${c.state} STATE POLICE`,
    vehicles_in_accident: count(c.vehicles),
    fatalities: count(c.fatalities),
    injuries: count(c.injuries),
    tow_away: c.towAway,
    federal_recordable: c.fatalities > 0 || c.injuries > 0 || c.towAway,
    state_recordable: false,
    crash_event_seq_id_desc: c.vehicles > 1 ? 'Collision Involving Motor Vehicle in Transport' : 'Ran Off Road',
    included_in_sms_flag: timeWeight(c.date) > 0,
  };
}

export function crashAggregates(model: CarrierModel): Fields[] {
  const months = new Map<string, Crash[]>();
  for (const c of model.crashes) {
    const key = monthOf(c.date);
    months.set(key, [...(months.get(key) ?? []), c]);
  }
  const vmt = model.fleet ? Math.round(model.fleet.mileage / 12) : 0;
  return [...months.entries()]
    .sort(([a], [b]) => (a < b ? 1 : -1))
    .map(([month, crashes]) => {
      const recordable = crashes.filter((c) => c.fatalities > 0 || c.injuries > 0 || c.towAway).length;
      return compact({
        _id: month.replaceAll('-', ''),
        report_month: month,
        crashes_total: count(crashes.length),
        crashes_total_recordable: count(recordable),
        crashes_tow_away: count(crashes.filter((c) => c.towAway).length),
        crash_fatalities: count(crashes.reduce((s, c) => s + c.fatalities, 0)),
        crash_injuries: count(crashes.reduce((s, c) => s + c.injuries, 0)),
        vehicle_miles_traveled: vmt > 0 ? count(vmt) : undefined,
        total_power_units: model.fleet ? count(model.fleet.powerUnits) : undefined,
        crash_rate: vmt > 0 ? ratio(crashes.length * 1_000_000, vmt) : undefined,
        crash_rate_recordable: vmt > 0 ? ratio(recordable * 1_000_000, vmt) : undefined,
      });
    });
}

interface VinStats {
  count: number;
  last?: string;
}

function vinStats(model: CarrierModel): Map<string, VinStats> {
  const stats = new Map<string, VinStats>();
  for (const i of model.inspections) {
    for (const u of i.units) {
      const s = stats.get(u.vin) ?? { count: 0 };
      s.count += 1;
      s.last = maxDate([s.last ?? i.date, i.date]);
      stats.set(u.vin, s);
    }
  }
  return stats;
}

function equipmentItem(u: Unit, dot: string, stats: VinStats | undefined, nextId: string): Fields {
  const m = u.model;
  return compact({
    _id: nextId,
    vin: u.vin,
    type: m.kind,
    unit_type_desc: m.unitTypeDesc,
    primary_category: m.primaryCategory,
    insp_unit_license: u.plate,
    insp_unit_license_state: u.plateState,
    insp_unit_company: u.unitNumber,
    inspections_total_vin: count(stats?.count ?? 0),
    inspections_total_vin_dot: count(stats?.count ?? 0),
    countd_dots_vin: count(1 + u.sharedWith.length),
    multi_dot_flag: u.sharedWith.length > 0,
    last_inspection_date_vin: stats?.last,
    last_inspection_date_vin_dot: stats?.last,
    last_inspected_under_dot: stats ? dot : undefined,
    most_recent_inspection_flag: stats !== undefined,
    make: m.make,
    model: m.model,
    model_year: String(u.modelYear),
    vehicle_type: m.vehicleType,
    gvwr: m.gvwr,
    body_class: m.bodyClass,
    ncsa_body_type: m.ncsaBodyType,
    body_cab_type: m.cabType,
    fuel_type_primary: m.fuel,
    other_trailer_info: m.otherTrailerInfo,
    trailer_body_type: m.trailerBodyType,
    trailer_type: m.trailerType,
  });
}

function summarise(units: readonly Unit[], category: (u: Unit) => string): Fields[] {
  const counts = new Map<string, { type: string; category: string; count: number }>();
  for (const u of units) {
    const key = `${u.model.kind}|${category(u)}`;
    const entry = counts.get(key) ?? { type: u.model.kind, category: category(u), count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  return [...counts.values()].map((e) => ({ ...e, count: count(e.count) }));
}

export function equipmentFields(model: CarrierModel): Fields {
  const stats = vinStats(model);
  return {
    equipment_summary: {
      primary_category: summarise(model.units, (u) => u.model.primaryCategory),
      secondary_category: summarise(model.units, (u) => u.model.trailerBodyType ?? u.model.bodyClass),
    },
    equipment_history: model.units.map((u, index) =>
      equipmentItem(u, model.dot, stats.get(u.vin), String(recordId(model.dot, `unit${index}`))),
    ),
  };
}

/** Month-end snapshots of the five tracked BASICs over the 24 months before each snapshot. */
export function basicHistory(model: CarrierModel): Fields[] {
  const out: Fields[] = [];
  const [year = 2026, month = 1] = SNAPSHOT_DATE.split('-').map(Number);
  for (let back = 1; back <= model.basicHistoryMonths; back += 1) {
    const asOf = dateOf(Math.round(Date.UTC(year, month - back, 0) / 86_400_000));
    const window = model.inspections.filter((i) => i.date <= asOf && timeWeight(i.date, asOf) > 0);
    const row: Fields = {
      snapshot_date: asOf,
      inspections_total: count(window.length),
      inspections_vehicle: count(window.filter(isVehicleInspection).length),
      inspections_vehicle_out_of_service: count(
        window.filter((i) => i.violations.some((v) => v.oos && v.type.unit !== 'D')).length,
      ),
      inspections_driver: count(window.filter(isDriverInspection).length),
      inspections_driver_out_of_service: count(
        window.filter((i) => i.violations.some((v) => v.oos && v.type.unit === 'D')).length,
      ),
    };
    for (const b of HISTORY_BASICS) {
      row[`inspections_w_violations_${b}`] = count(
        window.filter((i) => i.violations.some((v) => v.type.basic === b)).length,
      );
      row[`basic_measure_${b}`] = basicMeasure(window, b, asOf) ?? 0;
      row[`basic_ac_indicator_${b}`] = model.acuteCritical?.includes(b) ?? false;
    }
    out.push(row);
  }
  return out;
}

const NETWORK_COUNT_NAMES: Record<NetworkKind, string> = {
  physical_address: 'physical_address',
  mailing_address: 'mailing_address',
  telephone_number: 'telephone_numbers',
  cellphone_number: 'cellphone_numbers',
  fax_number: 'fax_numbers',
  email: 'email_address',
  ein: 'ein',
  duns: 'duns',
  equipment: 'equipment',
};

export function networkFields(model: CarrierModel): Fields {
  const out: Fields = {};
  for (const kind of Object.keys(NETWORK_COUNT_NAMES) as NetworkKind[]) {
    const list = model.network[kind] ?? [];
    out[`network_graph_${kind}`] = list;
    out[`network_graph_count_${NETWORK_COUNT_NAMES[kind]}`] = count(list.length);
  }
  const contactKinds: NetworkKind[] = [
    'physical_address',
    'mailing_address',
    'telephone_number',
    'cellphone_number',
    'fax_number',
    'email',
    'ein',
    'duns',
  ];
  const sharedPower = model.units.filter((u) => u.sharedWith.length > 0 && u.model.kind === 'POWER UNIT');
  const sharedTrailers = model.units.filter((u) => u.sharedWith.length > 0 && u.model.kind === 'TRAILER');
  const nextId = (dot: string) => recordId(model.dot, `link${dot}`);
  return {
    indicator_network_graph_contact: contactKinds.some((k) => (model.network[k] ?? []).length > 0),
    indicator_network_graph_equipment: (model.network.equipment ?? []).length > 0,
    ...out,
    network_graph_equipment_ext: model.equipmentLinks.map((l) =>
      compact({
        _id: nextId(l.dot),
        dot_number: l.dot,
        dockets: l.dockets,
        legal_name: l.legalName,
        entity_type_desc: l.entityType,
        usdot_status: l.usdotStatus,
        out_of_service_flag: l.outOfService,
        carrier_operation_desc: l.operation,
        hazardous_material_flag: l.hazmat,
        count_shared_vins: count(l.sharedVins.length),
        shared_vins: l.sharedVins.map((u, i) => equipmentItem(u, l.dot, undefined, `${nextId(l.dot)}-${i + 1}`)),
        count_shared_power_units: count(l.sharedVins.filter((u) => u.model.kind === 'POWER UNIT').length),
        count_shared_trailers: count(l.sharedVins.filter((u) => u.model.kind === 'TRAILER').length),
      }),
    ),
    network_graph_count_power_units: count(sharedPower.length),
    network_graph_count_trailers: count(sharedTrailers.length),
    shared_power_units: count(sharedPower.length),
    shared_trailers: count(sharedTrailers.length),
  };
}

export function loadFields(model: CarrierModel): Fields {
  const l = model.loads;
  if (!l) return {};
  const ftl = l.total - l.ltl;
  const months: string[] = [];
  for (let m = monthOf(l.first); m <= l.last; m = monthOf(dateOf(dayOf(m) + 32))) months.push(m);
  const share = (n: number, i: number) =>
    Math.floor(n / months.length) + (i < n % months.length ? 1 : 0);
  const pct = (n: number) => Math.round((n / Math.max(1, l.total)) * 1000) / 10;
  return {
    total_loads: count(l.total),
    ltl_loads: count(l.ltl),
    ftl_loads: count(ftl),
    deadheads: count(l.deadheads),
    first_load_date: l.first,
    last_load_date: l.last,
    ltl_percentage: pct(l.ltl),
    ftl_percentage: pct(ftl),
    deadhead_percentage: pct(l.deadheads),
    load_summary: months.map((month, i) => ({
      _id: month.replaceAll('-', '').slice(0, 6),
      month,
      total_loads: count(share(l.total, i)),
      ltl_loads: count(share(l.ltl, i)),
      ftl_loads: count(share(ftl, i)),
      deadheads: count(share(l.deadheads, i)),
    })),
  };
}

export function laneFields(model: CarrierModel): Fields {
  const perState = new Map<string, number>();
  for (const i of model.inspections) perState.set(i.state, (perState.get(i.state) ?? 0) + 1);
  const lanes = [...perState.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 5)
    .map(([state, n]) => ({ state: laneCode(state), inspections: count(n) }));
  return { preferred_lanes: lanes };
}
