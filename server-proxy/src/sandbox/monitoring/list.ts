import { channelOfField, type Channel } from '../../../../src/lib/service/channels.ts';
import { compactDay, toCompactDay } from './dates.ts';
import type { DateType, SortKey } from '../../../../src/lib/service/params.ts';
import type { ListQuery } from '../../../../src/lib/service/rules/index.ts';
import type { ProfileDates } from './profile-dates.ts';
import { formatRecord, type ProfileDateField } from './records.ts';
import type { ChangeRow, MonitoringStore, WatchRow } from './store.ts';

export interface ListSources {
  store: MonitoringStore;
  /** The carrier's current date fields, overrides applied (for the `<date>_current` fields). */
  currentDates(dot: string): ProfileDates;
}

export interface ListPage {
  total_count: number;
  /** profile ID -> change records, in the requested order */
  items: [string, Record<string, unknown>[]][];
}

interface Candidate {
  watch: WatchRow;
  /** the records that pass the record filters, newest first */
  records: ChangeRow[];
  dates: () => ProfileDates;
}

/** The channels of each record, worked out once (the store keeps the records until a write). */
const channelsOfRecord = new WeakMap<ChangeRow, ReadonlySet<Channel | undefined>>();

function recordChannels(row: ChangeRow): ReadonlySet<Channel | undefined> {
  let channels = channelsOfRecord.get(row);
  if (!channels) {
    channels = new Set(row.changes.map((change) => channelOfField(change.field)));
    channelsOfRecord.set(row, channels);
  }
  return channels;
}

function inRange(value: string | undefined, query: ListQuery): boolean {
  if (value === undefined) return false;
  if (query.dateMin !== undefined && value < query.dateMin) return false;
  return query.dateMax === undefined || value <= query.dateMax;
}

const hasBounds = (query: ListQuery): boolean =>
  query.dateMin !== undefined || query.dateMax !== undefined;

/** Channel filters and a last_changed_date range select records; the other filters whole profiles. */
function recordMatches(row: ChangeRow, query: ListQuery): boolean {
  if (query.channels.length > 0) {
    const channels = recordChannels(row);
    if (!query.channels.some((channel) => channels.has(channel))) return false;
  }
  const byChangeDate = query.dateType === 'last_changed_date' && hasBounds(query);
  return !byChangeDate || inRange(row.changed_on, query);
}

function profileDateValue(candidate: Candidate, dateType: DateType): string | undefined {
  const { watch } = candidate;
  switch (dateType) {
    case 'last_changed_date':
      return candidate.records[0]?.changed_on;
    case 'started_monitoring_at':
      return compactDay(new Date(watch.started_at * 1000));
    case 'last_acknowledged_at':
      return toCompactDay(watch.acknowledged_at);
    default:
      return toCompactDay(candidate.dates()[dateType.replace(/_current$/, '') as ProfileDateField]);
  }
}

function selected(candidate: Candidate, query: ListQuery): boolean {
  const needsRecords =
    query.anyChange ||
    query.channels.length > 0 ||
    (query.dateType === 'last_changed_date' && hasBounds(query));
  if (needsRecords && candidate.records.length === 0) return false;
  if (query.dateType === 'last_changed_date' || !hasBounds(query)) return true;
  return inRange(profileDateValue(candidate, query.dateType), query);
}

/** Sort value of a profile; epoch seconds and ISO times sort finer than their calendar day. */
function sortValue(candidate: Candidate, key: SortKey): string | number | undefined {
  switch (key) {
    case 'profile_id':
      return candidate.watch.profile_id;
    case 'started_monitoring_at':
      return candidate.watch.started_at;
    case 'last_acknowledged_at':
      return candidate.watch.acknowledged_at ?? undefined;
    default:
      return profileDateValue(candidate, key);
  }
}

/** Profiles without a value for the sort key come last in both orders; ties by profile ID. */
function compareCandidates(query: ListQuery) {
  const direction = query.sortOrder === 'asc' ? 1 : -1;
  return (a: Candidate, b: Candidate): number => {
    const left = sortValue(a, query.sortBy);
    const right = sortValue(b, query.sortBy);
    if (left !== right) {
      if (left === undefined) return 1;
      if (right === undefined) return -1;
      return (left < right ? -1 : 1) * direction;
    }
    return a.watch.profile_id < b.watch.profile_id ? -1 : 1;
  };
}

function memo<T>(compute: () => T): () => T {
  let cached: { value: T } | undefined;
  return () => (cached ??= { value: compute() }).value;
}

function candidates(query: ListQuery, sources: ListSources): Candidate[] {
  const byProfile = new Map<string, ChangeRow[]>();
  for (const row of sources.store.changes(query.profileId)) {
    if (!recordMatches(row, query)) continue;
    const rows = byProfile.get(row.profile_id);
    if (rows) rows.push(row);
    else byProfile.set(row.profile_id, [row]);
  }
  return sources.store.watched(query.profileId).map((watch) => ({
    watch,
    records: byProfile.get(watch.profile_id) ?? [],
    dates: memo(() => sources.currentDates(watch.dot)),
  }));
}

/** GET /v2/monitoring/list: filter, sort and page the watchlist, then format its change records. */
export function listWatchlist(query: ListQuery, sources: ListSources): ListPage {
  const matching = candidates(query, sources).filter((candidate) => selected(candidate, query));
  matching.sort(compareCandidates(query));
  const start = (query.page - 1) * query.pageSize;
  const page = matching.slice(start, start + query.pageSize);
  return {
    total_count: matching.length,
    items: page.map((candidate) => [
      candidate.watch.profile_id,
      candidate.records.map((row) => formatRecord(row, candidate.watch, candidate.dates())),
    ]),
  };
}

/** JSON text of a list page; written by hand so numeric-looking profile IDs keep their order. */
export function listPageJson(page: ListPage): string {
  const items = page.items.map(
    ([id, records]) => `${JSON.stringify(id)}:${JSON.stringify(records)}`,
  );
  return `{"total_count":${page.total_count},"items":{${items.join(',')}}}`;
}
