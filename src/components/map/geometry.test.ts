import { describe, expect, it } from 'vitest';
import { coordinateOf, withExtraLocations } from './coordinates.ts';
import {
  abbreviateCount,
  boundsOf,
  clusterBadges,
  isValidCoordinate,
  pointsToGeoJson,
  popupLines,
  viewBounds,
  type ClusterFeature,
} from './geometry.ts';
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

describe('viewBounds', () => {
  it('widens a box smaller than the minimum span around its centre', () => {
    // two addresses 0.58° apart in one town: shown with 3° around them, so borders show
    const town = viewBounds(
      [
        [-118.2337, 34.0477],
        [-117.658, 34.0513],
      ],
      3,
    ).flat();
    [-119.44585, 32.5495, -116.44585, 35.5495].forEach((expected, index) =>
      expect(town[index]).toBeCloseTo(expected, 6),
    );
    // a single point
    expect(
      viewBounds(
        [
          [-100, 40],
          [-100, 40],
        ],
        3,
      ),
    ).toEqual([
      [-101.5, 38.5],
      [-98.5, 41.5],
    ]);
  });

  it('leaves a box wider than the minimum as it is, and stays on the globe', () => {
    const wide: Parameters<typeof viewBounds>[0] = [
      [-120, 30],
      [-80, 45],
    ];
    expect(viewBounds(wide, 3)).toEqual(wide);
    expect(
      viewBounds(
        [
          [179.5, 84],
          [179.5, 84],
        ],
        3,
      ),
    ).toEqual([
      [178, 82.5],
      [180, 85],
    ]);
  });
});

describe('cluster count labels', () => {
  const cluster = (id: number, count: number, at: [number, number]): ClusterFeature => ({
    properties: { cluster: true, cluster_id: id, point_count: count },
    geometry: { type: 'Point', coordinates: at },
  });

  it('abbreviates counts as the map does', () => {
    expect([7, 999, 1000, 1249, 1250, 9999, 10_000, 15_400].map(abbreviateCount)).toEqual([
      '7',
      '999',
      '1k',
      '1.2k',
      '1.3k',
      '10k',
      '10k',
      '15k',
    ]);
  });

  it('labels each drawn cluster once, and ignores single points', () => {
    const features = [
      cluster(1, 64, [-97, 32]),
      cluster(1, 64, [-97, 32]), // the same cluster from a neighbouring tile
      cluster(2, 5200, [-80, 35]),
      {
        properties: { id: 'a', label: 'A', kind: 'default' },
        geometry: { type: 'Point', coordinates: [-100, 40] },
      },
    ];
    expect(clusterBadges(features)).toEqual([
      { id: 1, lon: -97, lat: 32, count: 64, text: '64' },
      { id: 2, lon: -80, lat: 35, count: 5200, text: '5.2k' },
    ]);
  });
});

describe('popupLines', () => {
  it('is the label, then the details', () => {
    expect(popupLines(a)).toEqual(['A']);
    expect(popupLines({ ...a, details: ['Level 1 (full)', '2 violations'] })).toEqual([
      'A',
      'Level 1 (full)',
      '2 violations',
    ]);
  });
});
