/**
 * The network as a graph: a node per DOT, an edge per (pair of DOTs, shared identifier type), built
 * from the profiles at hand (the carrier shown and every carrier expanded) and merged so a pair
 * stated from both sides is one edge with the evidence of both. Pure: no React, no fetching.
 */
import type {
  NetworkEquipmentCarrier,
  Profile,
  Vehicle,
} from '../../../../../lib/service/index.ts';
import type { Outcome } from '../../../../../lib/vetting/types.ts';
import {
  LINK_TYPES,
  fromEquipment,
  mergeKnown,
  networkLinks,
  normaliseDot,
  type KnownCarrier,
  type LinkType,
  type NetworkLink,
} from './model.ts';

export type NodeStatus = 'active' | 'inactive' | 'out-of-service' | 'revoked' | 'unknown';

/** Legend order and words; the graph's colours are keyed by the same ids. */
export const NODE_STATUSES: readonly { id: NodeStatus; label: string }[] = [
  { id: 'active', label: 'Active' },
  { id: 'inactive', label: 'Inactive' },
  { id: 'out-of-service', label: 'Out of service' },
  { id: 'revoked', label: 'Revoked' },
  { id: 'unknown', label: 'Status unknown' },
];

/** A profile the graph was built from: the carrier shown, or one the user expanded. */
export interface GraphSource {
  dot: string;
  profile: Profile;
}

export interface GraphNode {
  dot: string;
  name: string | undefined;
  status: NodeStatus;
  /** the carrier the tab is about */
  centre: boolean;
  /** its own profile is in the graph (centre or expanded) */
  expanded: boolean;
  /** hops from the centre, for the concentric layout */
  ring: number;
  /** the verdict under the team's policy, for carriers whose profile is at hand */
  verdict: Outcome | undefined;
}

/** One side's statement of a link: what its profile says it shares. */
interface EdgeStatement {
  /** the DOT whose profile lists the other */
  from: string;
  /** the identifier as that profile holds it (unmasked; the panel shows it) */
  identifier: string | undefined;
  /** when that profile's contact history says the identifier became current */
  since: string | undefined;
}

interface SharedVin {
  vin: string;
  make: string | undefined;
  model: string | undefined;
  year: number | undefined;
  /** last inspection of this VIN under each DOT of the pair, where a profile says */
  lastInspection: Record<string, string | undefined>;
}

export interface GraphEdge {
  /** `<lower DOT>~<higher DOT>~<type id>`: one edge per pair and type, whichever side said it */
  id: string;
  source: string;
  target: string;
  type: LinkType;
  /** short, masked label for the canvas */
  label: string;
  statements: EdgeStatement[];
  /** equipment edges only: the VINs both run (empty when no side sent detail) */
  vins: SharedVin[];
  /** the service's shared-VIN count where it sent one, else the VINs listed */
  vinCount: number | undefined;
}

export interface NetworkGraph {
  /** the centre first, then by ring, then DOT number (stable, so the layout is deterministic) */
  nodes: GraphNode[];
  edges: GraphEdge[];
}

// ---------------------------------------------------------------------------------------------
// Identifiers and masking
// ---------------------------------------------------------------------------------------------

type IdentifierField =
  | 'telephone_number'
  | 'cellphone_number'
  | 'fax_number'
  | 'email_address'
  | 'ein'
  | 'duns'
  | 'physical_address'
  | 'mailing_address';

/** The profile field holding the shared identifier of each contact link type. */
const IDENTIFIER_FIELD: Record<string, IdentifierField | undefined> = {
  'physical-address': 'physical_address',
  'mailing-address': 'mailing_address',
  telephone: 'telephone_number',
  cellphone: 'cellphone_number',
  fax: 'fax_number',
  email: 'email_address',
  ein: 'ein',
  duns: 'duns',
};

