/**
 * Pure data building for the Safety tab: which default thresholds apply, and the rows the BASIC
 * chart, history chart, out-of-service chart, violations and benchmark tables draw.
 */
import {
  BASIC_CATEGORIES,
  BASIC_LABELS,
  HISTORY_BASICS,
  SERVICE_COMPUTED_BASICS,
  VIOLATION_CATEGORIES,
  interventionThreshold,
  type BasicCategory,
  type CarrierClass,
  type Profile,
} from '../../../../../lib/service/index.ts';

/** Passenger carriers first (FMCSA applies the lower thresholds), then hazmat, else general. */
export function carrierClassOf(profile: Profile): CarrierClass {
  if (
    profile.passenger === true ||
    profile.operation_class_private_pass_business === true ||
    profile.operation_class_private_pass_non_business === true
  ) {
    return 'passenger';
  }
  if (profile.hazardous_material === true || profile.phmsa_flag === true) return 'hazmat';
  return 'general';
}

export interface BasicRow {
  category: BasicCategory;
  label: string;
  /** 0–1; undefined when data sufficiency is not met */
  percentile: number | undefined;
  threshold: number;
  /** where the threshold came from: the profile's own field or the carrier-class default */
  thresholdSource: 'profile' | 'default';
  measure: number | undefined;
  alert: boolean;
  roadsideAlert: boolean;
  /** acute/critical violation indicator (crash_indicator has none) */
  acuteCritical: boolean;
  insufficientData: boolean;
  serviceComputed: boolean;
}

function thresholdOf(profile: Profile, carrierClass: CarrierClass, category: BasicCategory) {
  const own = profile[`intervention_threshold_${category}`];
  return own === undefined
    ? {
        threshold: interventionThreshold(carrierClass, category),
        thresholdSource: 'default' as const,
      }
    : { threshold: own, thresholdSource: 'profile' as const };
}

function acuteCriticalOf(profile: Profile, category: BasicCategory): boolean {
  return category === 'crash_indicator'
    ? false
    : profile[`basic_ac_indicator_${category}`] === true;
}

/** One row per BASIC, in the service's category order. */
export function buildBasicRows(profile: Profile): BasicRow[] {
  const carrierClass = carrierClassOf(profile);
  return BASIC_CATEGORIES.map((category) => {
    const percentile = profile[`basic_percentile_${category}`];
    return {
      category,
      label: BASIC_LABELS[category],
      percentile,
      ...thresholdOf(profile, carrierClass, category),
      measure: profile[`basic_measure_${category}`],
      alert: profile[`basic_alert_${category}`] === true,
      roadsideAlert: profile[`basic_roadside_alert_${category}`] === true,
      acuteCritical: acuteCriticalOf(profile, category),
      insufficientData: percentile === undefined,
      serviceComputed: SERVICE_COMPUTED_BASICS.includes(category),
    };
  });
}

/** The words for a row's markers (never colour alone). */
export function basicMarkers(row: BasicRow): string[] {
  const markers: string[] = [];
  if (row.alert) markers.push('Alert');
  if (row.roadsideAlert) markers.push('Roadside alert');
  if (row.acuteCritical) markers.push('Acute/critical');
  return markers;
}

export type HistoryPoint = { snapshot: string } & Partial<Record<BasicCategory, number>>;

/** `basic_history` oldest first, one point per dated snapshot with the five measures. */
export function buildHistoryPoints(profile: Profile): HistoryPoint[] {
  const snapshots = (profile.basic_history ?? []).filter((s) => s.snapshot_date !== undefined);
  const sorted = [...snapshots].sort((a, b) =>
    (a.snapshot_date ?? '').localeCompare(b.snapshot_date ?? ''),
  );
  return sorted.map((snapshot) => {
    const point: HistoryPoint = { snapshot: snapshot.snapshot_date ?? '' };
    for (const category of HISTORY_BASICS) {
      const measure = snapshot[`basic_measure_${category}`];
      if (measure !== undefined) point[category] = measure;
    }
    return point;
  });
}

const OOS_KINDS = ['driver', 'vehicle', 'hazmat'] as const;
type OosKind = (typeof OOS_KINDS)[number];

export interface OosRow {
  kind: OosKind;
  label: string;
  inspections: number | undefined;
  outOfService: number | undefined;
  carrierRate: number | undefined;
  nationalRate: number | undefined;
  alert: boolean;
}

const OOS_LABELS: Record<OosKind, string> = {
  driver: 'Driver',
  vehicle: 'Vehicle',
  hazmat: 'Hazmat',
};

export function buildOosRows(profile: Profile): OosRow[] {
  return OOS_KINDS.map((kind) => ({
    kind,
    label: OOS_LABELS[kind],
    inspections: profile[`inspections_${kind}`],
    outOfService: profile[`inspections_${kind}_out_of_service`],
    carrierRate: profile[`inspections_${kind}_out_of_service_pct`],
    nationalRate: profile[`natl_avg_oos_${kind}`],
    alert: profile[`oos_alert_${kind}`] === true,
  }));
}

export interface ViolationRow {
  category: BasicCategory;
  label: string;
  total: number | undefined;
  severe: number | undefined;
  outOfService: number | undefined;
}

export function buildViolationRows(profile: Profile): ViolationRow[] {
  return VIOLATION_CATEGORIES.map((category) => ({
    category,
    label: BASIC_LABELS[category],
    total: profile[`violations_${category}`],
    severe: profile[`violations_severe_${category}`],
    outOfService: profile[`violations_oos_${category}`],
  }));
}

export interface BenchmarkRow {
  code: 'IM' | 'IRPU' | 'PUM';
  label: string;
  observed: number | undefined;
  lower: number | undefined;
  upper: number | undefined;
  indicator: boolean | undefined;
  /** where the observed value sits against the expected range */
  position: 'below' | 'within' | 'above' | 'unknown';
}

const BENCHMARKS = [
  { code: 'IM', label: 'Inspection–mileage ratio', indicator: 'inspection_mileage_ratio' },
  { code: 'IRPU', label: 'Inspected power units ratio', indicator: 'inspected_power_units_ratio' },
  { code: 'PUM', label: 'Power unit–mileage ratio', indicator: 'power_unit_mileage_ratio' },
] as const;

function positionOf(observed?: number, lower?: number, upper?: number): BenchmarkRow['position'] {
  if (observed === undefined || lower === undefined || upper === undefined) return 'unknown';
  if (observed < lower) return 'below';
  return observed > upper ? 'above' : 'within';
}

export function buildBenchmarkRows(profile: Profile): BenchmarkRow[] {
  return BENCHMARKS.map(({ code, label, indicator }) => {
    const observed = profile[`observed_${code}`];
    const lower = profile[`expected_lb_${code}`];
    const upper = profile[`expected_ub_${code}`];
    return {
      code,
      label,
      observed,
      lower,
      upper,
      indicator: profile[`indicator_benchmark_${indicator}`],
      position: positionOf(observed, lower, upper),
    };
  });
}
