/** The point source and its circle layers (clusters sized by count, points, the selection ring). */
import type {
  CircleLayerSpecification,
  ExpressionSpecification,
  GeoJSONSourceSpecification,
  LayerSpecification,
} from 'maplibre-gl';
import type { FeatureCollection } from 'geojson';
import { CLUSTER_COLOUR, DEFAULT_POINT_COLOUR, KIND_COLOURS } from './legend.ts';

export const POINT_SOURCE = 'points';
export const SELECTION_SOURCE = 'selection';
export const CLUSTER_LAYER = 'point-clusters';
export const POINT_LAYER = 'point-single';
const SELECTION_LAYER = 'point-selected';
/** Above this zoom nothing is clustered. */
const CLUSTER_MAX_ZOOM = 11;

const EMPTY: FeatureCollection = { type: 'FeatureCollection', features: [] };

export function pointSource(
  cluster: boolean,
  data: FeatureCollection = EMPTY,
): GeoJSONSourceSpecification {
  return {
    type: 'geojson',
    data,
    cluster,
    clusterRadius: 44,
    clusterMaxZoom: CLUSTER_MAX_ZOOM,
  };
}

export function selectionSource(): GeoJSONSourceSpecification {
  return { type: 'geojson', data: EMPTY };
}

/**
 * Cluster circles grow with their count: 10+, 100+, 1,000+ are three steps larger. The count itself
 * is an HTML label over the circle (MapCanvas): a symbol layer would need glyphs, which the offline
 * basemap does not have.
 */
const clusterLayer: CircleLayerSpecification = {
  id: CLUSTER_LAYER,
  type: 'circle',
  source: POINT_SOURCE,
  filter: ['has', 'point_count'],
  paint: {
    'circle-color': CLUSTER_COLOUR,
    'circle-opacity': 0.75,
    'circle-stroke-color': '#ffffff',
    'circle-stroke-width': 2,
    'circle-radius': ['step', ['get', 'point_count'], 12, 10, 17, 100, 23, 1000, 30],
  },
};

const pointLayer: CircleLayerSpecification = {
  id: POINT_LAYER,
  type: 'circle',
  source: POINT_SOURCE,
  filter: ['!', ['has', 'point_count']],
  paint: {
    'circle-color': [
      'match',
      ['get', 'kind'],
      ...Object.entries(KIND_COLOURS).flat(),
      DEFAULT_POINT_COLOUR,
    ] as unknown as ExpressionSpecification,
    'circle-radius': 6,
    'circle-stroke-color': '#ffffff',
    'circle-stroke-width': 1.5,
  },
};

/** A ring around the selected point, drawn from its own unclustered source so it always shows. */
const selectionLayer: CircleLayerSpecification = {
  id: SELECTION_LAYER,
  type: 'circle',
  source: SELECTION_SOURCE,
  paint: {
    'circle-color': 'rgba(0,0,0,0)',
    'circle-radius': 11,
    'circle-stroke-color': '#f59e0b',
    'circle-stroke-width': 4,
  },
};

export const POINT_LAYERS: readonly LayerSpecification[] = [
  clusterLayer,
  pointLayer,
  selectionLayer,
];
