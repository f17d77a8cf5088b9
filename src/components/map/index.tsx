import { lazy, Suspense, useState, type ComponentType } from 'react';
import type * as CanvasChunk from './MapCanvas.tsx';
import type { MapViewProps } from './types.ts';

export type { MapViewProps } from './types.ts';

type CanvasModule = typeof CanvasChunk;

let canvasModule: Promise<CanvasModule> | undefined;
/** The map's component once its code has arrived (rendered directly then, without suspending). */
let loadedCanvas: ComponentType<MapViewProps> | undefined;

/**
 * The MapLibre chunk, loaded once; a failed load is forgotten so that the next use tries again
 * (the map's own Suspense then shows the failure the usual way). Once it is in, MapLibre's worker
 * is started too (`prewarmMap`), so the first map does not wait for the worker's script.
 */
function canvasCode(): Promise<CanvasModule> {
  canvasModule ??= import('./MapCanvas.tsx').then(
    (module) => {
      module.prewarmMap();
      loadedCanvas = module.default;
      return module;
    },
    (error: unknown) => {
      canvasModule = undefined;
      throw error;
    },
  );
  return canvasModule;
}

/**
 * Start loading the map's code and MapLibre's worker ahead of a map being shown (e.g. when a tab
 * with a map is fetched ahead). Only the app's own code: no tile, style or data request, nothing
 * billed. Loads once however often it is called; a failure is ignored here (the map reports it
 * when shown).
 */
export function preloadMap(): void {
  void canvasCode().catch(() => undefined);
}

/** The MapLibre implementation, split into its own chunk so the map stays out of the initial bundle. */
const LazyCanvas = lazy(() => canvasCode());

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

/**
 * Lazy-loaded map of points (clustered, selectable). Use this, never `MapCanvas` directly. When
 * the code is already in (`preloadMap`), the map renders at once: a lazy component suspends on
 * its first render even then, and React holds the fallback for its throttle (~300 ms). Decided
 * once per map, so a map mounted through the lazy path is not remounted when the code arrives.
 */
export function MapView(props: MapViewProps) {
  const [Canvas] = useState(() => loadedCanvas);
  if (Canvas) return <Canvas {...props} />;
  return (
    <Suspense fallback={<MapFallback label={props.label} height={props.height} />}>
      <LazyCanvas {...props} />
    </Suspense>
  );
}

/**
 * What `MapView` shows while its code loads, for a view that is still building its points (the
 * same box, so nothing moves when the map arrives).
 */
export function MapPlaceholder(props: Pick<MapViewProps, 'label' | 'height'>) {
  return <MapFallback {...props} />;
}
