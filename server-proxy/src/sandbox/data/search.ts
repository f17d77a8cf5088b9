/**
 * Search, autocomplete and vehicle lookup across the three carrier sources. Every matcher yields
 * (dot, rank); results are de-duplicated keeping the best rank and ordered by rank, then DOT number
 * ascending. Ranks: company 0 exact name, 1 name prefix, 2 substring, 3 historical name only;
 * every other key 0 current value, 1 historical value only.
 */
import { HEAVY_CODE_BASE, HEAVY_DOT, HEAVY_IDENTITY, HEAVY_POWER, HEAVY_TRAILERS } from './heavy.ts';
import {
  normaliseAddress,
  normaliseEin,
  normaliseName,
  normalisePhone,
  parseDocket,
  parseEmailQuery,
} from './normalise.ts';
import { blockRoot, dotOfRow, POPULATION_DOT_BASE } from './population-identity.ts';
import { SHARED_UNIT_SLOTS, UNITS_PER_ROW, populationUnits, unitBase } from './population-model.ts';
import type { PopulationStore, RankedRow } from './population-store.ts';
import type { CarrierIdentity, SearchQuery, WireProfile } from './types.ts';
import { decodeVin, unitCodeOfPlate } from './vehicles.ts';
import type { KeySet, WireKeys } from './wire-keys.ts';

interface Match {
  dot: string;
  rank: number;
}

export interface SearcherDeps {
  store: PopulationStore;
  statics: WireKeys[];
  heavyKeys: () => WireKeys;
  getProfile: (dot: string) => WireProfile | undefined;
  /** whether a DOT exists, without building its profile */
  exists: (dot: string) => boolean;
}

const HEAVY_UNITS = HEAVY_POWER + HEAVY_TRAILERS;
const VEHICLE_FIELDS = [
  'type',
  'unit_type_desc',
  'primary_category',
  'make',
  'model',
  'model_year',
  'vehicle_type',
  'gvwr',
  'body_class',
  'ncsa_body_type',
  'body_cab_type',
  'fuel_type_primary',
  'other_trailer_info',
  'trailer_body_type',
  'trailer_type',
];

/** Identity-level keys of the heavy carrier, known without building its profile. */
const HEAVY_LIGHT_KEYS: WireKeys = {
  dot: HEAVY_DOT,
  dockets: [{ prefix: 'MC', number: HEAVY_IDENTITY.docket.slice(2) }],
  names: { current: [HEAVY_IDENTITY.legalName, HEAVY_IDENTITY.dbaName], past: [] },
  ein: HEAVY_IDENTITY.ein,
  emails: { current: [HEAVY_IDENTITY.email], past: [] },
  phones: { current: [HEAVY_IDENTITY.phone], past: [] },
  addresses: {
    current: [normaliseAddress(`${HEAVY_IDENTITY.street} ${HEAVY_IDENTITY.city} ${HEAVY_IDENTITY.state}`)],
    past: [],
  },
  vins: new Set(),
  plates: new Map(),
  units: new Map(),
};

function order(matches: Match[]): string[] {
  const best = new Map<string, number>();
  for (const m of matches) best.set(m.dot, Math.min(best.get(m.dot) ?? m.rank, m.rank));
  return [...best.entries()]
    .sort((a, b) => a[1] - b[1] || Number(a[0]) - Number(b[0]))
    .map(([dot]) => dot);
}

function setRank(set: KeySet, test: (value: string) => boolean): number | undefined {
  if (set.current.some(test)) return 0;
  return set.past.some(test) ? 1 : undefined;
}

export class Searcher {
  private readonly lightKeys: WireKeys[];

  constructor(private readonly deps: SearcherDeps) {
    this.lightKeys = [...deps.statics, HEAVY_LIGHT_KEYS];
  }

  heavyIdentity(): CarrierIdentity {
    return {
      dot: HEAVY_DOT,
      legalName: HEAVY_IDENTITY.legalName,
      dbaName: HEAVY_IDENTITY.dbaName,
      docket: HEAVY_IDENTITY.docket,
      city: HEAVY_IDENTITY.city,
      state: HEAVY_IDENTITY.state,
    };
  }

  search(query: SearchQuery): string[] {
    return order(this.matches(query));
  }

  private matches(query: SearchQuery): Match[] {
    switch (query.key) {
      case 'dot_number':
        return this.byDot(query.value.trim());
      case 'docket_number':
        return this.byDocket(query.value);
      case 'company':
        return this.byCompany(query.value);
      case 'ein':
        return this.byKeySet((k) => (k.ein === normaliseEin(query.value) ? 0 : undefined), (s) =>
          s.ein(normaliseEin(query.value)).map((row) => ({ row, rank: 0 })),
        );
      case 'email':
        return this.byEmail(query.value);
      case 'phone': {
        const q = normalisePhone(query.value);
        return this.byKeySet((k) => setRank(k.phones, (v) => v === q), (s) => s.phone(q));
      }
      case 'address': {
        const q = normaliseAddress(query.value);
        if (!q) return [];
        return this.byKeySet((k) => setRank(k.addresses, (v) => v.includes(q)), (s) => s.address(q));
      }
      case 'vin':
        return this.byVin(query.value.trim().toUpperCase());
      case 'plate_number':
        return this.byPlate(query.value, query.state);
      case 'unit_number':
        return this.byUnit(query.value.trim().toUpperCase(), query.unitType);
    }
  }

