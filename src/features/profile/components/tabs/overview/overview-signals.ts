/**
 * The overview's identity signals: the chameleon relation (shared identifiers with a carrier in bad
 * standing, or, for a carrier in bad standing, the active carrier that shares its identifiers: its
 * likely successor) and recent contact changes, each as one plain statement with the tab section that
 * shows the evidence. Read from the profile on screen only (network lists, the equipment links'
 * statuses, the change dates): no extra call. The Network and Contact tabs show the same facts.
 */
import { carrierPath } from '../../../../../lib/carrier/paths.ts';
import { formatDate } from '../../../../../lib/format.ts';
import type { Profile } from '../../../../../lib/service/index.ts';
import {
  RECENT_CHANGE_DAYS,
  describeChange,
  recentChanges,
  referenceDate,
} from '../contact/model.ts';
import {
  describeStatus,
  fromEquipment,
  isTroubled,
  linkedDots,
  networkLinks,
  normaliseDot,
  type KnownCarrier,
  type NetworkLink,
} from '../network/model.ts';

/** A linked carrier named in a statement (rendered as a link to its profile). */
interface NamedCarrier {
  dot: string;
  name: string | undefined;
}

type SignalPart = string | NamedCarrier;

export interface OverviewSignal {
  id: 'network' | 'contact';
  tone: 'concern' | 'ok' | 'info';
  /** the statement: text with the linked carriers in it */
  parts: SignalPart[];
  /** where the evidence is: the tab section */
  evidence: { href: string; label: string };
}

/** "physical address", "telephone", "EIN", "equipment (4 VINs)". */
function identifierWord(link: NetworkLink, vins: number | undefined): string {
  if (link.type.id === 'equipment') return vins ? `equipment (${vins} VINs)` : 'equipment';
  const label = link.type.label;
  return /^[A-Z]{2,}/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);
}

function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1) ?? ''}`;
}

function isActive(carrier: KnownCarrier | undefined): boolean {
  return carrier?.usdotStatus?.trim().toLowerCase() === 'active' && carrier.outOfService !== true;
}

function networkSignal(profile: Profile, dot: string): OverviewSignal {
  const evidence = {
    href: carrierPath(dot, 'network', 'network-summary'),
    label: 'Network: shared identifiers',
  };
  const links = networkLinks(profile, profile.dot_number ?? dot);
  const dots = linkedDots(links);
  const known = fromEquipment(profile.network_graph_equipment_ext);
  const vins = new Map(
    (profile.network_graph_equipment_ext ?? []).map((c) => [
      normaliseDot(c.dot_number ?? ''),
      c.count_shared_vins,
    ]),
  );
  const shared = (linked: string) =>
    listWords(
      links
        .filter((link) => link.dots.includes(linked))
        .map((link) => identifierWord(link, vins.get(linked))),
    );
  const named = (linked: string): NamedCarrier => ({ dot: linked, name: known.get(linked)?.name });

  const troubled = dots.filter((linked) => isTroubled(known.get(linked)));
  if (troubled.length > 0) {
    return {
      id: 'network',
      tone: 'concern',
      parts: [
        'Chameleon warning: shares identifiers with a carrier that is revoked, inactive or out of service — ',
        ...troubled.flatMap((linked, index): SignalPart[] => [
          ...(index > 0 ? ['; '] : []),
          named(linked),
          ` (${describeStatus(known.get(linked)) ?? 'in bad standing'}): ${shared(linked)}`,
        ]),
        '.',
      ],
      evidence,
    };
  }

  const self: KnownCarrier = {
    dot,
    name: profile.legal_name,
    usdotStatus: profile.usdot_status,
    outOfService: profile.out_of_service_flag,
    source: 'profile',
  };
  const active = dots.filter((linked) => isActive(known.get(linked)));
  if (isTroubled(self) && active.length > 0) {
    const standing = describeStatus(self) ?? 'in bad standing';
    return {
      id: 'network',
      tone: 'concern',
      parts: [
        `Chameleon warning: this carrier is ${standing}, and `,
        ...active.flatMap((linked, index): SignalPart[] => {
          const later = Number(linked) > Number(normaliseDot(profile.dot_number ?? dot));
          return [
            ...(index > 0 ? ['; '] : []),
            later ? 'its likely successor ' : 'the active carrier ',
            named(linked),
            ` (USDOT active${later ? ', registered later' : ''}) shares its ${shared(linked)}`,
          ];
        }),
        '.',
      ],
      evidence,
    };
  }

  if (dots.length > 0) {
    return {
      id: 'network',
      tone: 'info',
      parts: [
        `Shares identifiers with ${dots.length} other ${dots.length === 1 ? 'carrier' : 'carriers'}; none is known to be revoked, inactive or out of service.`,
      ],
      evidence,
    };
  }
  return {
    id: 'network',
    tone: 'ok',
    parts: ['Shares no phone, address, e-mail, tax id or vehicle with another carrier.'],
    evidence,
  };
}

function contactSignal(profile: Profile, dot: string): OverviewSignal {
  const evidence = {
    href: carrierPath(dot, 'contact', 'contact-recent'),
    label: 'Contact & history: recent changes',
  };
  const reference = referenceDate(profile);
  const changes = recentChanges(profile, reference);
  if (changes.length === 0) {
    return {
      id: 'contact',
      tone: 'ok',
      parts: [
        `No name, phone, e-mail or address change in the ${RECENT_CHANGE_DAYS} days before the snapshot (${formatDate(reference)}).`,
      ],
      evidence,
    };
  }
  return {
    id: 'contact',
    tone: 'concern',
    parts: [
      `Contact details changed recently: ${changes.map((change) => describeChange(change, formatDate)).join('; ')}.`,
    ],
    evidence,
  };
}

/** The overview's summary lines: the network (chameleon) signal and the recent contact changes. */
export function overviewSignals(profile: Profile, dot: string): OverviewSignal[] {
  return [networkSignal(profile, dot), contactSignal(profile, dot)];
}
