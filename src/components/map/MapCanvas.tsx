/**
 * The MapLibre map behind `MapView` (lazy-loaded from ./index.tsx; the only importer of maplibre-gl).
 * The container exposes `data-state` ("loading" | "idle" | "error") and, after each `idle`, what is
 * drawn: `data-rendered-clusters`, `data-rendered-points`, `data-rendered-total` (points inside
 * the drawn clusters plus single points) and `data-zoom`, so tests can wait for the map and count
 * what it shows. Cluster counts are HTML labels (`.map-cluster-count`) placed over the cluster
 * circles after each `idle`: text in a symbol layer would need glyphs, and the offline basemap has
 * none (nor may it fetch any).
 */
import * as maplibregl from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { BASEMAP_PAINT, basemapColours, configuredStyleUrl, offlineStyle } from './basemap.ts';
import {
  boundsOf,
  clusterBadges,
  pointsToGeoJson,
  popupLines,
  viewBounds,
  type ClusterBadge,
} from './geometry.ts';
import {
  CLUSTER_LAYER,
  POINT_LAYER,
  POINT_LAYERS,
  POINT_SOURCE,
  SELECTION_SOURCE,
  pointSource,
  selectionSource,
} from './layers.ts';
import { MapLegend } from './MapLegend.tsx';
import { PointList } from './PointList.tsx';
import type { MapPoint, MapViewProps } from './types.ts';

maplibregl.setWorkerUrl(workerUrl);

/**
 * Start MapLibre's worker now (`prewarm`, after `setWorkerUrl`), so the first map finds it running
 * instead of loading and compiling its script; the worker then outlives the maps, for the next one.
 */
export function prewarmMap(): void {
  // no workers here (a test's DOM): nothing to start, and the map reports its own failure
  if (typeof Worker === 'undefined') return;
  maplibregl.prewarm();
}

interface RenderedCounts {
  clusters: number;
  points: number;
  total: number;
  zoom: number;
}

type MapState = 'loading' | 'idle' | 'error';

const NO_COUNTS: RenderedCounts = { clusters: 0, points: 0, total: 0, zoom: 0 };
/**
 * The smallest box (degrees) a fit shows: enough for a state border or the coast around two
 * addresses in one town or a single point, which at street zoom sit on blank land.
 */
const MIN_VIEW_SPAN = 3;

function isDark(): boolean {
  return document.documentElement.classList.contains('dark');
}

interface Rendered {
  counts: RenderedCounts;
  badges: ClusterBadge[];
}

/** Distinct clusters and single points drawn right now, and the count label of each cluster. */
function queryRendered(map: maplibregl.Map): Rendered {
  const features = map.queryRenderedFeatures({ layers: [CLUSTER_LAYER, POINT_LAYER] });
  const badges = clusterBadges(features);
  const points = new Set<string>();
  for (const f of features) {
    const id: unknown = f.properties['id'];
    if (f.properties['cluster_id'] === undefined && typeof id === 'string') points.add(id);
  }
  const inClusters = badges.reduce((sum, badge) => sum + badge.count, 0);
  const counts = {
    clusters: badges.length,
    points: points.size,
    total: inClusters + points.size,
    zoom: Math.round(map.getZoom() * 10) / 10,
  };
  return { counts, badges };
}

/** The count labels over the cluster circles, as HTML markers (no glyphs needed). */
class ClusterLabels {
  private readonly markers = new Map<number, maplibregl.Marker>();

  constructor(private readonly map: maplibregl.Map) {}

  show(badges: readonly ClusterBadge[]): void {
    const wanted = new Set(badges.map((badge) => badge.id));
    for (const [id, marker] of this.markers) {
      if (!wanted.has(id)) {
        marker.remove();
        this.markers.delete(id);
      }
    }
    for (const badge of badges) {
      const marker = this.markers.get(badge.id) ?? this.create(badge.id);
      marker.setLngLat([badge.lon, badge.lat]);
      marker.getElement().textContent = badge.text;
    }
  }