function addressOf(profile: Profile, kind: 'physical_address' | 'mailing_address') {
  const combined = profile[kind];
  if (combined) return combined;
  const parts = [
    profile[`${kind}_street`],
    profile[`${kind}_city`],
    [profile[`${kind}_state`], profile[`${kind}_zip_code`]].filter(Boolean).join(' '),
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : undefined;
}

/** The identifier a profile shares for a link type, as the profile holds it. */
function identifierOf(profile: Profile, type: LinkType): string | undefined {
  const field = IDENTIFIER_FIELD[type.id];
  if (!field) return undefined;
  if (field === 'physical_address' || field === 'mailing_address') return addressOf(profile, field);
  const value = profile[field];
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

function lastDigits(value: string, n: number): string | undefined {
  const digits = value.replace(/\D/g, '');
  return digits.length >= n ? digits.slice(-n) : undefined;
}

/**
 * The identifier as the canvas may show it. Personal or tax identifiers are masked: a phone, fax,
 * EIN or DUNS to its last 4 digits, an e-mail to its domain. An address is a place of business
 * and a public record, shown as its city and state (the street is in the evidence panel).
 */
export function maskIdentifier(typeId: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  switch (typeId) {
    case 'telephone':
    case 'cellphone':
    case 'fax':
    case 'ein':
    case 'duns': {
      const last = lastDigits(value, 4);
      return last ? `…${last}` : '…';
    }
    case 'email': {
      const at = value.lastIndexOf('@');
      return at >= 0 ? `@${value.slice(at + 1).toLowerCase()}` : '…';
    }
    case 'physical-address':
    case 'mailing-address': {
      const parts = value.split(',').map((p) => p.trim());
      return parts.length >= 3 ? parts.slice(-2).join(', ') : value;
    }
    default:
      return undefined;
  }
}

const SHORT_LABEL: Record<string, string> = {
  'physical-address': 'Address',
  'mailing-address': 'Mailing',
  telephone: 'Phone',
  cellphone: 'Cell',
  fax: 'Fax',
  email: 'E-mail',
  ein: 'EIN',
  duns: 'DUNS',
  equipment: 'VINs',
};

function edgeLabel(type: LinkType, masked: string | undefined, vinCount: number | undefined) {
  if (type.id === 'equipment') return `${vinCount ?? '?'} shared VINs`;
  return masked ? `${SHORT_LABEL[type.id] ?? type.label} ${masked}` : (SHORT_LABEL[type.id] ?? '');
}

function comparable(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9@.]/g, '');
}

/** When the profile's contact history says its current identifier of this kind started. */
function identifierSince(profile: Profile, type: LinkType): string | undefined {
  const field = IDENTIFIER_FIELD[type.id];
  const value = identifierOf(profile, type);
  if (!field || !value) return undefined;
  const entries = (profile.contact_history ?? []).filter((e) => e.key === field);
  const same = entries.filter((e) => e.value && comparable(e.value) === comparable(value));
  const current = same.find((e) => e.current_flag === true) ?? same.find((e) => !e.end_date);
  return (current ?? same[0])?.start_date;
}

// ---------------------------------------------------------------------------------------------
// Status and building
// ---------------------------------------------------------------------------------------------

/** The status colour class of a carrier from what is known of it. */
export function statusOf(
  carrier: Pick<KnownCarrier, 'usdotStatus' | 'outOfService'> | undefined,
): NodeStatus {
  if (!carrier) return 'unknown';
  if (carrier.outOfService === true) return 'out-of-service';
  const status = carrier.usdotStatus?.toLowerCase() ?? '';
  if (status.includes('revoked')) return 'revoked';
  if (status.includes('out of service') || status.includes('out-of-service'))
    return 'out-of-service';
  if (status.includes('inactive')) return 'inactive';
  if (status.includes('active')) return 'active';
  return 'unknown';
}

const TYPE_ORDER = LINK_TYPES.map((t) => t.id);

function edgeId(a: string, b: string, typeId: string): string {
  const [low, high] = Number(a) <= Number(b) ? [a, b] : [b, a];
  return `${low}~${high}~${typeId}`;
}

function vehicleYear(v: Vehicle): number | undefined {
  return typeof v.model_year === 'number' ? v.model_year : undefined;
}

