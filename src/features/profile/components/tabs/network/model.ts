/**
 * The carrier's shared-identifier network: one list per link type with the service's counts, the
 * carriers known by name without a new call, and the cost of naming the rest.
 */
import type { NetworkEquipmentCarrier, Profile } from '../../../../../lib/service/index.ts';

type ListField =
  | 'network_graph_physical_address'
  | 'network_graph_mailing_address'
  | 'network_graph_telephone_number'
  | 'network_graph_cellphone_number'
  | 'network_graph_fax_number'
  | 'network_graph_email'
  | 'network_graph_ein'
  | 'network_graph_duns'
  | 'network_graph_equipment';

type CountField = `network_graph_count_${string}` & keyof Profile;

export interface LinkType {
  id: string;
  label: string;
  list: ListField;
  count: CountField;
}

export const LINK_TYPES: readonly LinkType[] = [
  {
    id: 'physical-address',
    label: 'Physical address',
    list: 'network_graph_physical_address',
    count: 'network_graph_count_physical_address',
  },
  {
    id: 'mailing-address',
    label: 'Mailing address',
    list: 'network_graph_mailing_address',
    count: 'network_graph_count_mailing_address',
  },
  {
    id: 'telephone',
    label: 'Telephone',
    list: 'network_graph_telephone_number',
    count: 'network_graph_count_telephone_numbers',
  },
  {
    id: 'cellphone',
    label: 'Cell phone',
    list: 'network_graph_cellphone_number',
    count: 'network_graph_count_cellphone_numbers',
  },
  {
    id: 'fax',
    label: 'Fax',
    list: 'network_graph_fax_number',
    count: 'network_graph_count_fax_numbers',
  },
  {
    id: 'email',
    label: 'E-mail',
    list: 'network_graph_email',
    count: 'network_graph_count_email_address',
  },
  { id: 'ein', label: 'EIN', list: 'network_graph_ein', count: 'network_graph_count_ein' },
  { id: 'duns', label: 'DUNS', list: 'network_graph_duns', count: 'network_graph_count_duns' },
  {
    id: 'equipment',
    label: 'Equipment (shared VINs)',
    list: 'network_graph_equipment',
    count: 'network_graph_count_equipment',
  },
];

export interface NetworkLink {
  type: LinkType;
  /** distinct DOTs, in the order sent, without the carrier itself */
  dots: string[];
  /** the service's own counter (may differ from the list, as in live data) */
  count: number | undefined;
}

/** DOT numbers compare without leading zeros. */
export function normaliseDot(dot: string): string {
  return dot.trim().replace(/^0+(?=\d)/, '');
}

export function networkLinks(profile: Profile, ownDot: string): NetworkLink[] {
  const own = normaliseDot(ownDot);
  return LINK_TYPES.map((type) => ({
    type,
    dots: [...new Set((profile[type.list] ?? []).map(normaliseDot))].filter((d) => d !== own),
    count: profile[type.count],
  }));
}

/** Every linked DOT once, in link-type order. */
export function linkedDots(links: readonly NetworkLink[]): string[] {
  return [...new Set(links.flatMap((link) => link.dots))];
}

/** What is known about a linked carrier without calling the service again. */
export interface KnownCarrier {
  dot: string;
  name: string | undefined;
  usdotStatus: string | undefined;
  outOfService: boolean | undefined;
  source: 'equipment' | 'profile' | 'lite';
  /** a lite look-up found no carrier with this DOT */
  notFound?: boolean;
}

export function fromEquipment(carriers: readonly NetworkEquipmentCarrier[] | undefined) {
  const known = new Map<string, KnownCarrier>();
  for (const c of carriers ?? []) {
    if (!c.dot_number) continue;
    const dot = normaliseDot(c.dot_number);
    known.set(dot, {
      dot,
      name: c.legal_name,
      usdotStatus: c.usdot_status,
      outOfService: c.out_of_service_flag,
      source: 'equipment',
    });
  }
  return known;
}

/** Merge sources: earlier maps win for a DOT unless they lack a name. */
export function mergeKnown(...sources: readonly ReadonlyMap<string, KnownCarrier>[]) {
  const merged = new Map<string, KnownCarrier>();
  for (const source of sources) {
    for (const [dot, carrier] of source) {
      const current = merged.get(dot);
      if (!current?.name)
        merged.set(dot, current ? { ...carrier, ...pickDefined(current) } : carrier);
    }
  }
  return merged;
}

function pickDefined(carrier: KnownCarrier): Partial<KnownCarrier> {
  return Object.fromEntries(Object.entries(carrier).filter(([, v]) => v !== undefined));
}

/** The DOTs with no name yet and not already looked up: what a look-up would have to call for. */
export function unnamedDots(dots: readonly string[], known: ReadonlyMap<string, KnownCarrier>) {
  return dots.filter((dot) => {
    const carrier = known.get(dot);
    return !carrier?.name && !carrier?.notFound;
  });
}

/** A linked carrier that is revoked, inactive or out of service: a fraud signal for this one. */
export function isTroubled(carrier: KnownCarrier | undefined): boolean {
  if (!carrier) return false;
  if (carrier.outOfService === true) return true;
  const status = carrier.usdotStatus?.toLowerCase() ?? '';
  return status.includes('inactive') || status.includes('revoked') || status.includes('out');
}

export function describeStatus(carrier: KnownCarrier | undefined): string | undefined {
  if (!carrier) return undefined;
  const parts = [];
  if (carrier.usdotStatus) parts.push(`USDOT ${carrier.usdotStatus.toLowerCase()}`);
  if (carrier.outOfService === true) parts.push('out of service');
  return parts.length ? parts.join(', ') : undefined;
}

export interface LookupCost {
  carriers: number;
  unitUsd: number;
  totalUsd: number;
  billed: boolean;
}

/** N new DOTs × the lite profile's price; not billed outside live mode. */
export function lookupCost(carriers: number, unitUsd: number, billed: boolean): LookupCost {
  return { carriers, unitUsd, totalUsd: Math.round(carriers * unitUsd * 1000) / 1000, billed };
}
