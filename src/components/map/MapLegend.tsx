import { legendItems } from './legend.ts';
import type { MapPoint } from './types.ts';

interface MapLegendProps {
  points: readonly MapPoint[];
  cluster: boolean;
  pointName: string | undefined;
}

/** What the map's circles mean: one entry per kind of point drawn, and the group marker. */
export function MapLegend({ points, cluster, pointName }: MapLegendProps) {
  const items = legendItems(points, cluster, pointName);
  if (!items.length) return null;
  return (
    <ul
      aria-label="Map legend"
      data-testid="map-legend"
      className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-neutral-700 dark:text-neutral-300"
    >
      {items.map((item) => (
        <li key={item.id} className="flex items-center gap-1.5">
          <span
            aria-hidden="true"
            className={
              item.group
                ? 'inline-block h-4 w-4 rounded-full border-2 border-white'
                : 'inline-block h-3 w-3 rounded-full border border-white'
            }
            style={{ backgroundColor: item.colour }}
          />
          {item.label}
        </li>
      ))}
    </ul>
  );
}
