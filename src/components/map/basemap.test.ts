import type { FeatureCollection } from 'geojson';
import type { FillLayerSpecification } from 'maplibre-gl';
import { describe, expect, it } from 'vitest';
import { basemapColours, basemapData, offlineStyle } from './basemap.ts';

const names = (collection: FeatureCollection) =>
  collection.features.map((f) => String((f.properties as { name?: unknown } | null)?.name));

describe('the offline basemap', () => {
  it('has every US state and DC, and Canada and Mexico around them', () => {
    const { states, neighbours } = basemapData();
    expect(states.features.length).toBeGreaterThanOrEqual(51);
    expect(names(states)).toEqual(
      expect.arrayContaining(['Texas', 'Alaska', 'Hawaii', 'District of Columbia']),
    );
    expect(names(neighbours).sort()).toEqual(['Canada', 'Mexico']);
  });

  it('converts the TopoJSON once: every later map reuses it', () => {
    const first = offlineStyle(basemapColours(false));
    const second = offlineStyle(basemapColours(true));
    expect(basemapData()).toBe(basemapData());
    const data = (style: typeof first, id: string) => (style.sources[id] as { data: unknown }).data;
    expect(data(second, 'states')).toBe(data(first, 'states'));
    expect(data(second, 'neighbours')).toBe(data(first, 'neighbours'));
  });

  it('draws fills without antialiased edges (the border lines cover them), in the theme colours', () => {
    const style = offlineStyle(basemapColours(true));
    const fills = style.layers.filter((l): l is FillLayerSpecification => l.type === 'fill');
    expect(fills.map((l) => l.id)).toEqual(['neighbour-fill', 'state-fill']);
    for (const fill of fills) expect(fill.paint?.['fill-antialias']).toBe(false);
    expect(fills[1]?.paint?.['fill-color']).toBe(basemapColours(true).land);
  });
});
