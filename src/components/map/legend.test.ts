import { describe, expect, it } from 'vitest';
import { CLUSTER_COLOUR, DEFAULT_POINT_COLOUR, KIND_COLOURS, legendItems } from './legend.ts';
import type { MapPoint } from './types.ts';

const point = (id: string, kind?: string): MapPoint => ({
  id,
  lat: 40,
  lon: -100,
  label: id,
  ...(kind ? { kind } : {}),
});

describe('legendItems', () => {
  it('names the kinds drawn, in the colours the layer draws them, and the group marker', () => {
    expect(legendItems([point('a'), point('b')], true, 'Inspection')).toEqual([
      { id: 'default', label: 'Inspection', colour: DEFAULT_POINT_COLOUR, group: false },
      {
        id: 'cluster',
        label: 'Group of nearby points (the number says how many)',
        colour: CLUSTER_COLOUR,
        group: true,
      },
    ]);
  });

  it('lists the address kinds of an unclustered map without a group marker', () => {
    expect(legendItems([point('p', 'physical'), point('m', 'mailing')], false)).toEqual([
      { id: 'physical', label: 'Physical address', colour: KIND_COLOURS['physical'], group: false },
      { id: 'mailing', label: 'Mailing address', colour: KIND_COLOURS['mailing'], group: false },
    ]);
  });

  it('has nothing to explain without points, and no group for a single point', () => {
    expect(legendItems([], true)).toEqual([]);
    expect(legendItems([point('a')], true).map((item) => item.id)).toEqual(['default']);
  });
});
