/** Pure helpers of the Inspections tab: row ids, map points, filters, lanes, CSV columns. */
import type { CsvColumn } from '../../../../../components/data-table/csv.ts';
import type { Fact } from '../../../../../components/Facts.tsx';
import { coordinateOf, withExtraLocations } from '../../../../../components/map/coordinates.ts';
import type { MapPoint } from '../../../../../components/map/types.ts';
import { formatCount, formatDate, formatPercent } from '../../../../../lib/format.ts';
import type { Inspection, Profile } from '../../../../../lib/service/index.ts';
import { SeenRowPoint, type SeenRows } from '../kit/seen-points.ts';

/** A stable id per inspection: `_id`, else the report number, else its position. */
function inspectionId(inspection: Inspection, index: number): string {
  return inspection._id ?? inspection.report_number ?? `inspection-${index}`;
}

export interface InspectionRow {
  id: string;
  inspection: Inspection;
}

export function inspectionRows(profile: Profile): InspectionRow[] {
  return (profile.inspection_history ?? []).map((inspection, index) => ({
    id: inspectionId(inspection, index),
    inspection,
  }));
}

function placeOf(inspection: Inspection): string | undefined {
  return inspection.location_desc ?? inspection.county_name ?? inspection.report_state;
}

function inspectionLabel(inspection: Inspection): string {
  const place = placeOf(inspection);
  return `Inspection ${formatDate(inspection.insp_date)}${place ? `, ${place}` : ''}`;
}

function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

function outOfServiceText(oos: number | undefined): string {
  if (oos === undefined) return 'Out of service: not reported';
  return oos > 0 ? `Out of service: yes (${plural(oos, 'order', 'orders')})` : 'Out of service: no';
}

/** The popup's lines under the date and place: level, violations, out-of-service. */
export function inspectionDetails(inspection: Inspection): string[] {
  const violations = inspection.viol_total;
  return [
    levelLabel(inspection.insp_level_id),
    violations === undefined
      ? 'Violations: not reported'
      : plural(violations, 'violation', 'violations'),
    outOfServiceText(inspection.oos_total),
  ];
}

/**
 * Map points of the given rows (their `geo_point` or `latitude`/`longitude`), plus the profile's
 * `geo_points.inspection_locations` that no row accounts for (those select no row).
 */
export function pointsFromInspections(
  rows: readonly InspectionRow[],
  locations?: NonNullable<Profile['geo_points']>['inspection_locations'],
): MapPoint[] {
  const points: MapPoint[] = [];
  for (const { id, inspection } of rows) {
    const at = coordinateOf(inspection);
    if (at) {
      points.push({
        id,
        ...at,
        label: inspectionLabel(inspection),
        details: inspectionDetails(inspection),
      });
    }
  }
  return withExtraLocations(points, locations, (location, index) => ({
    id: `inspection-location-${index}`,
    lat: location.lat,
    lon: location.lon,
    label: `Inspection location${location.date ? ` ${formatDate(location.date)}` : ''}`,
  }));
}

export interface InspectionFilters {
  /** inclusive, YYYY-MM-DD */
  from: string;
  /** inclusive, YYYY-MM-DD */
  to: string;
  /** report state, '' = all */
  state: string;
  /** inspection level id, '' = all */
  level: string;
  oosOnly: boolean;
}

export const NO_INSPECTION_FILTERS: InspectionFilters = {
  from: '',
  to: '',
  state: '',
  level: '',
  oosOnly: false,
};

export function isOutOfService(inspection: Inspection): boolean {
  return (inspection.oos_total ?? 0) > 0;
}

function inDateRange(date: string | undefined, from: string, to: string): boolean {
  if (!from && !to) return true;
  if (!date) return false;
  return (!from || date >= from) && (!to || date <= to);
}

function matchesFilters(inspection: Inspection, filters: InspectionFilters): boolean {
  return (
    inDateRange(inspection.insp_date, filters.from, filters.to) &&
    (!filters.state || inspection.report_state === filters.state) &&
    (!filters.level || inspection.insp_level_id === filters.level) &&
    (!filters.oosOnly || isOutOfService(inspection))
  );
}