  clear(): void {
    for (const marker of this.markers.values()) marker.remove();
    this.markers.clear();
  }

  private create(id: number): maplibregl.Marker {
    const element = document.createElement('div');
    element.className =
      'map-cluster-count pointer-events-none text-xs font-semibold text-white [text-shadow:0_0_3px_rgb(0_0_0/0.7)]';
    // the circle under it takes the click (zoom into the group); the list below has the points
    element.setAttribute('aria-hidden', 'true');
    const marker = new maplibregl.Marker({ element }).setLngLat([0, 0]).addTo(this.map);
    this.markers.set(id, marker);
    return marker;
  }
}

const FIT = { padding: 48, maxZoom: 9 } as const;

function fitToPoints(map: maplibregl.Map, points: readonly MapPoint[]): void {
  const bounds = boundsOf(points);
  if (bounds) map.fitBounds(viewBounds(bounds, MIN_VIEW_SPAN), { ...FIT, animate: false });
}

function geoJsonSource(map: maplibregl.Map, id: string): maplibregl.GeoJSONSource | undefined {
  return map.getSource<maplibregl.GeoJSONSource>(id);
}

async function expandCluster(map: maplibregl.Map, feature: maplibregl.MapGeoJSONFeature) {
  const clusterId = Number(feature.properties['cluster_id']);
  const zoom = await geoJsonSource(map, POINT_SOURCE)?.getClusterExpansionZoom(clusterId);
  if (zoom === undefined || feature.geometry.type !== 'Point') return;
  map.easeTo({ center: feature.geometry.coordinates as [number, number], zoom });
}

interface MapHandlers {
  /** the points as last rendered by React (read when the map is created and its style loads) */
  pointsRef: RefObject<readonly MapPoint[]>;
  /** the points the point source holds, so the same array is not sent to the worker twice */
  shownRef: RefObject<readonly MapPoint[] | undefined>;
  onSelect: RefObject<MapViewProps['onSelect']>;
  setReady: (ready: boolean) => void;
  setState: (state: MapState) => void;
  setCounts: (counts: RenderedCounts) => void;
}

function addPointLayers(map: maplibregl.Map, cluster: boolean, points: readonly MapPoint[]): void {
  map.addSource(POINT_SOURCE, pointSource(cluster, pointsToGeoJson(points)));
  map.addSource(SELECTION_SOURCE, selectionSource());
  for (const layer of POINT_LAYERS) map.addLayer(layer);
}

/**
 * The points go in as soon as the style is parsed (`style.load`), with the data they have then, so
 * the worker clusters them beside the basemap's tiles and the first complete frame has them; the
 * map's `load` would wait for every basemap tile to be drawn first. The camera was fitted to the
 * points the map was created with; points that changed since are fitted here.
 */
function wireEvents(
  map: maplibregl.Map,
  cluster: boolean,
  created: readonly MapPoint[],
  handlers: MapHandlers,
): () => void {
  const labels = new ClusterLabels(map);
  map.on('style.load', () => {
    const points = handlers.pointsRef.current;
    addPointLayers(map, cluster, points);
    handlers.shownRef.current = points;
    if (points !== created) fitToPoints(map, points);
    // a map made again (clustering switched) is not idle until its own first `idle`
    handlers.setState('loading');
    handlers.setReady(true);
  });
  map.on('idle', () => {
    if (!map.getLayer(CLUSTER_LAYER)) return handlers.setState('idle');
    const rendered = queryRendered(map);
    labels.show(rendered.badges);
    handlers.setCounts(rendered.counts);
    handlers.setState('idle');
  });
  // clusters split and merge while zooming: old labels would sit on the wrong circles
  map.on('zoomstart', () => labels.clear());
  map.on('error', () => handlers.setState('error'));
  map.on('click', CLUSTER_LAYER, (e) => {
    const feature = e.features?.[0];
    if (feature) void expandCluster(map, feature);
  });
  map.on('click', POINT_LAYER, (e) => {
    const id: unknown = e.features?.[0]?.properties['id'];
    if (typeof id === 'string') handlers.onSelect.current?.(id);
  });
  for (const layer of [CLUSTER_LAYER, POINT_LAYER]) {
    map.on('mouseenter', layer, () => (map.getCanvas().style.cursor = 'pointer'));
    map.on('mouseleave', layer, () => (map.getCanvas().style.cursor = ''));
  }
  return () => labels.clear();
}

