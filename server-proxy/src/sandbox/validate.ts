import type { SearchQuery } from './data/types.ts';
import { SEARCH_KEYS, type SearchKey } from '../../../src/lib/service/params.ts';
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

interface KeyRule {
  /** Whether the (trimmed) value is acceptable. */
  valid: (value: string) => boolean;
  /** What a valid value looks like, for the hint. */
  expected: string;
}

const VIN_RE = /^[A-HJ-NPR-Z0-9]{17}$/i;
/** True when `value` holds an ASCII control character (tab, newline, NUL, DEL ...). */
export function hasControlChars(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
const printable = (value: string): boolean => !hasControlChars(value);
const lengthBetween = (value: string, min: number, max: number): boolean =>
  value.length >= min && value.length <= max && printable(value);

const KEY_RULES: Record<SearchKey, KeyRule> = {
  dot_number: {
    valid: (v) => /^0*[1-9][0-9]{0,7}$/.test(v),
    expected: 'a USDOT number of 1 to 8 digits, e.g. 568253',
  },
  docket_number: {
    valid: (v) => /^(?:(?:MC|MX|FF)-?)?[0-9]{1,8}$/i.test(v),
    expected: 'MC, MX or FF followed by digits, or digits only, e.g. MC277621 or 277621',
  },
  company: {
    valid: (v) => lengthBetween(v, 2, 120),
    expected: 'a legal or DBA name (part) of 2 to 120 characters',
  },
  ein: {
    valid: (v) => /^[0-9]{9}$|^[0-9]{2}-[0-9]{7}$/.test(v),
    expected: 'an EIN of 9 digits, optionally written as 12-3456789',
  },
  email: {
    valid: (v) =>
      v.length <= 254 && /^(?:[^\s@]+@)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9-]+)+$/i.test(v),
    expected: 'an e-mail address (dispatch@example.com) or a domain (example.com)',
  },
  phone: {
    valid: (v) => /^[0-9\s().+-]{10,25}$/.test(v) && /^1?[0-9]{10}$/.test(v.replace(/\D/g, '')),
    expected: 'a 10-digit US/Canada phone number, digits or formatted, e.g. (555) 123-4567',
  },
  address: {
    valid: (v) => lengthBetween(v, 3, 200),
    expected: 'a physical address (part) of 3 to 200 characters',
  },
  vin: {
    valid: (v) => VIN_RE.test(v),
    expected: '17 characters of digits and letters other than I, O and Q',
  },
  plate_number: {
    valid: (v) => /^[A-Z0-9][A-Z0-9 -]{0,9}$/i.test(v),
    expected: 'a license plate of 1 to 10 letters, digits, spaces or hyphens',
  },
  unit_number: {
    valid: (v) => /^[A-Z0-9][A-Z0-9 _-]{0,19}$/i.test(v),
    expected: 'a fleet unit number of 1 to 20 letters, digits, spaces, hyphens or underscores',
  },
};

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
  const rule = KEY_RULES[key];
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
  if (!/^[A-Z]{2}$/i.test(value)) {
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
