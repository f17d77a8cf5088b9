/**
 * The carriers an answer of the service names: `[dot, legal name, DBA, docket]` read tolerantly
 * from every shape the live service and the spec use (an `{items}` envelope or a bare object or
 * array, numbers as strings or numbers, empty strings and nulls for "none"). Reads only the
 * identity keys of each item (and the network graph's carriers), never the long histories, so a
 * 13.5 MB profile costs about as little as a lite one.
 */
import type { Endpoint } from '../context.ts';
import type { NameSighting, NameSource } from './store.ts';

const DOT = /^[1-9]\d{0,7}$/;
/** At most this many items of one list are read (a search page is ≤ 100, a network far less). */
const MAX_ITEMS = 1000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dotOf(value: unknown): string | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  const dot = text.trim().replace(/^0+/, '');
  return DOT.test(dot) ? dot : undefined;
}

/** A name as stated: trimmed text, `''` when the answer states none (null, blank), `null` if absent. */
function stated(item: Record<string, unknown>, key: string): string | null {
  if (!(key in item)) return null;
  const value = item[key];
  if (typeof value !== 'string') return '';
  return value.replace(/\s+/g, ' ').trim();
}

/** `MC277621`, from `docket` or from `docket_prefix` + `docket_number`. */
function docketOf(item: Record<string, unknown>): string | null {
  const whole = item.docket;
  if (typeof whole === 'string' && /^[A-Za-z]{2}\d+$/.test(whole.trim())) {
    return whole.trim().toUpperCase();
  }
  const prefix = item.docket_prefix;
  const number =
    typeof item.docket_number === 'number' ? String(item.docket_number) : item.docket_number;
  if (typeof prefix === 'string' && typeof number === 'string' && /^\d+$/.test(number.trim())) {
    const joined = `${prefix.trim()}${number.trim()}`.toUpperCase();
    if (/^[A-Z]{2}\d+$/.test(joined)) return joined;
  }
  return null;
}

function sightingOf(item: unknown, source: NameSource): NameSighting | undefined {
  if (!isRecord(item)) return undefined;
  const dot = dotOf(item.dot_number);
  if (dot === undefined) return undefined;
  const legal = stated(item, 'legal_name');
  const dba = stated(item, 'dba_name');
  if (!legal && !dba) return undefined;
  return { dot, legal: legal || null, dba, docket: docketOf(item), source };
}

/** The items of an answer: `{items: [...]}`, a bare array, or one bare object. */
function itemsOf(json: unknown): unknown[] {
  if (Array.isArray(json)) return json.slice(0, MAX_ITEMS);
  if (!isRecord(json)) return [];
  if (Array.isArray(json.items)) return json.items.slice(0, MAX_ITEMS);
  if (Array.isArray(json.suggestions)) return json.suggestions.slice(0, MAX_ITEMS);
  return [json];
}

/** Carriers of a profile's network graph lists (`network_graph_*`: `{dot_number, legal_name}`). */
function networkOf(item: unknown): NameSighting[] {
  if (!isRecord(item)) return [];
  const out: NameSighting[] = [];
  for (const key of Object.keys(item)) {
    if (!key.startsWith('network_graph')) continue;
    const list = item[key];
    if (!Array.isArray(list)) continue;
    for (const entry of list.slice(0, MAX_ITEMS)) {
      const sighting = sightingOf(entry, 'network');
      // a network entry's DBA and docket are not stated: the stored ones stay
      if (sighting?.legal) out.push({ ...sighting, dba: null, docket: null });
    }
  }
  return out;
}

const SOURCES: Partial<Record<Endpoint, NameSource>> = {
  profile: 'profile',
  'profile-lite': 'profile-lite',
  'profile-fmcsa': 'profile-fmcsa',
  autocomplete: 'autocomplete',
};

/**
 * The carriers a successful answer of `endpoint` names, one sighting per DOT (the answer's own
 * items before its network graph's). Other endpoints (monitoring) name none.
 */
export function sightingsIn(endpoint: Endpoint, json: unknown): NameSighting[] {
  const source = SOURCES[endpoint];
  if (source === undefined) return [];
  const byDot = new Map<string, NameSighting>();
  const items = itemsOf(json);
  for (const item of items) {
    const sighting = sightingOf(item, source);
    if (sighting && !byDot.has(sighting.dot)) byDot.set(sighting.dot, sighting);
  }
  if (endpoint === 'profile') {
    for (const item of items) {
      for (const sighting of networkOf(item)) {
        if (!byDot.has(sighting.dot)) byDot.set(sighting.dot, sighting);
      }
    }
  }
  return [...byDot.values()];
}
