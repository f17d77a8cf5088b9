/** Pure helpers of the Crashes tab: row ids, map points, the aggregate series. */
import { coordinateOf, withExtraLocations } from '../../../../components/map/coordinates.ts';
import type { MapPoint } from '../../../../components/map/types.ts';
import { formatDate } from '../../../../lib/format.ts';
import type { Crash, CrashAggregate, Profile } from '../../../../lib/service/index.ts';

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
    if (at) points.push({ id, ...at, label: crashLabel(crash) });
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