export function filterInspections(
  rows: readonly InspectionRow[],
  filters: InspectionFilters,
): InspectionRow[] {
  return rows.filter((row) => matchesFilters(row.inspection, filters));
}

const NATURAL = new Intl.Collator('en', { numeric: true });

function distinctSorted(values: ReadonlyArray<string | undefined>): string[] {
  return [...new Set(values.filter((v): v is string => Boolean(v)))].sort(NATURAL.compare);
}

/** The states and levels present, for the filter choices. */
export function filterChoices(rows: readonly InspectionRow[]): {
  states: string[];
  levels: string[];
} {
  return {
    states: distinctSorted(rows.map((r) => r.inspection.report_state)),
    levels: distinctSorted(rows.map((r) => r.inspection.insp_level_id)),
  };
}

export interface Lane {
  state: string;
  inspections: number;
}

/**
 * Inspections per state: the service's `preferred_lanes`, else counted from the history (the
 * `computed` flag says which, so the view can say so), most inspections first.
 */
export function lanesOf(profile: Profile): { lanes: Lane[]; computed: boolean } {
  const given = (profile.preferred_lanes ?? []).flatMap((lane) =>
    lane.state && lane.inspections !== undefined
      ? [{ state: lane.state, inspections: lane.inspections }]
      : [],
  );
  if (given.length) return { lanes: byCountDesc(given), computed: false };
  const counts = new Map<string, number>();
  for (const inspection of profile.inspection_history ?? []) {
    if (inspection.report_state) {
      counts.set(inspection.report_state, (counts.get(inspection.report_state) ?? 0) + 1);
    }
  }
  const lanes = [...counts].map(([state, inspections]) => ({ state, inspections }));
  return { lanes: byCountDesc(lanes), computed: lanes.length > 0 };
}

function byCountDesc(lanes: Lane[]): Lane[] {
  return [...lanes].sort((a, b) => b.inspections - a.inspections || a.state.localeCompare(b.state));
}

const LEVEL_NAMES: Record<string, string> = {
  '1': 'full',
  '2': 'walk-around',
  '3': 'driver only',
  '4': 'special study',
  '5': 'vehicle only',
  '6': 'radioactive materials',
  '7': 'jurisdictional',
  '8': 'electronic',
};

/** "Level 2 (walk-around)"; an unknown level id is shown as given. */
export function levelLabel(levelId: string | undefined): string {
  if (!levelId) return 'Level unknown';
  const name = LEVEL_NAMES[levelId];
  return name ? `Level ${levelId} (${name})` : `Level ${levelId}`;
}

/** The inspections table as CSV: the service's values (ISO dates, level ids), one inspection a line. */
export const INSPECTION_CSV: readonly CsvColumn<InspectionRow>[] = [
  { header: 'report_number', value: (r) => r.inspection.report_number },
  { header: 'inspection_date', value: (r) => r.inspection.insp_date },
  { header: 'state', value: (r) => r.inspection.report_state },
  { header: 'location', value: (r) => r.inspection.location_desc ?? r.inspection.county_name },
  { header: 'level', value: (r) => r.inspection.insp_level_id },
  {
    header: 'level_name',
    value: (r) => (r.inspection.insp_level_id ? levelLabel(r.inspection.insp_level_id) : ''),
  },
  { header: 'violations', value: (r) => r.inspection.viol_total },
  { header: 'driver_violations', value: (r) => r.inspection.driver_viol_total },
  { header: 'vehicle_violations', value: (r) => r.inspection.vehicle_viol_total },
  { header: 'hazmat_violations', value: (r) => r.inspection.hazmat_viol_total },
  { header: 'out_of_service', value: (r) => r.inspection.oos_total },
  { header: 'driver_out_of_service', value: (r) => r.inspection.driver_oos_total },
  { header: 'vehicle_out_of_service', value: (r) => r.inspection.vehicle_oos_total },
  { header: 'hazmat_out_of_service', value: (r) => r.inspection.hazmat_oos_total },
  { header: 'units', value: (r) => r.inspection.vins?.length ?? 0 },
  { header: 'latitude', value: (r) => coordinateOf(r.inspection)?.lat },
  { header: 'longitude', value: (r) => coordinateOf(r.inspection)?.lon },
];

