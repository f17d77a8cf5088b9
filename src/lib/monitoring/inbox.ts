/**
 * The inbox's view of one page of `/v2/monitoring/list`: profiles in the requested order, their
 * changes flattened to one row per changed field, with triage states, counts per channel and the
 * "new since last visit" mark. Pure functions, no React.
 */
import {
  CHANNELS,
  type Channel,
  type ChangeRecord,
  type ChangeValue,
  type MonitoredProfile,
} from '../service/index.ts';
import type { SortKey, SortOrder, TriageFilter } from './inbox-params.ts';

export type TriageState = 'new' | 'reviewed' | 'escalated';
export const TRIAGE_STATES: readonly TriageState[] = ['new', 'reviewed', 'escalated'];
export const TRIAGE_LABELS: Record<TriageState, string> = {
  new: 'New',
  reviewed: 'Reviewed',
  escalated: 'Escalated',
};

export interface TriageEntry {
  id: string;
  state: TriageState;
  note?: string | undefined;
  by?: string | undefined;
  at?: string | undefined;
}

/** One changed field of one change record: the unit of triage and of the CSV export. */
export interface InboxChange {
  id: string;
  profileId: string;
  dot: string;
  docket: string | undefined;
  /** `YYYY-MM-DD` of the record, when the service sent one */
  date: string | undefined;
  field: string;
  prior: ChangeValue;
  current: ChangeValue;
  channel: Channel | undefined;
}

/** Derives a change's stable identity (profile id + field + change date + values). */
export type ChangeIdentity = (change: Omit<InboxChange, 'id'>) => string;

/** The record fields a profile sorts by: `last_changed_date` etc. as comparable strings. */
function sortValue(profile: MonitoredProfile, key: SortKey): string | undefined {
  if (key === 'profile_id') return profile.profileId;
  const values = profile.records.map((record) => recordSortValue(record, key));
  const present = values.filter((value): value is string => value !== undefined);
  if (present.length === 0) return undefined;
  return key === 'last_changed_date' ? present.sort().at(-1) : present[0];
}

function recordSortValue(record: ChangeRecord, key: SortKey): string | undefined {
  switch (key) {
    case 'last_changed_date':
      return record.lastChangedDate;
    case 'started_monitoring_at':
      return record.startedMonitoringAt;
    case 'last_acknowledged_at':
      return record.lastAcknowledgedAt;
    default: {
      const value = record.extra[key];
      return typeof value === 'string' && value !== '' ? value : undefined;
    }
  }
}

/**
 * The page's profiles in the requested order. `items` is an object and JavaScript lists integer-like
 * keys (bare-DOT ids) first, so the order is rebuilt from the record fields: missing values last in
 * both orders, ties by profile id ascending — as the service sorts.
 */
export function sortProfiles(
  profiles: readonly MonitoredProfile[],
  sortBy: SortKey,
  order: SortOrder,
): MonitoredProfile[] {
  const keyed = profiles.map((profile) => ({ profile, value: sortValue(profile, sortBy) }));
  const sign = order === 'asc' ? 1 : -1;
  keyed.sort((a, b) => {
    if (a.value !== b.value) {
      if (a.value === undefined) return 1;
      if (b.value === undefined) return -1;
      return sign * a.value.localeCompare(b.value);
    }
    return a.profile.profileId.localeCompare(b.profile.profileId);
  });
  return keyed.map(({ profile }) => profile);
}

/** Every changed field of a profile, newest record first (as the service sends them). */
export function profileChanges(profile: MonitoredProfile, identity: ChangeIdentity): InboxChange[] {
  return profile.records.flatMap((record) =>
    record.changes.map((change) => {
      const base = {
        profileId: profile.profileId,
        dot: profile.dot,
        docket: profile.docket,
        date: record.lastChangedDate,
        field: change.field,
        prior: change.prior,
        current: change.current,
        channel: change.channel,
      };
      return { id: identity(base), ...base };
    }),
  );
}

export function stateOf(change: InboxChange, triage: ReadonlyMap<string, TriageEntry>) {
  return triage.get(change.id)?.state ?? 'new';
}

export function matchesTriage(
  change: InboxChange,
  filter: TriageFilter,
  triage: ReadonlyMap<string, TriageEntry>,
): boolean {
  return filter === 'all' || stateOf(change, triage) === filter;
}

export type ChannelCounts = Record<Channel, number> & { other: number; total: number };

/** Untriaged (state New) changes per channel; fields outside every channel count as "other". */
export function untriagedCounts(
  changes: readonly InboxChange[],
  triage: ReadonlyMap<string, TriageEntry>,
): ChannelCounts {
  const counts = Object.fromEntries(CHANNELS.map((c) => [c, 0])) as Record<Channel, number>;
  const result: ChannelCounts = { ...counts, other: 0, total: 0 };
  for (const change of changes) {
    if (stateOf(change, triage) !== 'new') continue;
    result[change.channel ?? 'other'] += 1;
    result.total += 1;
  }
  return result;
}

/** The channels a profile's changes touch, in channel order. */
export function channelsOf(changes: readonly InboxChange[]): Channel[] {
  const seen = new Set(changes.map((change) => change.channel));
  return CHANNELS.filter((channel) => seen.has(channel));
}

/** The newest change date among the changes. */
export function lastChanged(changes: readonly InboxChange[]): string | undefined {
  return changes
    .map((change) => change.date)
    .filter((date): date is string => date !== undefined)
    .sort()
    .at(-1);
}

/**
 * A change is "new since last visit" when its date is after the day of the last visit (dates are
 * days, so a change dated the visit's own day may have been seen then: it is not marked). Without a
 * previous visit nothing is marked.
 */
export function isNewSince(change: InboxChange, lastVisit: string | undefined): boolean {
  if (!lastVisit || !change.date) return false;
  return change.date > lastVisit.slice(0, 10);
}

export type TriageSummary = Record<TriageState, number>;

export function triageSummary(
  changes: readonly InboxChange[],
  triage: ReadonlyMap<string, TriageEntry>,
): TriageSummary {
  const summary: TriageSummary = { new: 0, reviewed: 0, escalated: 0 };
  for (const change of changes) summary[stateOf(change, triage)] += 1;
  return summary;
}
