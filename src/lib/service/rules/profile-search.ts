/**
 * The query of `/v2/profile` and `/v2/profile-lite`: exactly one of the ten search keys, the two
 * narrowing parameters of plate and unit searches, and paging.
 */
import { ParamError } from '../param-error.ts';
import { SEARCH_KEYS, type SearchKey } from '../params.ts';
import { PLATE_STATE_RULE, SEARCH_KEY_RULES } from '../search-rules.ts';
import { exactlyOneKey, positiveInt, quote, singleValues, type RawQuery } from './query.ts';

/** The service's page size when none is given, and the largest it serves (larger is clamped). */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 100;
const MAX_PAGE = 100_000;

/** One validated search: the key, its normalised value and the narrowing of plate/unit searches. */
export type SearchQuery =
  | { key: 'dot_number'; value: string }
  | { key: 'docket_number'; value: string }
  | { key: 'company'; value: string }
  | { key: 'ein'; value: string }
  | { key: 'email'; value: string }
  | { key: 'phone'; value: string }
  | { key: 'address'; value: string }
  | { key: 'vin'; value: string }
  | { key: 'plate_number'; value: string; state?: string }
  | { key: 'unit_number'; value: string; unitType?: 'TRUCK' | 'TRAILER' };

export interface Paging {
  page: number;
  pageSize: number;
}

export interface ProfileSearch extends Paging {
  query: SearchQuery;
}

/** page >= 1 (400 otherwise); pageSize >= 1 (400 otherwise), above MAX_PAGE_SIZE clamped. */
export function parsePaging(values: Record<string, string>): Paging {
  const page = positiveInt(values.page, 'page', 'invalid_page', MAX_PAGE) ?? 1;
  const size = positiveInt(values.pageSize, 'pageSize', 'invalid_page_size', 1_000_000_000);
  return { page, pageSize: Math.min(size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE) };
}

/** Parameters that narrow one kind of search, by the search key they narrow. */
const NARROWING: Record<string, SearchKey> = {
  plate_state: 'plate_number',
  unit_type: 'unit_number',
};

/** Every parameter `/v2/profile` takes: the search keys, their narrowing filters, paging. */
export const PROFILE_PARAMS: readonly string[] = [
  ...SEARCH_KEYS,
  ...Object.keys(NARROWING),
  'page',
  'pageSize',
];

/** The validated, trimmed value of search key `key`, or the key's specific 400. */
export function searchValue(key: SearchKey, raw: string): string {
  const value = raw.trim();
  const rule = SEARCH_KEY_RULES[key];
  if (!rule.valid(value)) {
    throw new ParamError(
      `invalid_${key}`,
      value === '' ? `"${key}" is empty` : `"${key}" is not valid: "${quote(value)}"`,
      `Expected ${rule.expected}.`,
    );
  }
  return key === 'dot_number' ? String(Number(value)) : value;
}

function checkNarrowing(values: Record<string, string>, key: SearchKey): void {
  for (const [param, owner] of Object.entries(NARROWING)) {
    if (values[param] !== undefined && owner !== key) {
      throw new ParamError(
        `${param}_without_${owner}`,
        `"${param}" only narrows a "${owner}" search`,
        `Add ${owner}=... or drop ${param}.`,
      );
    }
  }
}

function plateState(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim();
  if (!PLATE_STATE_RULE.valid(value)) {
    throw new ParamError(
      'invalid_plate_state',
      `"plate_state" must be a two-letter state or province code, got "${quote(value)}"`,
      'Use e.g. plate_state=TX.',
    );
  }
  return value.toUpperCase();
}

function unitType(raw: string | undefined): 'TRUCK' | 'TRAILER' | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim().toUpperCase();
  if (value !== 'TRUCK' && value !== 'TRAILER') {
    throw new ParamError(
      'invalid_unit_type',
      `"unit_type" must be TRUCK or TRAILER, got "${quote(raw)}"`,
      'Use unit_type=TRUCK or unit_type=TRAILER, or leave it out.',
    );
  }
  return value;
}

function toSearchQuery(key: SearchKey, value: string, values: Record<string, string>): SearchQuery {
  switch (key) {
    case 'plate_number':
      return { key, value, state: plateState(values.plate_state) };
    case 'unit_number':
      return { key, value, unitType: unitType(values.unit_type) };
    default:
      return { key, value };
  }
}

/** Parse the query of /v2/profile and /v2/profile-lite; throws a ParamError when invalid. */
export function parseProfileSearch(raw: RawQuery): ProfileSearch {
  const values = singleValues(raw, PROFILE_PARAMS);
  const key = exactlyOneKey(values, SEARCH_KEYS);
  checkNarrowing(values, key);
  const value = searchValue(key, values[key] ?? '');
  return { query: toSearchQuery(key, value, values), ...parsePaging(values) };
}
