/**
 * Pure helpers of the map: points as GeoJSON and their bounding box. No maplibre import, so they
 * are unit-tested in jsdom.
 */
import type { FeatureCollection, Point } from 'geojson';
import type { MapPoint } from './types.ts';

export interface PointProperties {
  id: string;
  label: string;
  kind: string;
}

/** [[west, south], [east, north]] */
export type Bounds = [[number, number], [number, number]];

export function isValidCoordinate(lat: number, lon: number): boolean {
  return (
    Number.isFinite(lat) &&
    Number.isFinite(lon) &&
    Math.abs(lat) <= 90 &&
    Math.abs(lon) <= 180 &&
    !(lat === 0 && lon === 0)
  );
}

export function pointsToGeoJson(
  points: readonly MapPoint[],
): FeatureCollection<Point, PointProperties> {
  return {
    type: 'FeatureCollection',
    features: points.map((point) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [point.lon, point.lat] },
      properties: { id: point.id, label: point.label, kind: point.kind ?? 'default' },
    })),
  };
}

/** The box around every point, or undefined for no points. */
export function boundsOf(points: readonly MapPoint[]): Bounds | undefined {
  const first = points[0];
  if (!first) return undefined;
  let [west, south, east, north] = [first.lon, first.lat, first.lon, first.lat];
  for (const { lat, lon } of points) {
    west = Math.min(west, lon);
    east = Math.max(east, lon);
    south = Math.min(south, lat);
    north = Math.max(north, lat);
  }
  return [
    [west, south],
    [east, north],
  ];
}

/**
 * The box to show for `bounds`: at least `minSpan` degrees high and wide around its centre. The
 * offline basemap draws only state and country borders, so a box of a few kilometres (two
 * addresses in one town, a single point) would show nothing but blank land; a wider one always
 * includes borders or coast to place the points.
 */
export function viewBounds(bounds: Bounds, minSpan: number): Bounds {
  const [[west, south], [east, north]] = bounds;
  const halfWidth = Math.max(east - west, minSpan) / 2;
  const halfHeight = Math.max(north - south, minSpan) / 2;
  const lon = (west + east) / 2;
  const lat = (south + north) / 2;
  const clampLat = (value: number) => Math.max(-85, Math.min(85, value));
  return [
    [Math.max(-180, lon - halfWidth), clampLat(lat - halfHeight)],
    [Math.min(180, lon + halfWidth), clampLat(lat + halfHeight)],
  ];
}

/** A cluster's count as drawn on it: 7, 950, 1.2k, 12k (as supercluster's `point_count_abbreviated`). */
export function abbreviateCount(count: number): string {
  if (count >= 10_000) return `${Math.round(count / 1000)}k`;
  if (count >= 1000) return `${(Math.round(count / 100) / 10).toString()}k`;
  return String(count);
}

/** A rendered cluster feature as the map returns it (the parts read here). */
export interface ClusterFeature {
  properties: Record<string, unknown>;
  geometry: { type: string; coordinates?: unknown };
}

export interface ClusterBadge {
  id: number;
  lon: number;
  lat: number;
  count: number;
  text: string;
}

/**
 * One count label per drawn cluster. A cluster crossing tile edges comes back once per tile; it is
 * labelled once.
 */
export function clusterBadges(features: readonly ClusterFeature[]): ClusterBadge[] {
  const badges = new Map<number, ClusterBadge>();
  for (const { properties, geometry } of features) {
    const id = properties['cluster_id'];
    const count = Number(properties['point_count']);
    if (typeof id !== 'number' || badges.has(id) || !Number.isFinite(count)) continue;
    if (geometry.type !== 'Point' || !Array.isArray(geometry.coordinates)) continue;
    const [lon, lat] = geometry.coordinates as [number, number];
    badges.set(id, { id, lon, lat, count, text: abbreviateCount(count) });
  }
  return [...badges.values()];
}

/** The popup's lines: the point's label, then its details. */
export function popupLines(point: MapPoint): string[] {
  return [point.label, ...(point.details ?? [])];
}
