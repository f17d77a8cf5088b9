import { describe, expect, it } from 'vitest';
import { coordinateOf, withExtraLocations } from './coordinates.ts';
import { boundsOf, isValidCoordinate, pointsToGeoJson } from './geometry.ts';
import type { MapPoint } from './types.ts';

const a: MapPoint = { id: 'a', lat: 40, lon: -100, label: 'A' };
const b: MapPoint = { id: 'b', lat: 30, lon: -80, label: 'B', kind: 'mailing' };

describe('map geometry', () => {
  it('turns points into GeoJSON features with [lon, lat] coordinates', () => {
    const fc = pointsToGeoJson([a, b]);
    expect(fc.features.map((f) => f.geometry.coordinates)).toEqual([
      [-100, 40],
      [-80, 30],
    ]);
    expect(fc.features.map((f) => f.properties)).toEqual([
      { id: 'a', label: 'A', kind: 'default' },
      { id: 'b', label: 'B', kind: 'mailing' },
    ]);
  });

  it('bounds every point, and has no bounds without points', () => {
    expect(boundsOf([a, b])).toEqual([
      [-100, 30],
      [-80, 40],
    ]);
    expect(boundsOf([a])).toEqual([
      [-100, 40],
      [-100, 40],
    ]);
    expect(boundsOf([])).toBeUndefined();
  });

  it('rejects impossible coordinates and the 0,0 placeholder', () => {
    expect(isValidCoordinate(41.5, -106.9)).toBe(true);
    expect(isValidCoordinate(0, 0)).toBe(false);
    expect(isValidCoordinate(91, 0)).toBe(false);
    expect(isValidCoordinate(10, -181)).toBe(false);
    expect(isValidCoordinate(Number.NaN, 10)).toBe(false);
  });
});

describe('coordinateOf', () => {
  it('prefers geo_point, falls back to latitude/longitude, else undefined', () => {
    expect(coordinateOf({ geo_point: { lat: 1.5, lon: 2.5 }, latitude: 9, longitude: 9 })).toEqual({
      lat: 1.5,
      lon: 2.5,
    });
    expect(coordinateOf({ latitude: 35, longitude: -90 })).toEqual({ lat: 35, lon: -90 });
    expect(coordinateOf({ geo_point: { lat: 0, lon: 0 }, latitude: 35, longitude: -90 })).toEqual({
      lat: 35,
      lon: -90,
    });
    expect(coordinateOf({ latitude: 35 })).toBeUndefined();
    expect(coordinateOf({})).toBeUndefined();
  });
});

describe('withExtraLocations', () => {
  const toPoint = (l: { lat: number; lon: number }, i: number): MapPoint => ({
    id: `loc-${i}`,
    lat: l.lat,
    lon: l.lon,
    label: 'loc',
  });

  it('adds only the locations that no point accounts for, one location per point', () => {
    const points = [a, { ...a, id: 'a2' }];
    const locations = [
      { lat: 40.00001, lon: -100 },
      { lat: 40, lon: -100 },
      { lat: 40, lon: -100 },
      { lat: 20, lon: -90 },
      { lat: 0, lon: 0 },
    ];
    expect(withExtraLocations(points, locations, toPoint).map((p) => p.id)).toEqual([
      'a',
      'a2',
      'loc-2',
      'loc-3',
    ]);
  });

  it('keeps the points when there are no locations', () => {
    expect(withExtraLocations([a], undefined, toPoint)).toEqual([a]);
  });
});