function oos(count: number | undefined, pct: number | undefined, national: number | undefined) {
  return `${formatCount(count)} (${formatPercent(pct)}; national ${formatPercent(national)})`;
}

/** The service's inspection counters (24 months), which may exceed the history it sends. */
export function inspectionTotals(p: Profile): Fact[] {
  return [
    { term: 'Inspections', value: formatCount(p.inspections_total) },
    { term: 'Driver inspections', value: formatCount(p.inspections_driver) },
    { term: 'Vehicle inspections', value: formatCount(p.inspections_vehicle) },
    { term: 'Hazmat inspections', value: formatCount(p.inspections_hazmat) },
    {
      term: 'Driver out of service',
      value: oos(
        p.inspections_driver_out_of_service,
        p.inspections_driver_out_of_service_pct,
        p.natl_avg_oos_driver,
      ),
    },
    {
      term: 'Vehicle out of service',
      value: oos(
        p.inspections_vehicle_out_of_service,
        p.inspections_vehicle_out_of_service_pct,
        p.natl_avg_oos_vehicle,
      ),
    },
    {
      term: 'Hazmat out of service',
      value: oos(
        p.inspections_hazmat_out_of_service,
        p.inspections_hazmat_out_of_service_pct,
        p.natl_avg_oos_hazmat,
      ),
    },
    { term: 'States inspected in', value: formatCount(p.inspected_states) },
    { term: 'Last inspection', value: formatDate(p.last_inspection_date) },
  ];
}

// ---------------------------------------------------------------------------------------------
// The tab on the proxy's slices (`/api/local/profile-view`): the same filters, sorted and paged
// by the proxy, the map from the compact points.
// ---------------------------------------------------------------------------------------------

/** The filters as the proxy's `inspections` and `inspection-points` views take them. */
export function inspectionViewFilters(filters: InspectionFilters): Record<string, string> {
  return {
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
    ...(filters.state ? { state: filters.state } : {}),
    ...(filters.level ? { level: filters.level } : {}),
    ...(filters.oosOnly ? { oos: '1' } : {}),
  };
}

/** The table's columns the proxy sorts by, and its field for each. */
export const INSPECTION_SORT_FIELDS: Readonly<Record<string, string>> = {
  date: 'insp_date',
  state: 'report_state',
  level: 'insp_level_id',
  violations: 'viol_total',
  oos: 'oos_total',
};

/** "Inspection 15 Nov 2026, SAINT LOUIS, MO": what a point or row is, in words. */
export function inspectionText(inspection: Inspection): string {
  return [inspectionLabel(inspection), ...inspectionDetails(inspection)].join(' · ');
}

/**
 * Map points from the proxy's compact `[lon, lat, id]` triples (their text from the rows seen),
 * plus the profile's `geo_points.inspection_locations` they do not account for.
 */
export function pointsFromTriples(
  triples: readonly (readonly [number, number, string])[],
  seen: SeenRows<Inspection>,
  locations?: NonNullable<Profile['geo_points']>['inspection_locations'],
): MapPoint[] {
  const describe = (inspection: Inspection) => ({
    label: inspectionLabel(inspection),
    details: inspectionDetails(inspection),
  });
  const points: MapPoint[] = triples.map(
    ([lon, lat, id]) => new SeenRowPoint(id, lat, lon, seen, describe, 'Inspection'),
  );
  return withExtraLocations(points, locations, (location, index) => ({
    id: `inspection-location-${index}`,
    lat: location.lat,
    lon: location.lon,
    label: `Inspection location${location.date ? ` ${formatDate(location.date)}` : ''}`,
  }));
}

/** Inspections per state: the service's `preferred_lanes`, else the proxy's counts (computed). */
export function lanesFromCounts(
  profile: Profile,
  counts: readonly Lane[] | undefined,
): { lanes: Lane[]; computed: boolean } {
  const given = lanesOf({ ...profile, inspection_history: undefined });
  if (given.lanes.length || !counts?.length) return given;
  return { lanes: byCountDesc([...counts]), computed: true };
}
