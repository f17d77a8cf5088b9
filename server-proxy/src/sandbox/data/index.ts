/**
 * The sandbox's carrier dataset: ten curated carriers, the heavy benchmark carrier and a seeded
 * population, behind the `CarrierDataset` contract. See docs/sandbox-data.md.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LRUCache } from 'lru-cache';
import { buildProfile } from './build-profile.ts';
import { CURATED_DOTS, LIVE_SHAPE_DOT, curatedModels } from './curated.ts';
import { HEAVY_DOT, heavyModel } from './heavy.ts';
import { populationModel } from './population-model.ts';
import { PopulationStore } from './population-store.ts';
import { Searcher } from './search.ts';
import type { CarrierDataset, CarrierIdentity, SearchQuery, WireProfile } from './types.ts';
import { wireKeys } from './wire-keys.ts';

export type { CarrierDataset } from './types.ts';

// Resolved from this file's path (not with `new URL`, whose global is the DOM's in jsdom tests).
const LIVE_SHAPE_FILE = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../../../fixtures/live-shapes/profile_265752.json',
);

function readLiveShape(): WireProfile {
  return JSON.parse(readFileSync(LIVE_SHAPE_FILE, 'utf8')) as WireProfile;
}

function identityOf(p: WireProfile): CarrierIdentity {
  const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  const dba = text(p.dba_name);
  const docket = text(p.docket);
  return {
    dot: String(p.dot_number),
    legalName: String(p.legal_name ?? ''),
    ...(dba ? { dbaName: dba } : {}),
    ...(docket ? { docket } : {}),
    city: String(p.physical_address_city ?? ''),
    state: String(p.physical_address_state ?? ''),
  };
}

export interface DatasetOptions {
  seed: number;
  population: number;
}

export function createDataset(opts: DatasetOptions): CarrierDataset {
  const seed = opts.seed >>> 0;
  const store = new PopulationStore(seed, Math.max(0, Math.floor(opts.population)));
  const fixed = new Map<string, WireProfile>();
  for (const model of curatedModels()) fixed.set(model.dot, buildProfile(model));
  fixed.set(LIVE_SHAPE_DOT, readLiveShape());
  let heavy: WireProfile | undefined;
  const heavyProfile = () => (heavy ??= buildProfile(heavyModel(seed, store.size)));
  // The most recently built population profiles (a profile page asks for the same one repeatedly).
  const cache = new LRUCache<number, WireProfile>({ max: 128 });
  const populationProfile = (row: number): WireProfile => {
    const hit = cache.get(row);
    if (hit) return hit;
    const built = buildProfile(populationModel(seed, row, store.size));
    cache.set(row, built);
    return built;
  };

  const getProfile = (dot: string): WireProfile | undefined => {
    const known = fixed.get(dot);
    if (known) return known;
    if (dot === HEAVY_DOT) return heavyProfile();
    const row = store.rowOfDot(dot);
    return row === undefined ? undefined : populationProfile(row);
  };

  const searcher = new Searcher({
    store,
    statics: [...fixed.values()].map(wireKeys),
    heavyKeys: () => wireKeys(heavyProfile()),
    getProfile,
    exists: (dot) => fixed.has(dot) || dot === HEAVY_DOT || store.rowOfDot(dot) !== undefined,
  });

  return {
    seed,
    size: fixed.size + 1 + store.size,
    curatedDots: CURATED_DOTS,
    heavyDot: HEAVY_DOT,
    getProfile,
    getIdentity(dot) {
      const known = fixed.get(dot);
      if (known) return identityOf(known);
      if (dot === HEAVY_DOT) return searcher.heavyIdentity();
      const row = store.rowOfDot(dot);
      return row === undefined ? undefined : store.identity(row);
    },
    search: (query: SearchQuery) => searcher.search(query),
    autocomplete: (q, limit) =>
      searcher.autocomplete(q, limit).map((dot) => {
        const known = fixed.get(dot);
        if (known) return identityOf(known);
        if (dot === HEAVY_DOT) return searcher.heavyIdentity();
        return store.identity(store.rowOfDot(dot) ?? 0);
      }),
    vehicle: (vin) => searcher.vehicle(vin),
  };
}
