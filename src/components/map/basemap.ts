/**
 * The offline basemap: US states (us-atlas) and the neighbouring countries Canada and Mexico
 * (world-atlas), converted from TopoJSON to GeoJSON sources (once per page: later maps reuse the
 * conversion). Fill and line layers only, so no glyphs or sprites are fetched. `VITE_MAP_STYLE_URL`
 * replaces it where the deployment has internet.
 */
import type { FeatureCollection } from 'geojson';
import type { Map as MapLibreMap, StyleSpecification } from 'maplibre-gl';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countriesTopology from 'world-atlas/countries-110m.json';
import statesTopology from 'us-atlas/states-10m.json';

/** ISO 3166-1 numeric codes of the neighbours drawn around the US states. */
const NEIGHBOUR_IDS = new Set(['124', '484']);

export interface BasemapColours {
  water: string;
  land: string;
  neighbour: string;
  border: string;
}

const LIGHT: BasemapColours = {
  water: '#dbe4ec',
  land: '#f5f5f4',
  neighbour: '#e7e5e4',
  border: '#a3a3a3',
};
const DARK: BasemapColours = {
  water: '#0f172a',
  land: '#262626',
  neighbour: '#1c1c1c',
  border: '#525252',
};

export function basemapColours(dark: boolean): BasemapColours {
  return dark ? DARK : LIGHT;
}

function collection(topology: unknown, object: string): FeatureCollection {
  const topo = topology as Topology;
  const geometries = topo.objects[object] as GeometryCollection;
  return feature(topo, geometries) as FeatureCollection;
}

function neighbours(): FeatureCollection {
  const all = collection(countriesTopology, 'countries');
  return {
    type: 'FeatureCollection',
    features: all.features.filter((f) => NEIGHBOUR_IDS.has(String(f.id))),
  };
}

interface BasemapData {
  neighbours: FeatureCollection;
  states: FeatureCollection;
}

let converted: BasemapData | undefined;

/** The sources' GeoJSON, converted on first use (MapLibre copies it to its worker, never edits it). */
export function basemapData(): BasemapData {
  converted ??= { neighbours: neighbours(), states: collection(statesTopology, 'states') };
  return converted;
}

/** Layer id -> [paint property, colour key] for re-colouring on a theme change. */
type PaintProperty = Parameters<MapLibreMap['setPaintProperty']>[1];

export const BASEMAP_PAINT: ReadonlyArray<[string, PaintProperty, keyof BasemapColours]> = [
  ['water', 'background-color', 'water'],
  ['neighbour-fill', 'fill-color', 'neighbour'],
  ['neighbour-line', 'line-color', 'border'],
  ['state-fill', 'fill-color', 'land'],
  ['state-line', 'line-color', 'border'],
];

/**
 * Fills do not antialias their edges: the border lines drawn over them cover those edges, and an
 * antialiased fill costs one more shader program and draw call per tile in every frame (slow in
 * software WebGL).
 */
export function offlineStyle(colours: BasemapColours): StyleSpecification {
  const data = basemapData();
  return {
    version: 8,
    sources: {
      neighbours: { type: 'geojson', data: data.neighbours },
      states: { type: 'geojson', data: data.states },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': colours.water } },
      {
        id: 'neighbour-fill',
        type: 'fill',
        source: 'neighbours',
        paint: { 'fill-color': colours.neighbour, 'fill-antialias': false },
      },
      {
        id: 'neighbour-line',
        type: 'line',
        source: 'neighbours',
        paint: { 'line-color': colours.border, 'line-width': 0.6 },
      },
      {
        id: 'state-fill',
        type: 'fill',
        source: 'states',
        paint: { 'fill-color': colours.land, 'fill-antialias': false },
      },
      {
        id: 'state-line',
        type: 'line',
        source: 'states',
        paint: { 'line-color': colours.border, 'line-width': 0.8 },
      },
    ],
  };
}

/** The configured online style, when the deployment sets one. */
export function configuredStyleUrl(): string | undefined {
  const url: unknown = import.meta.env['VITE_MAP_STYLE_URL'];
  return typeof url === 'string' && url.trim() ? url.trim() : undefined;
}
