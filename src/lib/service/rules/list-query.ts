/** The query of `GET /v2/monitoring/list`: paging, change filters, a date range, sort, one profile. */
import { CHANNELS, type Channel } from '../channels.ts';
import { ParamError } from '../param-error.ts';
import { DATE_TYPES, SORT_KEYS, type DateType, type SortKey } from '../params.ts';
import { formatProfileId, parseProfileId } from './profile-id.ts';
import { positiveInt, quote, singleValues, type RawQuery } from './query.ts';

const LIST_DEFAULT_PAGE_SIZE = 100;
const LIST_MAX_PAGE_SIZE = 500;
const MAX_PAGE = 1_000_000;

const CHANNEL_PARAMS = CHANNELS.map((channel) => `view_changes_${channel}`);
export const LIST_PARAMS: readonly string[] = [
  'page',
  'pageSize',
  'view_changes',
  ...CHANNEL_PARAMS,
  'date_type',
  'date_min',
  'date_max',
  'sortBy',
  'sortOrder',
  'profile_id',
];

export interface ListQuery {
  page: number;
  pageSize: number;
  /** view_changes=true: only profiles with at least one change record */
  anyChange: boolean;
  /** view_changes_<channel>=true: only records (and profiles) touching one of these channels */
  channels: Channel[];
  /** the date a date range applies to; defaults to last_changed_date when a bound is given */
  dateType: DateType;
  dateMin?: string;
  dateMax?: string;
  sortBy: SortKey;
  sortOrder: 'asc' | 'desc';
  profileId?: string;
}

/** True for a real calendar date written 'YYYYMMDD' (the format of `date_min`/`date_max`). */
export function isCompactDate(value: string): boolean {
  if (!/^\d{8}$/.test(value)) return false;
  const iso = `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
  const parsed = new Date(`${iso}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === iso;
}

const TRUE_VALUES = new Set(['true', '1']);
const FALSE_VALUES = new Set(['false', '0']);

function booleanParam(values: Record<string, string>, name: string): boolean {
  const raw = values[name];
  if (raw === undefined) return false;
  const value = raw.toLowerCase();
  if (TRUE_VALUES.has(value)) return true;
  if (FALSE_VALUES.has(value)) return false;
  throw new ParamError(
    'invalid_boolean',
    `"${name}" must be true, false, 1 or 0, got "${quote(raw)}"`,
    `Use ${name}=true to filter, or leave it out.`,
  );
}

function oneOf<T extends string>(
  values: Record<string, string>,
  name: string,
  allowed: readonly T[],
  code: string,
): T | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const match = allowed.find((candidate) => candidate === raw);
  if (match === undefined) {
    throw new ParamError(
      code,
      `"${name}" must be one of ${allowed.join(', ')}; got "${quote(raw)}"`,
      `Use e.g. ${name}=${allowed[0] ?? ''}.`,
    );
  }
  return match;
}

function dateBound(values: Record<string, string>, name: string): string | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (!isCompactDate(raw)) {
    throw new ParamError(
      'invalid_date',
      `"${name}" must be a calendar date written YYYYMMDD, got "${quote(raw)}"`,
      `Use e.g. ${name}=20260131.`,
    );
  }
  return raw;
}

function dateRange(values: Record<string, string>) {
  const dateType = oneOf(values, 'date_type', DATE_TYPES, 'invalid_date_type');
  const dateMin = dateBound(values, 'date_min');
  const dateMax = dateBound(values, 'date_max');
  if (dateMin !== undefined && dateMax !== undefined && dateMin > dateMax) {
    throw new ParamError(
      'invalid_date_range',
      `"date_min" (${dateMin}) is after "date_max" (${dateMax})`,
      'Swap the bounds; both are inclusive.',
    );
  }
  return { dateType: dateType ?? 'last_changed_date', dateMin, dateMax };
}

function profileIdParam(values: Record<string, string>): string | undefined {
  const raw = values.profile_id;
  if (raw === undefined) return undefined;
  const parsed = parseProfileId(raw);
  if (!parsed) {
    throw new ParamError(
      'invalid_profile_id',
      `"profile_id" is not a profile ID: "${quote(raw)}"`,
      'Use <dot>-<docket>, e.g. 568253-MC277621, or the bare DOT of a carrier without a docket.',
    );
  }
  return formatProfileId(parsed.dot, parsed.docket);
}

function paging(values: Record<string, string>) {
  const page = positiveInt(values.page, 'page', 'invalid_page', MAX_PAGE) ?? 1;
  const size = positiveInt(values.pageSize, 'pageSize', 'invalid_page_size', 999_999_999);
  return { page, pageSize: Math.min(size ?? LIST_DEFAULT_PAGE_SIZE, LIST_MAX_PAGE_SIZE) };
}

/** Parse and validate the query of GET /v2/monitoring/list; throws the specific 400. */
export function parseListQuery(raw: RawQuery): ListQuery {
  const values = singleValues(raw, LIST_PARAMS);
  return {
    ...paging(values),
    anyChange: booleanParam(values, 'view_changes'),
    channels: CHANNELS.filter((channel) => booleanParam(values, `view_changes_${channel}`)),
    ...dateRange(values),
    sortBy: oneOf(values, 'sortBy', SORT_KEYS, 'invalid_sort_by') ?? 'last_changed_date',
    sortOrder: oneOf(values, 'sortOrder', ['asc', 'desc'] as const, 'invalid_sort_order') ?? 'desc',
    profileId: profileIdParam(values),
  };
}
