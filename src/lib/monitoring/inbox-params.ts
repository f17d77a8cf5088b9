/**
 * The inbox's state lives in the URL. `readInboxParams` turns any query string into valid params
 * (unknown or malformed values fall back to their default, so a bad URL never crashes the page);
 * `writeInboxParams` writes back only what differs from the defaults; `listQuery` maps them to the
 * service's `/v2/monitoring/list` parameters.
 */
import {
  CHANNELS,
  DATE_TYPES,
  SORT_KEYS,
  type Channel,
  type DateType,
  type SortKey,
} from '../service/index.ts';

export { DATE_TYPES, SORT_KEYS, type DateType, type SortKey };
export type SortOrder = 'asc' | 'desc';

export const TRIAGE_FILTERS = ['all', 'new', 'reviewed', 'escalated'] as const;
export type TriageFilter = (typeof TRIAGE_FILTERS)[number];

export const PAGE_SIZES = [25, 50, 100, 250, 500] as const;
export const MAX_PAGE_SIZE = 500;
const MAX_PAGE = 1_000_000;

export interface InboxParams {
  page: number;
  pageSize: number;
  /** only profiles with changes (`view_changes`) */
  changedOnly: boolean;
  /** `view_changes_<channel>`; several combine as a union */
  channels: Channel[];
  dateType: DateType;
  /** `YYYY-MM-DD` (the inputs' format); sent as `YYYYMMDD` */
  dateMin: string | undefined;
  dateMax: string | undefined;
  sortBy: SortKey;
  sortOrder: SortOrder;
  profileId: string | undefined;
  /** client side, over the loaded page only */
  triage: TriageFilter;
}

export const DEFAULT_INBOX_PARAMS: InboxParams = {
  page: 1,
  pageSize: 100,
  changedOnly: true,
  channels: [],
  dateType: 'last_changed_date',
  dateMin: undefined,
  dateMax: undefined,
  sortBy: 'last_changed_date',
  sortOrder: 'desc',
  profileId: undefined,
  triage: 'all',
};

const PROFILE_ID = /^[1-9]\d{0,7}(-(MC|MX|FF)\d{1,8})?$/i;

function oneOf<T extends string>(values: readonly T[], raw: string | null, fallback: T): T {
  return raw !== null && (values as readonly string[]).includes(raw) ? (raw as T) : fallback;
}

function readInt(raw: string | null, fallback: number, max: number): number {
  if (raw === null || !/^\d{1,9}$/.test(raw)) return fallback;
  const value = Number(raw);
  return value >= 1 ? Math.min(value, max) : fallback;
}

function readBoolean(raw: string | null, fallback: boolean): boolean {
  const lower = raw?.toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  return fallback;
}

/** `YYYYMMDD` or `YYYY-MM-DD` of a real calendar date → `YYYY-MM-DD`; anything else → undefined. */
export function readDate(raw: string | null | undefined): string | undefined {
  const match = raw ? /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(raw) : null;
  if (!match) return undefined;
  const [, year, month, day] = match;
  const iso = `${year}-${month}-${day}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : undefined;
}

/** `YYYY-MM-DD` → `YYYYMMDD`, the service's date format. */
function compactDate(iso: string): string {
  return iso.replaceAll('-', '');
}

function readDateRange(search: URLSearchParams) {
  // An inverted range is kept as the user gave it: the filters say what is wrong with it, and
  // `listQuery` leaves it out (upstream it would be a 400).
  return { dateMin: readDate(search.get('date_min')), dateMax: readDate(search.get('date_max')) };
}

/** "From" after "To": no date can match. The message the filters show, or undefined. */
export function dateRangeProblem(params: Pick<InboxParams, 'dateMin' | 'dateMax'>) {
  const { dateMin, dateMax } = params;
  if (!dateMin || !dateMax || dateMin <= dateMax) return undefined;
  return `“From” (${dateMin}) is after “To” (${dateMax}), so the date filter is not applied. Change one of them.`;
}

export function readInboxParams(search: URLSearchParams): InboxParams {
  const d = DEFAULT_INBOX_PARAMS;
  const profileId = search.get('profile_id')?.trim();
  return {
    page: readInt(search.get('page'), d.page, MAX_PAGE),
    pageSize: readInt(search.get('pageSize'), d.pageSize, MAX_PAGE_SIZE),
    changedOnly: readBoolean(search.get('view_changes'), d.changedOnly),
    channels: CHANNELS.filter((channel) =>
      readBoolean(search.get(`view_changes_${channel}`), false),
    ),
    dateType: oneOf(DATE_TYPES, search.get('date_type'), d.dateType),
    ...readDateRange(search),
    sortBy: oneOf(SORT_KEYS, search.get('sortBy'), d.sortBy),
    sortOrder: oneOf(['asc', 'desc'] as const, search.get('sortOrder'), d.sortOrder),
    profileId: profileId && PROFILE_ID.test(profileId) ? profileId.toUpperCase() : undefined,
    triage: oneOf(TRIAGE_FILTERS, search.get('triage'), d.triage),
  };
}

/** The URL query of the params, with defaults left out. */
export function writeInboxParams(params: InboxParams): URLSearchParams {
  const d = DEFAULT_INBOX_PARAMS;
  const search = new URLSearchParams();
  if (params.page !== d.page) search.set('page', String(params.page));
  if (params.pageSize !== d.pageSize) search.set('pageSize', String(params.pageSize));
  if (params.changedOnly !== d.changedOnly) search.set('view_changes', String(params.changedOnly));
  for (const channel of CHANNELS) {
    if (params.channels.includes(channel)) search.set(`view_changes_${channel}`, 'true');
  }
  if (params.dateType !== d.dateType) search.set('date_type', params.dateType);
  if (params.dateMin) search.set('date_min', compactDate(params.dateMin));
  if (params.dateMax) search.set('date_max', compactDate(params.dateMax));
  if (params.sortBy !== d.sortBy) search.set('sortBy', params.sortBy);
  if (params.sortOrder !== d.sortOrder) search.set('sortOrder', params.sortOrder);
  if (params.profileId) search.set('profile_id', params.profileId);
  if (params.triage !== d.triage) search.set('triage', params.triage);
  return search;
}

/** Changing any filter goes back to the first page; changing only the page keeps the rest. */
export function updateInboxParams(params: InboxParams, patch: Partial<InboxParams>): InboxParams {
  const next = { ...params, ...patch };
  const onlyPage = Object.keys(patch).every((key) => key === 'page' || key === 'triage');
  return onlyPage ? next : { ...next, page: 1 };
}

export type ListQuery = Record<string, string | number>;

/** The service's list parameters (everything except the client-side triage filter). */
export function listQuery(params: InboxParams): ListQuery {
  const query: ListQuery = {
    page: params.page,
    pageSize: params.pageSize,
    sortBy: params.sortBy,
    sortOrder: params.sortOrder,
  };
  if (params.changedOnly) query.view_changes = 'true';
  for (const channel of params.channels) query[`view_changes_${channel}`] = 'true';
  if (dateRangeProblem(params) === undefined) {
    if (params.dateMin || params.dateMax) query.date_type = params.dateType;
    if (params.dateMin) query.date_min = compactDate(params.dateMin);
    if (params.dateMax) query.date_max = compactDate(params.dateMax);
  }
  if (params.profileId) query.profile_id = params.profileId;
  return query;
}
