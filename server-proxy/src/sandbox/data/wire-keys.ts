/**
 * Search keys read back from a wire profile (used for the curated carriers, the live-shape carrier
 * and the heavy carrier, whose profiles exist in full). Current values and historical values
 * (contact_history) are kept apart so current matches rank first.
 */
import { normaliseAddress, normaliseName, normalisePhone } from './normalise.ts';
import type { WireProfile } from './types.ts';

export interface KeySet {
  current: string[];
  past: string[];
}

export interface WireKeys {
  dot: string;
  dockets: { prefix: string; number: string }[];
  names: KeySet;
  ein?: string;
  emails: KeySet;
  phones: KeySet;
  addresses: KeySet;
  vins: Set<string>;
  /** plate -> plate states seen */
  plates: Map<string, Set<string>>;
  /** company unit number -> unit kinds seen */
  units: Map<string, Set<'TRUCK' | 'TRAILER'>>;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);
const list = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : [];

function history(p: WireProfile, keys: string[]): string[] {
  return list(p.contact_history)
    .filter((h) => h.current_flag === false && keys.includes(String(h.key)))
    .flatMap((h) => (text(h.value) ? [String(h.value)] : []));
}

function present(...values: unknown[]): string[] {
  return values.flatMap((v) => (text(v) ? [String(v)] : []));
}

function docketsOf(p: WireProfile): WireKeys['dockets'] {
  const all = [text(p.docket), ...String(p.icc_dockets ?? '').split(',')];
  const out = new Map<string, { prefix: string; number: string }>();
  for (const d of all) {
    const m = d ? /^(MC|MX|FF)0*(\d+)$/.exec(d.trim()) : null;
    if (m) out.set(`${m[1]}${m[2]}`, { prefix: m[1] ?? '', number: m[2] ?? '' });
  }
  return [...out.values()];
}

function addUnit(keys: WireKeys, item: Record<string, unknown>, kind: unknown): void {
  const vin = text(item.vin);
  if (vin) keys.vins.add(vin.toUpperCase());
  const plate = text(item.insp_unit_license);
  if (plate) {
    const states = keys.plates.get(plate.toUpperCase()) ?? new Set<string>();
    const state = text(item.insp_unit_license_state);
    if (state) states.add(state.toUpperCase());
    keys.plates.set(plate.toUpperCase(), states);
  }
  const unit = text(item.insp_unit_company);
  if (unit) {
    const kinds = keys.units.get(unit.toUpperCase()) ?? new Set<'TRUCK' | 'TRAILER'>();
    kinds.add(String(kind).includes('TRAILER') ? 'TRAILER' : 'TRUCK');
    keys.units.set(unit.toUpperCase(), kinds);
  }
}

export function wireKeys(p: WireProfile): WireKeys {
  const keys: WireKeys = {
    dot: String(p.dot_number),
    dockets: docketsOf(p),
    names: {
      current: present(p.legal_name, p.dba_name).map(normaliseName),
      past: history(p, ['legal_name', 'dba_name', 'legal_name_authority']).map(normaliseName),
    },
    ein: text(p.ein),
    emails: {
      current: present(p.email_address).map((e) => e.toLowerCase()),
      past: history(p, ['email_address']).map((e) => e.toLowerCase()),
    },
    phones: {
      current: present(p.telephone_number, p.cellphone_number, p.fax_number).map(normalisePhone),
      past: history(p, ['telephone_number', 'cellphone_number', 'fax_number']).map(normalisePhone),
    },
    addresses: {
      current: present(p.physical_address).map(normaliseAddress),
      past: history(p, ['physical_address']).map(normaliseAddress),
    },
    vins: new Set(),
    plates: new Map(),
    units: new Map(),
  };
  for (const e of list(p.equipment_history)) addUnit(keys, e, e.type);
  for (const i of list(p.inspection_history)) {
    for (const v of list(i.vins)) addUnit(keys, v, v.insp_unit_type_desc);
  }
  return keys;
}