/** Re-colour the offline basemap when the page switches between light and dark. */
function followTheme(map: maplibregl.Map): () => void {
  const observer = new MutationObserver(() => {
    const colours = basemapColours(isDark());
    for (const [layer, property, key] of BASEMAP_PAINT) {
      if (map.getLayer(layer)) map.setPaintProperty(layer, property, colours[key]);
    }
  });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

/** Where the map opens: fitted to the points it starts with, so no other view's tiles are made. */
function initialView(points: readonly MapPoint[]): Partial<maplibregl.MapOptions> {
  const bounds = boundsOf(points);
  if (!bounds) return { center: [-96, 38], zoom: 3 };
  return { bounds: viewBounds(bounds, MIN_VIEW_SPAN), fitBoundsOptions: FIT };
}

function createMap(
  container: HTMLElement,
  label: string,
  points: readonly MapPoint[],
): maplibregl.Map {
  const styleUrl = configuredStyleUrl();
  return new maplibregl.Map({
    container,
    style: styleUrl ?? offlineStyle(basemapColours(isDark())),
    ...initialView(points),
    // no symbol layers to fade in: `idle` need not wait for a fade
    fadeDuration: 0,
    attributionControl: styleUrl ? { compact: true } : false,
    locale: { 'Map.Title': label },
    dragRotate: false,
  });
}

/** Owns the maplibre instance: created on mount (and when clustering changes), removed on unmount. */
function useMapInstance(
  containerRef: RefObject<HTMLDivElement | null>,
  label: string,
  cluster: boolean,
  handlers: MapHandlers,
): RefObject<maplibregl.Map | null> {
  const mapRef = useRef<maplibregl.Map | null>(null);
  const { pointsRef, shownRef, onSelect, setReady, setState, setCounts } = handlers;
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const created = pointsRef.current;
    let map: maplibregl.Map;
    try {
      map = createMap(container, label, created);
    } catch {
      setState('error');
      return;
    }
    map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
    const clearLabels = wireEvents(map, cluster, created, {
      pointsRef,
      shownRef,
      onSelect,
      setReady,
      setState,
      setCounts,
    });
    const stopTheme = configuredStyleUrl() ? () => undefined : followTheme(map);
    mapRef.current = map;
    return () => {
      stopTheme();
      clearLabels();
      setReady(false);
      shownRef.current = undefined;
      mapRef.current = null;
      map.remove();
    };
  }, [containerRef, label, cluster, pointsRef, shownRef, onSelect, setReady, setState, setCounts]);
  return mapRef;
}

function usePointData(
  mapRef: RefObject<maplibregl.Map | null>,
  ready: boolean,
  points: readonly MapPoint[],
  shownRef: RefObject<readonly MapPoint[] | undefined>,
  setState: (state: MapState) => void,
): void {
  useEffect(() => {
    const map = mapRef.current;
    // the style's load put these very points in (and the camera was fitted to them)
    if (!ready || !map || shownRef.current === points) return;
    shownRef.current = points;
    setState('loading');
    void geoJsonSource(map, POINT_SOURCE)?.setData(pointsToGeoJson(points));
    fitToPoints(map, points);
  }, [mapRef, ready, points, shownRef, setState]);
}

