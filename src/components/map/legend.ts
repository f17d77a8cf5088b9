/**
 * The colours of the point kinds (shared by the circle layers and the legend) and the legend's
 * entries for a set of points. Pure: no maplibre import, unit-tested in jsdom.
 */
import type { MapPoint } from './types.ts';

/** Kind -> circle colour; kinds not listed draw in `DEFAULT_POINT_COLOUR`. */
export const KIND_COLOURS: Readonly<Record<string, string>> = {
  physical: '#0d9488',
  mailing: '#9333ea',
};
export const DEFAULT_POINT_COLOUR = '#dc2626';
export const CLUSTER_COLOUR = '#2563eb';

const KIND_NAMES: Readonly<Record<string, string>> = {
  physical: 'Physical address',
  mailing: 'Mailing address',
};

export interface LegendItem {
  id: string;
  label: string;
  colour: string;
  /** a group of points (drawn larger, with its count) rather than one point */
  group: boolean;
}

/**
 * One entry per kind present in `points` (in first-seen order), then, when nearby points are
 * grouped, the group marker. No points, no legend.
 */
export function legendItems(
  points: readonly MapPoint[],
  cluster: boolean,
  pointName = 'Location',
): LegendItem[] {
  const kinds: string[] = [];
  for (const point of points) {
    const kind = point.kind ?? 'default';
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  const items: LegendItem[] = kinds.map((kind) => ({
    id: kind,
    label: KIND_NAMES[kind] ?? pointName,
    colour: KIND_COLOURS[kind] ?? DEFAULT_POINT_COLOUR,
    group: false,
  }));
  if (cluster && points.length > 1) {
    items.push({
      id: 'cluster',
      label: 'Group of nearby points (the number says how many)',
      colour: CLUSTER_COLOUR,
      group: true,
    });
  }
  return items;
}
