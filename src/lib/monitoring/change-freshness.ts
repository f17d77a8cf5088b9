/**
 * When does a change the monitoring list reports make held carrier data out of date? One rule for
 * the proxy's caches and the browser's query cache (runtime-neutral, no I/O).
 *
 * Change records carry `last_changed_date` as a calendar day (`YYYYMMDD`, read as `YYYY-MM-DD`), no
 * time. Data fetched at an instant is out of date when the change's day is on or after the UTC day
 * of the fetch: a change dated the day of the fetch may have come after it, and the day alone cannot
 * tell, so it counts (one extra fetch, free within the month, is cheaper than showing old data).
 * Data fetched anew because of a change of day D (`refreshedAfterChange: D`) already holds every
 * change dated D or earlier: only a later change makes it out of date again (without this, a change
 * dated today would make every fetch made today out of date again, on every poll).
 * A change without a readable date cannot be placed and outdates nothing.
 */
import { readKind } from '../service/kinds.ts';

/** What is known of held data: when it was fetched, and after which change (if any). */
export interface HeldFreshness {
  /** ISO instant (or a Date) of the fetch */
  fetchedAt: string | Date;
  /** `YYYY-MM-DD` of the change whose report made it be fetched anew */
  refreshedAfterChange?: string | undefined;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The UTC day (`YYYY-MM-DD`) of an instant, or undefined when it is not one. */
export function utcDayOf(at: string | Date): string | undefined {
  const date = typeof at === 'string' ? new Date(at) : at;
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 10);
}

/** Does a change dated `changeDay` (`YYYY-MM-DD`) outdate `held`? See the module's rule. */
export function changeOutdates(changeDay: string, held: HeldFreshness): boolean {
  if (!DAY.test(changeDay)) return false;
  const refreshed = held.refreshedAfterChange;
  if (refreshed !== undefined && changeDay <= refreshed) return false;
  const fetchedDay = utcDayOf(held.fetchedAt);
  return fetchedDay !== undefined && changeDay >= fetchedDay;
}

/** The later of two `YYYY-MM-DD` days (either may be missing). */
export function laterDay(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a >= b ? a : b;
}

const SUFFIX_CHANGED = '_changed';

/** Does a raw change record mark at least one field as changed (`<f>_changed` true / "Y" / 1)? */
function recordHasChange(record: Record<string, unknown>): boolean {
  for (const key of Object.keys(record)) {
    if (key.length <= SUFFIX_CHANGED.length || !key.endsWith(SUFFIX_CHANGED)) continue;
    const flag = readKind('flag', record[key]);
    if (flag.ok && flag.value === true) return true;
  }
  return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Per DOT, the newest day of a change a `monitoring/list` body reports (the body as the service
 * sends it: `{items: {<profile id>: [record, ...]}}`). A light read: only the `_changed` flags and
 * `last_changed_date` of each record, not the whole parse the inbox makes.
 */
export function newestChangeDays(body: unknown): Map<string, string> {
  const days = new Map<string, string>();
  const items = isRecord(body) ? body.items : undefined;
  if (!isRecord(items)) return days;
  for (const [profileId, records] of Object.entries(items)) {
    const dot = profileId.split('-')[0]?.trim() ?? '';
    if (!/^\d{1,8}$/.test(dot) || !Array.isArray(records)) continue;
    for (const record of records) {
      if (!isRecord(record) || !recordHasChange(record)) continue;
      const date = readKind('date', record.last_changed_date);
      if (!date.ok || date.value === undefined) continue;
      const newest = laterDay(days.get(dot), date.value);
      if (newest !== undefined) days.set(dot, newest);
    }
  }
  return days;
}

/** Enough of a monitored profile to know its newest change (the shared parser's shape). */
export interface ProfileChanges {
  dot: string;
  records: readonly { lastChangedDate?: string | undefined; changes: readonly unknown[] }[];
}

/** Per DOT, the day of the newest change the profiles show (records with a change and a date). */
export function newestChangeDaysOf(profiles: readonly ProfileChanges[]): Map<string, string> {
  const days = new Map<string, string>();
  for (const profile of profiles) {
    for (const record of profile.records) {
      if (record.changes.length === 0 || record.lastChangedDate === undefined) continue;
      const newest = laterDay(days.get(profile.dot), record.lastChangedDate);
      if (newest !== undefined) days.set(profile.dot, newest);
    }
  }
  return days;
}