  private fromRows(rows: RankedRow[]): Match[] {
    return rows.map((r) => ({ dot: dotOfRow(r.row), rank: r.rank }));
  }

  private byKeySet(
    rankOf: (k: WireKeys) => number | undefined,
    population: (s: PopulationStore) => RankedRow[],
  ): Match[] {
    const out: Match[] = [];
    for (const k of this.lightKeys) {
      const rank = rankOf(k);
      if (rank !== undefined) out.push({ dot: k.dot, rank });
    }
    return [...out, ...this.fromRows(population(this.deps.store))];
  }

  private byDot(dot: string): Match[] {
    if (!/^\d+$/.test(dot)) return [];
    const normal = String(Number(dot));
    return this.deps.exists(normal) ? [{ dot: normal, rank: 0 }] : [];
  }

  private byDocket(value: string): Match[] {
    const q = parseDocket(value);
    if (!q) return [];
    const hit = (d: { prefix: string; number: string }) =>
      d.number === q.number && (q.prefix === undefined || q.prefix === d.prefix);
    return this.byKeySet(
      (k) => (k.dockets.some(hit) ? 0 : undefined),
      (s) => s.docket(q.prefix, q.number).map((row) => ({ row, rank: 0 })),
    );
  }

  private byCompany(value: string): Match[] {
    const q = normaliseName(value);
    if (!q) return [];
    const rankOf = (k: WireKeys) => {
      const names = k.names.current;
      if (names.includes(q)) return 0;
      if (names.some((n) => n.startsWith(q))) return 1;
      if (names.some((n) => n.includes(q))) return 2;
      return k.names.past.some((n) => n.includes(q)) ? 3 : undefined;
    };
    return this.byKeySet(rankOf, (s) => s.company(q));
  }

  private byEmail(value: string): Match[] {
    const { full, domain } = parseEmailQuery(value);
    const test = full ? (v: string) => v === full : (v: string) => domain !== undefined && domain !== '' && v.endsWith(`@${domain}`);
    return this.byKeySet((k) => setRank(k.emails, test), (s) => s.email(full, domain));
  }

  /** Owners of a generated unit code: population rows (plus members sharing it) or the heavy carrier. */
  private ownersOfCode(code: number, matches: (u: { vin: string; plate: string; plateState: string }) => boolean): Match[] {
    const store = this.deps.store;
    if (code < store.size * UNITS_PER_ROW) {
      const row = Math.floor(code / UNITS_PER_ROW);
      const unit = populationUnits(store.seed, row, store.size).find(matches);
      return unit ? [dotOfRow(row), ...unit.sharedWith].map((dot) => ({ dot, rank: 0 })) : [];
    }
    return [];
  }

  private heavyHas(code: number): boolean {
    return code >= HEAVY_CODE_BASE && code < HEAVY_CODE_BASE + HEAVY_UNITS;
  }

  private byVin(vin: string): Match[] {
    const out: Match[] = this.deps.statics.filter((k) => k.vins.has(vin)).map((k) => ({ dot: k.dot, rank: 0 }));
    const decoded = decodeVin(vin);
    if (!decoded) return out;
    if (this.heavyHas(decoded.unitCode) && this.deps.heavyKeys().vins.has(vin)) {
      out.push({ dot: HEAVY_DOT, rank: 0 });
    }
    return [...out, ...this.ownersOfCode(decoded.unitCode, (u) => u.vin === vin)];
  }

  private byPlate(value: string, state?: string): Match[] {
    const plate = value.replace(/[\s-]/g, '').toUpperCase();
    const st = state?.toUpperCase();
    const stateOk = (states: Set<string> | undefined) => states !== undefined && (!st || states.has(st));
    const out: Match[] = this.deps.statics
      .filter((k) => stateOk(k.plates.get(plate)))
      .map((k) => ({ dot: k.dot, rank: 0 }));
    const code = unitCodeOfPlate(plate);
    if (code === undefined) return out;
    if (this.heavyHas(code) && stateOk(this.deps.heavyKeys().plates.get(plate))) {
      out.push({ dot: HEAVY_DOT, rank: 0 });
    }
    return [...out, ...this.ownersOfCode(code, (u) => u.plate === plate && (!st || u.plateState === st))];
  }

