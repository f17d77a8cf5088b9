/** Wire families: scores, BASICs, violations, inspection/crash counters, benchmarks. */
import {
  BASICS,
  VIOLATION_BASICS,
  interventionThreshold,
  isDriverBasic,
  type Basic,
} from './basics.ts';
import { ageInDays } from './calendar.ts';
import { NATIONAL_OOS, isDriverInspection, isVehicleInspection, timeWeight, type Derived } from './derive.ts';
import type { CarrierModel, Inspection } from './model.ts';
import { compact, count, maxDate, ratio, round2, type Fields } from './wire-helpers.ts';

/** SMS-style measure: time- and severity-weighted violations per time-weighted relevant inspection. */
export function basicMeasure(
  inspections: readonly Inspection[],
  basic: Basic,
  asOf?: string,
): number | undefined {
  let weighted = 0;
  let exposure = 0;
  for (const i of inspections) {
    const tw = timeWeight(i.date, asOf);
    if (tw === 0) continue;
    const relevant =
      basic === 'hazardous_materials'
        ? i.hazmat
        : isDriverBasic(basic)
          ? isDriverInspection(i)
          : isVehicleInspection(i);
    if (!relevant) continue;
    exposure += tw;
    let severity = 0;
    for (const v of i.violations) {
      if (v.type.basic === basic) severity += v.type.severity + (v.oos ? 2 : 0);
    }
    weighted += Math.min(severity, 30) * tw;
  }
  return exposure > 0 ? round2(weighted / exposure) : undefined;
}

function crashMeasure(model: CarrierModel): number | undefined {
  const units = model.fleet?.powerUnits ?? 0;
  if (units === 0 || model.crashes.length === 0) return undefined;
  const weighted = model.crashes.reduce(
    (sum, c) => sum + (c.fatalities + c.injuries > 0 ? 2 : 1) * timeWeight(c.date),
    0,
  );
  return round2((weighted / units) * 10);
}

export function basicFields(model: CarrierModel, d: Derived): Fields {
  const out: Fields = {};
  for (const basic of BASICS) {
    const measure =
      basic === 'crash_indicator' ? crashMeasure(model) : basicMeasure(model.inspections, basic);
    const percentile = d.percentiles[basic];
    const alert = d.alerts.includes(basic);
    out[`basic_measure_${basic}`] = measure === undefined ? undefined : measure.toFixed(2);
    out[`basic_percentile_${basic}`] = percentile;
    out[`basic_alert_${basic}`] = alert;
    out[`basic_roadside_alert_${basic}`] = alert && basic !== 'crash_indicator';
    if (basic !== 'crash_indicator') {
      out[`basic_ac_indicator_${basic}`] = model.acuteCritical?.includes(basic) ?? false;
    }
    out[`intervention_threshold_${basic}`] = interventionThreshold(d.carrierClass, basic);
  }
  return compact(out);
}

export function violationFields(model: CarrierModel): Fields {
  const out: Fields = {};
  let total = 0;
  const dates: string[] = [];
  for (const basic of VIOLATION_BASICS) {
    let all = 0;
    let severe = 0;
    let oos = 0;
    for (const i of model.inspections) {
      for (const v of i.violations) {
        if (v.type.basic !== basic) continue;
        all += 1;
        if (v.type.severity >= 7) severe += 1;
        if (v.oos) oos += 1;
        dates.push(i.date);
      }
    }
    total += all;
    out[`violations_${basic}`] = count(all);
    out[`violations_severe_${basic}`] = count(severe);
    out[`violations_oos_${basic}`] = count(oos);
  }
  return compact({ ...out, violations_total: count(total), last_violation_date: maxDate(dates) });
}

export function inspectionFields(model: CarrierModel, d: Derived): Fields {
  const t = d.tally;
  const units = new Set<string>();
  const trailers = new Set<string>();
  for (const i of model.inspections) {
    for (const u of i.units) (u.model.kind === 'TRAILER' ? trailers : units).add(u.vin);
  }
  const rate = (oos: number, n: number) => (n > 0 ? oos / n : 0);
  return compact({
    inspections_total: count(t.total),
    inspections_driver: count(t.driver),
    inspections_vehicle: count(t.vehicle),
    inspections_hazmat: count(t.hazmat),
    inspections_driver_out_of_service: count(t.driverOos),
    inspections_vehicle_out_of_service: count(t.vehicleOos),
    inspections_hazmat_out_of_service: count(t.hazmatOos),
    inspections_driver_out_of_service_pct: ratio(t.driverOos, t.driver),
    inspections_vehicle_out_of_service_pct: ratio(t.vehicleOos, t.vehicle),
    inspections_hazmat_out_of_service_pct: ratio(t.hazmatOos, t.hazmat),
    natl_avg_oos_vehicle: String(NATIONAL_OOS.vehicle),
    natl_avg_oos_driver: String(NATIONAL_OOS.driver),
    natl_avg_oos_hazmat: String(NATIONAL_OOS.hazmat),
    oos_alert_driver: rate(t.driverOos, t.driver) > NATIONAL_OOS.driver,
    oos_alert_vehicle: rate(t.vehicleOos, t.vehicle) > NATIONAL_OOS.vehicle,
    oos_alert_hazmat: rate(t.hazmatOos, t.hazmat) > NATIONAL_OOS.hazmat,
    inspected_states: count(d.inspectedStates.size),
    inspected_power_units: count(units.size),
    inspected_trailers: count(trailers.size),
    last_inspection_date: d.lastInspection,
  });
}

