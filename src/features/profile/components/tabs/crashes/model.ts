/** Pure helpers of the Crashes tab: row ids, map points, the aggregate series, CSV columns. */
import type { CsvColumn } from '../../../../../components/data-table/csv.ts';
import type { Fact } from '../../../../../components/Facts.tsx';
import { coordinateOf, withExtraLocations } from '../../../../../components/map/coordinates.ts';
import type { MapPoint } from '../../../../../components/map/types.ts';
import { formatCount, formatDate, formatFlag } from '../../../../../lib/format.ts';
import type { Crash, CrashAggregate, Profile } from '../../../../../lib/service/index.ts';
import { SeenRowPoint, type SeenRows } from '../kit/seen-points.ts';

function crashId(crash: Crash, index: number): string {
  return crash._id ?? crash.report_number ?? `crash-${index}`;
}

export interface CrashRow {
  id: string;
  crash: Crash;
}

export function crashRows(profile: Profile): CrashRow[] {
  return (profile.crash_history ?? []).map((crash, index) => ({
    id: crashId(crash, index),
    crash,
  }));
}

function crashLabel(crash: Crash): string {
  const place = [crash.city, crash.state].filter(Boolean).join(', ');
  return `Crash ${formatDate(crash.report_date)}${place ? `, ${place}` : ''}`;
}

/** The popup's lines under the date and place: the harm done. */
export function crashDetails(crash: Crash): string[] {
  return [
    `Fatalities: ${formatCount(crash.fatalities)}`,
    `Injuries: ${formatCount(crash.injuries)}`,
    `Tow-away: ${formatFlag(crash.tow_away)}`,
  ];
}

/**
 * Map points of the crashes (`geo_point` or `latitude`/`longitude`), plus the profile's
 * `geo_points.crash_locations` that no crash accounts for (those select no row).
 */
export function pointsFromCrashes(
  rows: readonly CrashRow[],
  locations?: NonNullable<Profile['geo_points']>['crash_locations'],
): MapPoint[] {
  const points: MapPoint[] = [];
  for (const { id, crash } of rows) {
    const at = coordinateOf(crash);
    if (at) points.push({ id, ...at, label: crashLabel(crash), details: crashDetails(crash) });
  }
  return withExtraLocations(points, locations, (location, index) => ({
    id: `crash-location-${index}`,
    lat: location.lat,
    lon: location.lon,
    label: `Crash location${location.date ? ` ${formatDate(location.date)}` : ''}`,
  }));
}

export interface AggregatePoint {
  month: string;
  crashes: number;
  injuries: number;
  fatalities: number;
  towAway: number;
  /** crashes per million miles, when the service gives it */
  rate: number | undefined;
}

/** `crash_aggregates` as a time series, oldest month first; months without a date are dropped. */
export function aggregateSeries(
  aggregates: readonly CrashAggregate[] | undefined,
): AggregatePoint[] {
  return (aggregates ?? [])
    .filter((a): a is CrashAggregate & { report_month: string } => Boolean(a.report_month))
    .map((a) => ({
      month: a.report_month.slice(0, 7),
      crashes: a.crashes_total ?? 0,
      injuries: a.crash_injuries ?? 0,
      fatalities: a.crash_fatalities ?? 0,
      towAway: a.crashes_tow_away ?? 0,
      rate: a.crash_rate,
    }))
    .sort((a, b) => a.month.localeCompare(b.month));
}

/** The crashes table as CSV: the service's values (ISO dates), one crash a line. */
export const CRASH_CSV: readonly CsvColumn<CrashRow>[] = [
  { header: 'report_number', value: (r) => r.crash.report_number },
  { header: 'report_date', value: (r) => r.crash.report_date },
  { header: 'report_time', value: (r) => r.crash.report_time },
  { header: 'city', value: (r) => r.crash.city },
  { header: 'state', value: (r) => r.crash.state },
  { header: 'location', value: (r) => r.crash.location },
  { header: 'fatalities', value: (r) => r.crash.fatalities },
  { header: 'injuries', value: (r) => r.crash.injuries },
  { header: 'tow_away', value: (r) => r.crash.tow_away },
  { header: 'vehicles', value: (r) => r.crash.vehicles_in_accident },
  { header: 'hazmat_released', value: (r) => r.crash.hazmat_released },
  { header: 'federal_recordable', value: (r) => r.crash.federal_recordable },
  { header: 'vin', value: (r) => r.crash.vehicle_identification_number },
  { header: 'latitude', value: (r) => coordinateOf(r.crash)?.lat },
  { header: 'longitude', value: (r) => coordinateOf(r.crash)?.lon },
];

/** The service's crash counters, as facts. */
export function crashTotals(p: Profile): Fact[] {
  return [
    { term: 'Crashes', value: formatCount(p.crashes_total) },
    { term: 'Fatalities', value: formatCount(p.crash_fatalities) },
    { term: 'Injuries', value: formatCount(p.crash_injuries) },
    { term: 'Tow-away crashes', value: formatCount(p.crashes_tow_away) },
    { term: 'Last crash', value: formatDate(p.last_crash_date) },
  ];
}

/** The table's columns the proxy's `crashes` view sorts by, and its field for each. */
export const CRASH_SORT_FIELDS: Readonly<Record<string, string>> = {
  date: 'report_date',
  fatalities: 'fatalities',
  injuries: 'injuries',
};

/** "Crash 3 Mar 2026, DALLAS, TX · Fatalities: 0 · …": a crash in words. */
export function crashText(crash: Crash): string {
  return [crashLabel(crash), ...crashDetails(crash)].join(' · ');
}

/**
 * Map points from the proxy's compact `[lon, lat, id]` triples (their text from the crashes seen,
 * as for inspections), plus the profile's `geo_points.crash_locations` they do not account for.
 */
export function crashPointsFromTriples(
  triples: readonly (readonly [number, number, string])[],
  seen: SeenRows<Crash>,
  locations?: NonNullable<Profile['geo_points']>['crash_locations'],
): MapPoint[] {
  const describe = (crash: Crash) => ({ label: crashLabel(crash), details: crashDetails(crash) });
  const points: MapPoint[] = triples.map(
    ([lon, lat, id]) => new SeenRowPoint(id, lat, lon, seen, describe, 'Crash'),
  );
  return withExtraLocations(points, locations, (location, index) => ({
    id: `crash-location-${index}`,
    lat: location.lat,
    lon: location.lon,
    label: `Crash location${location.date ? ` ${formatDate(location.date)}` : ''}`,
  }));
}