  private byUnit(unit: string, unitType?: 'TRUCK' | 'TRAILER'): Match[] {
    const typeOk = (kinds: Set<'TRUCK' | 'TRAILER'> | undefined) =>
      kinds !== undefined && (!unitType || kinds.has(unitType));
    const out: Match[] = this.deps.statics
      .filter((k) => typeOk(k.units.get(unit)))
      .map((k) => ({ dot: k.dot, rank: 0 }));
    if (!/^\d+$/.test(unit)) return out;
    const n = Number(unit);
    const heavyIndex = n - 10_000;
    if (heavyIndex >= 0 && heavyIndex < HEAVY_UNITS) {
      const kind = heavyIndex < HEAVY_POWER ? 'TRUCK' : 'TRAILER';
      if (!unitType || unitType === kind) out.push({ dot: HEAVY_DOT, rank: 0 });
    }
    const store = this.deps.store;
    for (const row of store.unitNumber(n, unitType)) {
      out.push({ dot: dotOfRow(row), rank: 0 });
      if (row === blockRoot(row) && n - unitBase(store.seed, row) < SHARED_UNIT_SLOTS && unitType !== 'TRAILER') {
        const shared = populationUnits(store.seed, row, store.size).find((u) => u.unitNumber === unit);
        for (const dot of shared?.sharedWith ?? []) out.push({ dot, rank: 0 });
      }
    }
    return out;
  }

  autocomplete(q: string, limit: number): string[] {
    const query = normaliseName(q);
    const max = Math.max(0, Math.floor(limit));
    if (query.length === 0 || max === 0) return [];
    const dots = /^\d+$/.test(query) ? this.dotPrefix(query, max) : [];
    const names = this.namePrefix(query, max);
    return [...new Set([...dots, ...names])].slice(0, max);
  }

  private dotPrefix(prefix: string, limit: number): string[] {
    const fixed = this.lightKeys
      .map((k) => k.dot)
      .filter((d) => d.startsWith(prefix))
      .sort((a, b) => a.length - b.length || Number(a) - Number(b));
    const out = [...fixed];
    const lo = POPULATION_DOT_BASE;
    const hi = POPULATION_DOT_BASE + this.deps.store.size - 1;
    for (let extra = 0; prefix.length + extra <= String(hi).length && out.length < limit * 2; extra += 1) {
      const scale = 10 ** extra;
      const from = Math.max(lo, Number(prefix) * scale);
      const to = Math.min(hi, Number(prefix) * scale + scale - 1);
      for (let d = from; d <= to && out.length < limit * 2; d += 1) out.push(String(d));
    }
    return out.sort((a, b) => a.length - b.length || Number(a) - Number(b)).slice(0, limit);
  }

  /**
   * The fixture carriers (the curated ten, which are all a `sk_test_` key of the real service
   * serves, and the heavy carrier) first, then the seeded population; each in name order. The
   * population is this sandbox's addition for scale: it must not push a fixture out of the first
   * `limit` answers (hundreds of generated "SWIFTLINE …" names would hide SWIFTPATH EXPRESS LLC).
   */
  private namePrefix(prefix: string, limit: number): string[] {
    const fixtures: { name: string; dot: string }[] = [];
    for (const k of this.lightKeys) {
      for (const name of k.names.current) if (name.startsWith(prefix)) fixtures.push({ name, dot: k.dot });
    }
    const population: { name: string; dot: string }[] = [];
    const store = this.deps.store;
    for (const row of store.namePrefix(prefix, limit)) {
      const id = store.identity(row);
      const name = id.legalName.startsWith(prefix) ? id.legalName : (id.dbaName ?? id.legalName);
      population.push({ name, dot: id.dot });
    }
    const byName = (a: { name: string; dot: string }, b: { name: string; dot: string }) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : Number(a.dot) - Number(b.dot);
    return [...fixtures.sort(byName), ...population.sort(byName)].map((n) => n.dot);
  }

  vehicle(vin: string): { decoded: Record<string, unknown>; inspections: Record<string, unknown>[] } | undefined {
    const target = vin.trim().toUpperCase();
    const owners = this.search({ key: 'vin', value: target });
    const decoded: Record<string, unknown> = { vin: target };
    const inspections: Record<string, unknown>[] = [];
    for (const dot of owners) {
      const profile = this.deps.getProfile(dot);
      if (!profile) continue;
      const record = asRecords(profile.equipment_history).find((e) => e.vin === target);
      for (const field of VEHICLE_FIELDS) if (record && decoded[field] === undefined) decoded[field] = record[field];
      for (const i of asRecords(profile.inspection_history)) {
        if (asRecords(i.vins).some((v) => v.vin === target)) {
          inspections.push({ ...i, dot_number: dot, legal_name: profile.legal_name });
        }
      }
    }
    if (owners.length === 0) return undefined;
    inspections.sort((a, b) => String(b.insp_date).localeCompare(String(a.insp_date)));
    return { decoded, inspections };
  }
}

function asRecords(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null)
    : [];
}