export function crashFields(model: CarrierModel): Fields {
  const sum = (f: (c: CarrierModel['crashes'][number]) => number) =>
    model.crashes.reduce((acc, c) => acc + f(c), 0);
  return compact({
    crashes_total: count(model.crashes.length),
    crash_fatalities: count(sum((c) => c.fatalities)),
    crash_injuries: count(sum((c) => c.injuries)),
    crashes_tow_away: count(sum((c) => (c.towAway ? 1 : 0))),
    last_crash_date: maxDate(model.crashes.map((c) => c.date)),
  });
}

export interface Benchmarks {
  im: [number, number, number];
  irpu: [number, number, number];
  pum: [number, number, number];
  flags: { im: boolean; irpu: boolean; pum: boolean };
}

/** Observed ratios against expected industry bands (inspections/mileage/power units). */
export function benchmarks(model: CarrierModel): Benchmarks | undefined {
  const fleet = model.fleet;
  if (!fleet || fleet.powerUnits === 0) return undefined;
  const recent = model.inspections.filter((i) => ageInDays(i.date) <= 730).length;
  const inspectedUnits = new Set(
    model.inspections.flatMap((i) => i.units.filter((u) => u.model.kind === 'POWER UNIT').map((u) => u.vin)),
  ).size;
  const im = fleet.mileage > 0 ? recent / ((fleet.mileage * 2) / 1_000_000) : 0;
  const irpu = inspectedUnits / fleet.powerUnits;
  const pum = fleet.mileage / fleet.powerUnits;
  const outside = (value: number, lo: number, hi: number) => value < lo || value > hi;
  return {
    im: [round2(im), 0.5, 6],
    irpu: [round2(irpu), 0.2, 1],
    pum: [Math.round(pum), 40_000, 140_000],
    flags: { im: outside(im, 0.5, 6), irpu: outside(irpu, 0.2, 1), pum: outside(pum, 40_000, 140_000) },
  };
}

export function benchmarkFields(b: Benchmarks | undefined): Fields {
  if (!b) return {};
  const triple = (name: string, [obs, lo, hi]: [number, number, number]) => ({
    [`observed_${name}`]: String(obs),
    [`expected_lb_${name}`]: String(lo),
    [`expected_ub_${name}`]: String(hi),
  });
  return {
    ...triple('IM', b.im),
    ...triple('IRPU', b.irpu),
    ...triple('PUM', b.pum),
    indicator_benchmark_inspection_mileage_ratio: b.flags.im,
    indicator_benchmark_inspected_power_units_ratio: b.flags.irpu,
    indicator_benchmark_power_unit_mileage_ratio: b.flags.pum,
  };
}

function issOf(model: CarrierModel, d: Derived): { value: number; reason: string } {
  const worst = Math.max(0, ...Object.values(d.percentiles));
  const some = Object.keys(d.percentiles).length > 0;
  const reason =
    d.alerts.length > 1
      ? 'Multiple BASIC Alerts'
      : d.alerts.length === 1
        ? 'One BASIC Alert'
        : some
          ? 'No BASIC Alerts'
          : 'Insufficient Safety Data';
  if (model.issValue !== undefined) return { value: model.issValue, reason };
  if (d.alerts.length > 1) return { value: Math.min(100, 75 + d.alerts.length * 5), reason };
  if (d.alerts.length === 1) return { value: 50 + Math.round(worst * 24), reason };
  if (!some) return { value: d.tally.total === 0 ? 70 : 60, reason };
  return { value: 1 + Math.round(worst * 48), reason };
}

function recommendation(iss: number): string {
  if (iss >= 75) return 'INSPECT';
  return iss >= 50 ? 'OPTIONAL' : 'PASS';
}

/** True when the carrier meets the safe-carrier criteria; null where the indicator does not apply. */
function carrierSafety(model: CarrierModel, d: Derived): boolean | null {
  if (model.operation === 'intrastate') return null;
  const t = d.tally;
  return (
    t.total > 0 &&
    d.alerts.length === 0 &&
    model.rating.desc !== 'Conditional' &&
    model.rating.desc !== 'Unsatisfactory' &&
    (t.vehicle === 0 || t.vehicleOos / t.vehicle < NATIONAL_OOS.vehicle) &&
    (t.driver === 0 || t.driverOos / t.driver < NATIONAL_OOS.driver)
  );
}

export function scoreFields(model: CarrierModel, d: Derived, b: Benchmarks | undefined): Fields {
  const iss = issOf(model, d);
  const percentiles = Object.values(d.percentiles);
  const mean = percentiles.reduce((s, p) => s + p, 0) / Math.max(1, percentiles.length);
  return compact({
    iss_value: count(iss.value),
    iss_recommendation: recommendation(iss.value),
    iss_recommendation_reason: iss.reason,
    risk_score: model.risk?.level,
    risk_score_probability: model.risk?.probability,
    safety_score: percentiles.length > 0 ? count(100 * (1 - mean)) : undefined,
    safety_rating_desc: model.rating.desc,
    safety_rating_date: model.rating.date,
    latest_review_type_desc: model.review?.type,
    latest_review_date: model.review?.date,
    mcs151_type_desc: model.review?.type,
    mcs151_date: model.review?.date,
    mcs151_year: model.review?.date.slice(0, 4),
    indicator_carrier_safety: carrierSafety(model, d),
    indicator_industry_benchmarks: b ? b.flags.im || b.flags.irpu || b.flags.pum : false,
  });
}
