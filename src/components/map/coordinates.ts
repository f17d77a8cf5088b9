/**
 * Where a record sits on the map, whatever the data carries: a `geo_point`, `latitude`/`longitude`,
 * or a `geo_points.*_locations` entry. Pure; shared by every view that draws points.
 */
import { isValidCoordinate } from './geometry.ts';
import type { MapPoint } from './types.ts';

export interface Coordinate {
  lat: number;
  lon: number;
}

export interface GeoRecord {
  geo_point?: Coordinate | undefined;
  latitude?: number | undefined;
  longitude?: number | undefined;
}

export interface DatedLocation extends Coordinate {
  date?: string | undefined;
}

function valid(point: Coordinate | undefined): Coordinate | undefined {
  return point && isValidCoordinate(point.lat, point.lon) ? point : undefined;
}

/** `geo_point` first, else `latitude`/`longitude`; undefined when neither is a usable coordinate. */
export function coordinateOf(record: GeoRecord): Coordinate | undefined {
  const { latitude, longitude } = record;
  const fromPair =
    latitude !== undefined && longitude !== undefined
      ? { lat: latitude, lon: longitude }
      : undefined;
  return valid(record.geo_point) ?? valid(fromPair);
}

function placeKey({ lat, lon }: Coordinate): string {
  return `${lat.toFixed(4)},${lon.toFixed(4)}`;
}

/**
 * Adds the `locations` that the record points do not already account for. Each record point covers
 * one location at the same place (4 decimals, about 10 m), so a profile whose locations repeat its
 * records' coordinates draws each record once, and locations beyond a trimmed history still show.
 */
export function withExtraLocations(
  points: readonly MapPoint[],
  locations: readonly DatedLocation[] | undefined,
  toPoint: (location: DatedLocation, index: number) => MapPoint,
): MapPoint[] {
  const covered = new Map<string, number>();
  for (const point of points) covered.set(placeKey(point), (covered.get(placeKey(point)) ?? 0) + 1);
  const extra: MapPoint[] = [];
  (locations ?? []).forEach((location, index) => {
    if (!valid(location)) return;
    const left = covered.get(placeKey(location)) ?? 0;
    if (left > 0) covered.set(placeKey(location), left - 1);
    else extra.push(toPoint(location, index));
  });
  return [...points, ...extra];
}