/** Merge VIN detail from one side into the edge's list, by VIN. */
function addVins(
  into: Map<string, SharedVin>,
  vins: readonly Vehicle[],
  underDot: string,
  ownHistory: ReadonlyMap<string, Vehicle>,
  ownDot: string,
  inspected: ReadonlyMap<string, string>,
) {
  for (const v of vins) {
    if (!v.vin) continue;
    const current = into.get(v.vin) ?? {
      vin: v.vin,
      make: undefined,
      model: undefined,
      year: undefined,
      lastInspection: {},
    };
    current.make ??= v.make;
    current.model ??= v.model;
    current.year ??= vehicleYear(v);
    current.lastInspection[underDot] ??= v.last_inspection_date_vin_dot;
    current.lastInspection[ownDot] ??= inspected.get(v.vin);
    const own = ownHistory.get(v.vin);
    if (own) {
      current.make ??= own.make;
      current.model ??= own.model;
      current.year ??= vehicleYear(own);
      current.lastInspection[ownDot] ??= own.last_inspection_date_vin_dot;
    }
    into.set(v.vin, current);
  }
}

/** The latest inspection date of each VIN in a profile's own inspection history. */
function lastInspections(profile: Profile): Map<string, string> {
  const last = new Map<string, string>();
  for (const inspection of profile.inspection_history ?? []) {
    const date = inspection.insp_date;
    if (!date) continue;
    for (const unit of inspection.vins ?? []) {
      if (!unit.vin) continue;
      const seen = last.get(unit.vin);
      if (!seen || seen < date) last.set(unit.vin, date);
    }
  }
  return last;
}

interface Derived {
  dot: string;
  ext: Map<string, NetworkEquipmentCarrier>;
  ownVins: Map<string, Vehicle>;
  inspected: Map<string, string>;
  /** the carriers its equipment links name */
  named: Map<string, KnownCarrier>;
  links: { link: NetworkLink; identifier: string | undefined; since: string | undefined }[];
}

// What the graph reads from each profile, computed once per profile object: the graph is rebuilt
// whenever the page's cache changes, and a heavy profile holds thousands of inspections.
const derived = new WeakMap<Profile, Derived>();

function derive(profile: Profile, dot: string): Derived {
  const cached = derived.get(profile);
  if (cached?.dot === dot) return cached;
  const fresh: Derived = {
    dot,
    ext: new Map(
      (profile.network_graph_equipment_ext ?? [])
        .filter((c) => c.dot_number)
        .map((c) => [normaliseDot(c.dot_number ?? ''), c]),
    ),
    ownVins: new Map(
      (profile.equipment_history ?? []).filter((v) => v.vin).map((v) => [v.vin ?? '', v]),
    ),
    inspected: lastInspections(profile),
    named: fromEquipment(profile.network_graph_equipment_ext),
    links: networkLinks(profile, dot).map((link) => ({
      link,
      identifier: identifierOf(profile, link.type),
      since: identifierSince(profile, link.type),
    })),
  };
  derived.set(profile, fresh);
  return fresh;
}

interface EdgeDraft extends Omit<GraphEdge, 'vins'> {
  vins: Map<string, SharedVin>;
}

function ringsFrom(centre: string, edges: readonly { source: string; target: string }[]) {
  const neighbours = new Map<string, string[]>();
  const link = (from: string, to: string) => {
    const list = neighbours.get(from);
    if (list) list.push(to);
    else neighbours.set(from, [to]);
  };
  for (const e of edges) {
    link(e.source, e.target);
    link(e.target, e.source);
  }
  const ring = new Map([[centre, 0]]);
  const queue = [centre];
  for (let dot = queue.shift(); dot !== undefined; dot = queue.shift()) {
    for (const next of neighbours.get(dot) ?? []) {
      if (ring.has(next)) continue;
      ring.set(next, (ring.get(dot) ?? 0) + 1);
      queue.push(next);
    }
  }
  return ring;
}

/**
 * The graph of the centre and the expanded carriers. `known` names and classifies DOTs that are not
 * sources (the query cache, look-ups); every source's `network_graph_equipment_ext` adds to it.
 * `verdicts` holds the verdicts already computed for carriers whose profile is at hand.
 */
