import { lazy, Suspense } from 'react';
import type { MapViewProps } from './types.ts';

export type { MapViewProps } from './types.ts';

/** The MapLibre implementation, split into its own chunk so the map stays out of the initial bundle. */
const MapCanvas = lazy(() => import('./MapCanvas.tsx'));

function MapFallback({ label, height }: Pick<MapViewProps, 'label' | 'height'>) {
  return (
    <div
      role="status"
      data-state="loading"
      className="flex items-center justify-center rounded-md border border-neutral-200 bg-neutral-100 text-sm text-neutral-600 dark:border-neutral-800 dark:bg-neutral-900 dark:text-neutral-400"
      style={{ height: height ?? '360px' }}
    >
      Loading {label.toLowerCase()}…
    </div>
  );
}

/** Lazy-loaded map of points (clustered, selectable). Use this, never `MapCanvas` directly. */
export function MapView(props: MapViewProps) {
  return (
    <Suspense fallback={<MapFallback label={props.label} height={props.height} />}>
      <MapCanvas {...props} />
    </Suspense>
  );
}
