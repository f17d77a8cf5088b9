import type { ChangeRow, WatchRow } from './store.ts';

/** Profile date fields whose current value `date_type` can name as `<field>_current`. */
export const PROFILE_DATE_FIELDS = [
  'mcs150_date',
  'safety_rating_date',
  'last_crash_date',
  'insurance_pending_cancel_date',
] as const;
export type ProfileDateField = (typeof PROFILE_DATE_FIELDS)[number];

/** Counters, amounts and scores: strings on the profile, numbers in change records. */
const NUMERIC_FIELDS: ReadonlySet<string> = new Set([
  'insurance_bipd_on_file',
  'insurance_bipd_required',
  'insurance_cargo_on_file',
  'insurance_cargo_required',
  'insurance_bond_on_file',
  'insurance_bond_required',
  'insurance_cancel_count',
  'total_revocations',
  'days_since_last_revocation',
  'iss_value',
  'safety_score',
  'risk_score_probability',
  'crashes_total',
  'crash_fatalities',
  'crash_injuries',
  'crashes_tow_away',
  'inspections_total',
  'violations_total',
  'total_power_units',
  'total_drivers',
  'total_drivers_cdl',
  'total_trucks',
  'total_trailers',
  'total_buses',
  'owned_tractors',
  'owned_trailers',
  'term_leased_tractors',
  'term_leased_trailers',
  'mcs150_mileage',
  'mcs150_year',
]);
const NUMERIC_PREFIXES = ['basic_percentile_', 'basic_measure_', 'intervention_threshold_'];
const NUMBER_RE = /^-?\d+(?:\.\d+)?$/;

function isNumericField(field: string): boolean {
  return NUMERIC_FIELDS.has(field) || NUMERIC_PREFIXES.some((prefix) => field.startsWith(prefix));
}

/** A wire value as a change record carries it: numeric fields as numbers, the rest unchanged. */
export function recordValue(field: string, value: unknown): unknown {
  if (value === undefined) return null;
  if (isNumericField(field) && typeof value === 'string' && NUMBER_RE.test(value)) {
    return Number(value);
  }
  return value;
}

/**
 * One change record on the wire: `<f>_current`, `<f>_prior`, `<f>_changed: true` per changed field,
 * then the dates: `last_changed_date` (YYYYMMDD), `started_monitoring_at` (epoch seconds),
 * `last_acknowledged_at` (ISO, when acknowledged) and the profile's current `<date>_current` values
 * (a record that changed that date field keeps its own value).
 */
export function formatRecord(
  row: ChangeRow,
  watch: WatchRow,
  profileDates: Partial<Record<ProfileDateField, string>>,
): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const { field, prior, current } of row.changes) {
    record[`${field}_current`] = recordValue(field, current);
    record[`${field}_prior`] = recordValue(field, prior);
    record[`${field}_changed`] = true;
  }
  record.last_changed_date = row.changed_on;
  record.started_monitoring_at = watch.started_at;
  if (watch.acknowledged_at !== null) record.last_acknowledged_at = watch.acknowledged_at;
  for (const field of PROFILE_DATE_FIELDS) {
    const value = profileDates[field];
    if (value !== undefined && !(`${field}_current` in record)) record[`${field}_current`] = value;
  }
  return record;
}
