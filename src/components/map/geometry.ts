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