export function buildGraph(
  centre: GraphSource,
  expanded: readonly GraphSource[],
  known: ReadonlyMap<string, KnownCarrier> = new Map(),
  verdicts: ReadonlyMap<string, Outcome> = new Map(),
): NetworkGraph {
  const centreDot = normaliseDot(centre.dot);
  const sources = new Map<string, Profile>([[centreDot, centre.profile]]);
  for (const s of expanded) {
    const dot = normaliseDot(s.dot);
    if (!sources.has(dot)) sources.set(dot, s.profile);
  }

  const edges = new Map<string, EdgeDraft>();
  const equipmentKnown: ReadonlyMap<string, KnownCarrier>[] = [];
  for (const [dot, profile] of sources) {
    const { ext, ownVins, inspected, links, named } = derive(profile, dot);
    equipmentKnown.push(named);
    for (const { link, identifier, since } of links) {
      for (const other of link.dots) {
        const id = edgeId(dot, other, link.type.id);
        const draft: EdgeDraft = edges.get(id) ?? {
          id,
          source: id.split('~')[0] ?? dot,
          target: id.split('~')[1] ?? other,
          type: link.type,
          label: '',
          statements: [],
          vins: new Map(),
          vinCount: undefined,
        };
        if (!draft.statements.some((s) => s.from === dot))
          draft.statements.push({ from: dot, identifier, since });
        if (link.type.id === 'equipment') {
          const carrier = ext.get(other);
          if (carrier) {
            addVins(draft.vins, carrier.shared_vins ?? [], other, ownVins, dot, inspected);
            draft.vinCount ??= carrier.count_shared_vins ?? carrier.shared_vins?.length;
          }
        }
        edges.set(id, draft);
      }
    }
  }

  const finished: GraphEdge[] = [...edges.values()]
    .map((draft) => {
      const vins = [...draft.vins.values()].sort((a, b) => a.vin.localeCompare(b.vin));
      const vinCount = draft.type.id === 'equipment' ? (draft.vinCount ?? vins.length) : undefined;
      const masked = maskIdentifier(
        draft.type.id,
        draft.statements.find((s) => s.identifier)?.identifier,
      );
      return { ...draft, vins, vinCount, label: edgeLabel(draft.type, masked, vinCount) };
    })
    .sort(
      (a, b) =>
        Number(a.source) - Number(b.source) ||
        Number(a.target) - Number(b.target) ||
        TYPE_ORDER.indexOf(a.type.id) - TYPE_ORDER.indexOf(b.type.id),
    );

  const facts = mergeKnown(
    new Map(
      [...sources].map(([dot, p]) => [
        dot,
        {
          dot,
          name: p.legal_name,
          usdotStatus: p.usdot_status,
          outOfService: p.out_of_service_flag,
          source: 'profile' as const,
        },
      ]),
    ),
    known,
    ...equipmentKnown,
  );
  const rings = ringsFrom(centreDot, finished);
  const dots = new Set([centreDot, ...sources.keys()]);
  for (const e of finished) dots.add(e.source).add(e.target);
  const far = rings.size + 1;
  const nodes = [...dots]
    .map((dot): GraphNode => {
      const carrier = facts.get(dot);
      return {
        dot,
        name: carrier?.name,
        status: statusOf(carrier),
        centre: dot === centreDot,
        expanded: sources.has(dot),
        ring: rings.get(dot) ?? far,
        verdict: verdicts.get(dot),
      };
    })
    .sort((a, b) => a.ring - b.ring || Number(a.dot) - Number(b.dot) || a.dot.localeCompare(b.dot));
  return { nodes, edges: finished };
}

/** The edges touching a DOT, in the graph's edge order. */
export function edgesOf(graph: NetworkGraph, dot: string): GraphEdge[] {
  return graph.edges.filter((e) => e.source === dot || e.target === dot);
}

/** The other end of an edge seen from `dot`. */
export function otherEnd(edge: GraphEdge, dot: string): string {
  return edge.source === dot ? edge.target : edge.source;
}

/** `?expand=` as a list: DOTs in order, normalised, once each, without the centre. */
export function parseExpand(value: string | null, centreDot: string): string[] {
  const centre = normaliseDot(centreDot);
  const dots = (value ?? '')
    .split(',')
    .map(normaliseDot)
    .filter((d) => /^\d{1,10}$/.test(d) && d !== centre);
  return [...new Set(dots)];
}