/** Ring + popup on the selected point; pans only when the point is out of view. */
function useSelection(
  mapRef: RefObject<maplibregl.Map | null>,
  ready: boolean,
  selected: MapPoint | undefined,
): void {
  useEffect(() => {
    const map = mapRef.current;
    if (!ready || !map) return;
    void geoJsonSource(map, SELECTION_SOURCE)?.setData(pointsToGeoJson(selected ? [selected] : []));
    if (!selected) return;
    const at: [number, number] = [selected.lon, selected.lat];
    if (!map.getBounds().contains(at)) map.easeTo({ center: at });
    const popup = new maplibregl.Popup({ closeOnClick: false, focusAfterOpen: false, offset: 12 })
      .setLngLat(at)
      .setDOMContent(popupContent(selected))
      .addTo(map);
    return () => {
      popup.remove();
    };
  }, [mapRef, ready, selected]);
}

/** The label in bold, then one line per detail (text only: nothing from the data becomes HTML). */
function popupContent(point: MapPoint): HTMLElement {
  const box = document.createElement('div');
  // the popup is white in both themes
  box.className = 'map-popup text-sm text-neutral-900';
  popupLines(point).forEach((line, index) => {
    const p = document.createElement('p');
    if (index === 0) p.className = 'font-semibold';
    p.textContent = line;
    box.append(p);
  });
  return box;
}

const BUTTON =
  'rounded border border-neutral-300 bg-white px-2 py-1 text-xs font-medium text-neutral-800 hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100 dark:hover:bg-neutral-800';

export default function MapCanvas({
  label,
  points,
  selectedId,
  onSelect,
  cluster = true,
  height = '360px',
  pointName,
}: MapViewProps) {
  const containerRef = useRef<HTMLDivElement | null>(null);
  const [ready, setReady] = useState(false);
  const [state, setState] = useState<MapState>('loading');
  const [counts, setCounts] = useState<RenderedCounts>(NO_COUNTS);
  const onSelectRef = useRef(onSelect);
  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);
  // kept current before the map's own effect reads it (effects run in order)
  const pointsRef = useRef(points);
  useEffect(() => {
    pointsRef.current = points;
  }, [points]);
  const shownRef = useRef<readonly MapPoint[] | undefined>(undefined);
  const mapRef = useMapInstance(containerRef, label, cluster, {
    pointsRef,
    shownRef,
    onSelect: onSelectRef,
    setReady,
    setState,
    setCounts,
  });
  usePointData(mapRef, ready, points, shownRef, setState);
  const selected = selectedId ? points.find((p) => p.id === selectedId) : undefined;
  useSelection(mapRef, ready, selected);
  const fit = useCallback(() => {
    if (mapRef.current) fitToPoints(mapRef.current, points);
  }, [mapRef, points]);

  return (
    <div
      role="group"
      aria-label={label}
      className="flex flex-col gap-2"
      data-testid="map-view"
      data-state={state}
      data-point-count={points.length}
      data-rendered-clusters={counts.clusters}
      data-rendered-points={counts.points}
      data-rendered-total={counts.total}
      data-zoom={counts.zoom}
    >
      <div className="flex flex-wrap items-center gap-2 text-xs text-neutral-600 dark:text-neutral-400">
        <span>
          {points.length === 1
            ? '1 location'
            : `${points.length.toLocaleString('en-US')} locations`}
          {cluster ? ' · nearby points are grouped; click a group to zoom in' : ''}
        </span>
        <button type="button" className={BUTTON} onClick={fit} disabled={!points.length}>
          Fit map to points
        </button>
      </div>
      <MapLegend points={points} cluster={cluster} pointName={pointName} />
      {state === 'error' && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          The map could not be drawn in this browser. Every location is listed below.
        </p>
      )}
      <div
        ref={containerRef}
        className="w-full overflow-hidden rounded-md border border-neutral-200 dark:border-neutral-800"
        style={{ height }}
      />
      <PointList points={points} selectedId={selectedId} onSelect={onSelect} />
    </div>
  );
}
