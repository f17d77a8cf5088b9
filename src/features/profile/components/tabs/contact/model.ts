/**
 * What the contact tab derives: per-key timelines of `contact_history`, the change counters and the
 * recent changes (a fraud signal: contact details changed shortly before the snapshot).
 */
import type { ContactEntry, Profile } from '../../../../../lib/service/index.ts';

/**
 * A change within this many days before the snapshot counts as recent; so does any change dated after
 * the snapshot (newer than the rest of the record: the most urgent case).
 */
export const RECENT_CHANGE_DAYS = 90;

const KEY_LABELS: Readonly<Record<string, string>> = {
  legal_name: 'Legal name',
  dba_name: 'DBA name',
  telephone_number: 'Telephone',
  cellphone_number: 'Cell phone',
  fax_number: 'Fax',
  email_address: 'E-mail',
  physical_address: 'Physical address',
  mailing_address: 'Mailing address',
  company_contact_primary: 'Primary contact',
  company_contact_secondary: 'Secondary contact',
  physical_address_id: 'Physical address id',
  mailing_address_id: 'Mailing address id',
  physical_address_authority_id: 'Authority address id',
};

function keyLabel(key: string): string {
  return KEY_LABELS[key] ?? key.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
}

const DAY_MS = 86_400_000;

/** Whole days from `from` to `to` (both `YYYY-MM-DD`); undefined when either is unreadable. */
export function daysBetween(from: string, to: string): number | undefined {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  return Number.isNaN(a) || Number.isNaN(b) ? undefined : Math.round((b - a) / DAY_MS);
}

/** The reference date for "recent": the snapshot date, else today (UTC). */
export function referenceDate(profile: Profile, today: Date = new Date()): string {
  return profile.snapshot_date ?? today.toISOString().slice(0, 10);
}

export function isRecent(date: string | undefined, reference: string): boolean {
  if (!date) return false;
  const days = daysBetween(date, reference);
  return days !== undefined && days <= RECENT_CHANGE_DAYS;
}

export interface Timeline {
  key: string;
  label: string;
  /** newest first: current entries first, then by start date descending */
  entries: ContactEntry[];
}

function newestFirst(a: ContactEntry, b: ContactEntry): number {
  if (Boolean(a.current_flag) !== Boolean(b.current_flag)) return a.current_flag ? -1 : 1;
  return (b.start_date ?? '').localeCompare(a.start_date ?? '');
}

/** Entries grouped per key, keys in order of first appearance, each group newest first. */
export function timelines(entries: readonly ContactEntry[] | undefined): Timeline[] {
  const groups = new Map<string, ContactEntry[]>();
  for (const entry of entries ?? []) {
    const key = entry.key ?? 'unknown';
    const group = groups.get(key) ?? [];
    group.push(entry);
    groups.set(key, group);
  }
  return [...groups].map(([key, group]) => ({
    key,
    label: keyLabel(key),
    entries: [...group].sort(newestFirst),
  }));
}

type ChangeKind = 'name' | 'email' | 'phone' | 'address' | 'contact';

const CHANGE_KINDS: readonly { kind: ChangeKind; label: string }[] = [
  { kind: 'name', label: 'Name' },
  { kind: 'email', label: 'E-mail' },
  { kind: 'phone', label: 'Phone' },
  { kind: 'address', label: 'Address' },
  { kind: 'contact', label: 'Any contact detail' },
];

export interface ChangeCounter {
  kind: ChangeKind;
  label: string;
  count: number | undefined;
  lastChanged: string | undefined;
  recent: boolean;
  /** days from the last change to the snapshot (negative: the change is newer than the snapshot) */
  daysAgo: number | undefined;
}

export function changeCounters(profile: Profile, reference: string): ChangeCounter[] {
  return CHANGE_KINDS.map(({ kind, label }) => {
    const lastChanged = profile[`${kind}_last_changed`];
    return {
      kind,
      label,
      count: profile[`${kind}_change_count`],
      lastChanged,
      recent: isRecent(lastChanged, reference),
      daysAgo: lastChanged ? daysBetween(lastChanged, reference) : undefined,
    };
  });
}

/** Recent changes of the specific kinds (the catch-all "contact" counter is left out). */
export function recentChanges(profile: Profile, reference: string): ChangeCounter[] {
  return changeCounters(profile, reference).filter((c) => c.recent && c.kind !== 'contact');
}

/** "Phone changed 21 days before the snapshot (26 Oct 2026)". */
export function describeChange(change: ChangeCounter, formatDate: (d: string) => string): string {
  const days = change.daysAgo;
  const when =
    days === 0
      ? 'on the snapshot day'
      : days !== undefined && days < 0
        ? `${-days} days after the snapshot`
        : `${days ?? '?'} days before the snapshot`;
  return `${change.label} changed ${when} (${formatDate(change.lastChanged ?? '')})`;
}

export interface AddressView {
  id: string;
  label: string;
  line: string | undefined;
  country: string | undefined;
  addressId: string | undefined;
  undeliverable: boolean | undefined;
}

function joinAddress(street?: string, city?: string, state?: string, zip?: string) {
  const cityLine = [city, [state, zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [street, cityLine].filter(Boolean).join(', ') || undefined;
}

export function addresses(p: Profile): AddressView[] {
  return [
    {
      id: 'physical',
      label: 'Physical address',
      line:
        p.physical_address ??
        joinAddress(
          p.physical_address_street,
          p.physical_address_city,
          p.physical_address_state,
          p.physical_address_zip_code,
        ),
      country: p.physical_address_iso_country_code,
      addressId: p.physical_address_id,
      undeliverable: p.undeliverable_physical_address,
    },
    {
      id: 'mailing',
      label: 'Mailing address',
      line:
        p.mailing_address ??
        joinAddress(
          p.mailing_address_street,
          p.mailing_address_city,
          p.mailing_address_state,
          p.mailing_address_zip_code,
        ),
      country: p.mailing_address_iso_country_code,
      addressId: p.mailing_address_id,
      undeliverable: p.undeliverable_mailing_address,
    },
    {
      id: 'authority',
      label: 'Authority physical address',
      line:
        p.physical_address_authority ??
        joinAddress(
          p.physical_address_authority_street,
          p.physical_address_authority_city,
          p.physical_address_authority_state,
          p.physical_address_authority_zip_code,
        ),
      country: p.physical_address_authority_iso_country_code,
      addressId: p.physical_address_authority_id,
      undeliverable: p.undeliverable_physical_address_authority,
    },
  ];
}

export interface AddressPoint {
  id: string;
  lat: number;
  lon: number;
  label: string;
  kind: 'physical' | 'mailing';
}

/** The zip-code points of `geo_points` (physical, mailing). */
export function addressPoints(p: Profile): AddressPoint[] {
  const points: AddressPoint[] = [];
  const physical = p.geo_points?.physical_address_zip_code;
  const mailing = p.geo_points?.mailing_address_zip_code;
  if (physical) {
    points.push({
      id: 'physical',
      ...physical,
      label: `Physical address zip ${p.physical_address_zip_code ?? ''}`.trim(),
      kind: 'physical',
    });
  }
  if (mailing) {
    points.push({
      id: 'mailing',
      ...mailing,
      label: `Mailing address zip ${p.mailing_address_zip_code ?? ''}`.trim(),
      kind: 'mailing',
    });
  }
  return points;
}
