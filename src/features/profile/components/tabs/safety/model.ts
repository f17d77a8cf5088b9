/**
 * Pure data building for the Safety tab: which default thresholds apply, and the rows the BASIC
 * chart, history chart, out-of-service chart, violations and benchmark tables draw.
 */
import {
  BASIC_LABELS,
  HISTORY_BASICS,
  VIOLATION_CATEGORIES,
  type BasicCategory,
  type Profile,
} from '../../../../../lib/service/index.ts';

// The BASIC and out-of-service rows are shared with the Compare page.
export {
  basicMarkers,
  buildBasicRows,
  buildOosRows,
  carrierClassOf,
  type BasicRow,
  type OosRow,
} from '../../../../../lib/carrier/safety.ts';

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
