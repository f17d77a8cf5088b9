import type { SearchQuery } from './data/types.ts';
import { SEARCH_KEYS, type SearchKey } from '../../../src/lib/service/params.ts';
import { PLATE_STATE_RULE, SEARCH_KEY_RULES } from '../../../src/lib/service/search-rules.ts';
import { badRequest } from './errors.ts';

/** Query strings as Fastify parses them: repeated names become arrays. */
export type RawQuery = Record<string, string | string[] | undefined>;

export { type SearchKey };

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 100;
const MAX_PAGE = 100_000;

export interface Paging {
  page: number;
  pageSize: number;
}

export interface ProfileSearch extends Paging {
  query: SearchQuery;
}

/** Reject names outside `allowed` and repeated names; returns the single string values. */
export function singleValues(raw: RawQuery, allowed: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!allowed.includes(name)) {
      throw badRequest(
        'unknown_parameter',
        `Unknown query parameter "${truncate(name)}"`,
        `Allowed parameters: ${allowed.join(', ')}.`,
      );
    }
    if (Array.isArray(value)) {
      throw badRequest(
        'duplicate_parameter',
        `Query parameter "${name}" was given ${value.length} times`,
        `Send "${name}" once.`,
      );
    }
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** A positive integer parameter, or undefined when absent; `code` names the 400. */
export function positiveInt(
  value: string | undefined,
  name: string,
  code: string,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,9}$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw badRequest(
      code,
      `"${name}" must be a whole number from 1 to ${max}, got "${truncate(value)}"`,
      `Use e.g. ${name}=1.`,
    );
  }
  return Number(value);
}

/** page >= 1 (400 otherwise); pageSize >= 1 (400 otherwise), above MAX_PAGE_SIZE clamped. */
export function parsePaging(values: Record<string, string>): Paging {
  const page = positiveInt(values.page, 'page', 'invalid_page', MAX_PAGE) ?? 1;
  const size = positiveInt(values.pageSize, 'pageSize', 'invalid_page_size', 1_000_000_000);
  return { page, pageSize: Math.min(size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE) };
}

const NARROWING: Record<string, SearchKey> = {
  plate_state: 'plate_number',
  unit_type: 'unit_number',
};

const PROFILE_PARAMS: readonly string[] = [
  ...SEARCH_KEYS,
  ...Object.keys(NARROWING),
  'page',
  'pageSize',
];

/** Exactly one of `keys` present; returns it. */
export function exactlyOneKey<K extends string>(
  values: Record<string, string>,
  keys: readonly K[],
): K {
  const given = keys.filter((key) => values[key] !== undefined);
  const [first] = given;
  if (first === undefined) {
    throw badRequest(
      'missing_search_key',
      'No search key was given',
      `Give exactly one of: ${keys.join(', ')}.`,
    );
  }
  if (given.length > 1) {
    throw badRequest(
      'multiple_search_keys',
      `Several search keys were given: ${given.join(', ')}`,
      'Give exactly one search key per request.',
    );
  }
  return first;
}

/** The validated, trimmed value of search key `key`, or the key's specific 400. */
export function searchValue(key: SearchKey, raw: string): string {
  const value = raw.trim();
  const rule = SEARCH_KEY_RULES[key];
  if (!rule.valid(value)) {
    throw badRequest(
      `invalid_${key}`,
      value === '' ? `"${key}" is empty` : `"${key}" is not valid: "${truncate(value)}"`,
      `Expected ${rule.expected}.`,
    );
  }
  return key === 'dot_number' ? String(Number(value)) : value;
}

function checkNarrowing(values: Record<string, string>, key: SearchKey): void {
  for (const [param, owner] of Object.entries(NARROWING)) {
    if (values[param] !== undefined && owner !== key) {
      throw badRequest(
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
    throw badRequest(
      'invalid_plate_state',
      `"plate_state" must be a two-letter state or province code, got "${truncate(value)}"`,
      'Use e.g. plate_state=TX.',
    );
  }
  return value.toUpperCase();
}

function unitType(raw: string | undefined): 'TRUCK' | 'TRAILER' | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim().toUpperCase();
  if (value !== 'TRUCK' && value !== 'TRAILER') {
    throw badRequest(
      'invalid_unit_type',
      `"unit_type" must be TRUCK or TRAILER, got "${truncate(raw)}"`,
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

/** Parse the query of /v2/profile and /v2/profile-lite; throws a SandboxError (400) when invalid. */
export function parseProfileSearch(raw: RawQuery): ProfileSearch {
  const values = singleValues(raw, PROFILE_PARAMS);
  const key = exactlyOneKey(values, SEARCH_KEYS);
  checkNarrowing(values, key);
  const value = searchValue(key, values[key] ?? '');
  return { query: toSearchQuery(key, value, values), ...parsePaging(values) };
}
