import { useState } from 'react';
import type { MapPoint, MapViewProps } from './types.ts';

type PointListProps = Pick<MapViewProps, 'points' | 'selectedId' | 'onSelect'>;

/**
 * Every map point as a list, so the data is reachable without the map (keyboard, screen readers,
 * no WebGL). Collapsed by default; items are only rendered while open (heavy carriers have
 * thousands of points).
 */
export function PointList({ points, selectedId, onSelect }: PointListProps) {
  const [open, setOpen] = useState(false);
  if (!points.length) return null;
  return (
    <details
      className="text-sm"
      open={open}
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary className="cursor-pointer text-neutral-700 dark:text-neutral-300">
        List of the {points.length.toLocaleString('en-US')} map locations
      </summary>
      {open && (
        <ul className="mt-2 max-h-60 overflow-y-auto rounded border border-neutral-200 p-1 dark:border-neutral-800">
          {points.map((point) => (
            <PointItem
              key={point.id}
              point={point}
              selected={point.id === selectedId}
              onSelect={onSelect}
            />
          ))}
        </ul>
      )}
    </details>
  );
}

function PointItem({
  point,
  selected,
  onSelect,
}: {
  point: MapPoint;
  selected: boolean;
  onSelect: MapViewProps['onSelect'];
}) {
  const text = `${point.label} (${point.lat.toFixed(3)}, ${point.lon.toFixed(3)})`;
  if (!onSelect) return <li className="px-2 py-1">{text}</li>;
  return (
    <li>
      <button
        type="button"
        aria-pressed={selected}
        onClick={() => onSelect(point.id)}
        className="w-full rounded px-2 py-1 text-left hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-blue-600 aria-pressed:bg-amber-100 aria-pressed:font-semibold dark:hover:bg-neutral-800 dark:aria-pressed:bg-amber-900/40"
      >
        {text}
      </button>
    </li>
  );
}
