/**
 * Validation of browser requests before anything is forwarded. The rules are the service
 * contract's (src/lib/service/rules, the project's one implementation of the service's parameter
 * rules, which the sandbox answers with too), plus the stricter bounds the proxy adds so that
 * nothing the live service might reject is ever billed (`limit` above 15 is refused, not clamped).
 * Every failure is a 400 ProxyError with a specific code.
 */
import {
  AUTOCOMPLETE_MAX_LIMIT,
  DEFAULT_PAGE_SIZE,
  exactlyOneKey,
  formatProfileId,
  parseAutocompleteQuery,
  parseListQuery,
  parseProfileIdsBody,
  parseProfileSearch,
  positiveInt,
  searchValue,
  singleValues,
  type ListQuery,
  type RawQuery,
} from '../../src/lib/service/rules/index.ts';
import type { Endpoint } from './context.ts';
import { toProxyError } from './errors.ts';

/** A validated request, ready to forward: canonical parameters plus what billing and audit need. */
export interface ForwardRequest {
  endpoint: Endpoint;
  method: 'GET' | 'POST';
  /** query parameters to send, in canonical order */
  query: [string, string][];
  body?: { profile_ids: string[] };
  /** the search key used and its (normalised) value, for the audit */
  searchKey?: string;
  searchValue?: string;
  /** DOT numbers known from the request itself (DOT lookups, profile ids) */
  dots: string[];
}

type Validator = (query: RawQuery, body: unknown) => ForwardRequest;

function profileSearch(endpoint: 'profile' | 'profile-lite'): Validator {
  return (raw) => {
    const { query, page, pageSize } = parseProfileSearch(raw);
    const params: [string, string][] = [[query.key, query.value]];
    if (query.key === 'plate_number' && query.state) params.push(['plate_state', query.state]);
    if (query.key === 'unit_number' && query.unitType) params.push(['unit_type', query.unitType]);
    if (page !== 1) params.push(['page', String(page)]);
    // A DOT lookup answers exactly one item or none, whatever the page size: the size is left out
    // so that the search page (`pageSize=10`) and the profile page (no size) share one cache entry
    // and one upstream call (the live key allows five profile calls a minute).
    const singleDot = query.key === 'dot_number';
    if (pageSize !== DEFAULT_PAGE_SIZE && !singleDot) {
      params.push(['pageSize', String(pageSize)]);
    }
    return {
      endpoint,
      method: 'GET',
      query: params,
      searchKey: query.key,
      searchValue: query.value,
      dots: query.key === 'dot_number' ? [query.value] : [],
    };
  };
}

const FMCSA_KEYS = ['dot_number', 'docket_number'] as const;

const fmcsa: Validator = (raw) => {
  const values = singleValues(raw, FMCSA_KEYS);
  const key = exactlyOneKey(values, FMCSA_KEYS);
  const value = searchValue(key, values[key] ?? '');
  return {
    endpoint: 'profile-fmcsa',
    method: 'GET',
    query: [[key, value]],
    searchKey: key,
    searchValue: value,
    dots: key === 'dot_number' ? [value] : [],
  };
};

/** Longest `q` the service's rules accept (after trimming). */
const MAX_Q_LENGTH = 100;

/**
 * Lower case, single spaces: "Hansen  Adkins" and "hansen adkins" share one cache entry. Lower-casing
 * can lengthen a string ("İ" is two characters in lower case); when that would pass the service's
 * 100-character bound, the case is kept so that what is forwarded is still accepted.
 */
function normaliseQ(q: string): string {
  const spaced = q.trim().replace(/\s+/g, ' ');
  const lower = spaced.toLowerCase();
  return lower.length <= MAX_Q_LENGTH ? lower : spaced;
}

const autocomplete: Validator = (raw) => {
  const values = singleValues(raw, ['q', 'limit']);
  const limit = positiveInt(values.limit, 'limit', 'invalid_limit', AUTOCOMPLETE_MAX_LIMIT);
  const { q } = parseAutocompleteQuery(raw);
  const params: [string, string][] = [['q', normaliseQ(q)]];
  if (limit !== undefined) params.push(['limit', String(limit)]);
  return {
    endpoint: 'autocomplete',
    method: 'GET',
    query: params,
    searchKey: 'q',
    searchValue: normaliseQ(q),
    dots: [],
  };
};

const LIST_DEFAULTS = parseListQuery({});

/**
 * The list query in canonical form, in the order of LIST_PARAMS: defaults left out, flags as
 * `true`, the profile id as `<dot>-<DOCKET>`, `pageSize` clamped to 500. It means exactly what the
 * browser's query means under the service's rules (the contract's parser reads both the same).
 */
function canonicalListQuery(parsed: ListQuery): [string, string][] {
  const params: [string, string][] = [];
  if (parsed.page !== LIST_DEFAULTS.page) params.push(['page', String(parsed.page)]);
  if (parsed.pageSize !== LIST_DEFAULTS.pageSize) {
    params.push(['pageSize', String(parsed.pageSize)]);
  }
  if (parsed.anyChange) params.push(['view_changes', 'true']);
  for (const channel of parsed.channels) params.push([`view_changes_${channel}`, 'true']);
  if (parsed.dateType !== LIST_DEFAULTS.dateType) params.push(['date_type', parsed.dateType]);
  if (parsed.dateMin !== undefined) params.push(['date_min', parsed.dateMin]);
  if (parsed.dateMax !== undefined) params.push(['date_max', parsed.dateMax]);
  if (parsed.sortBy !== LIST_DEFAULTS.sortBy) params.push(['sortBy', parsed.sortBy]);
  if (parsed.sortOrder !== LIST_DEFAULTS.sortOrder) params.push(['sortOrder', parsed.sortOrder]);
  if (parsed.profileId !== undefined) params.push(['profile_id', parsed.profileId]);
  return params;
}

const monitoringList: Validator = (raw) => {
  const parsed = parseListQuery(raw);
  return {
    endpoint: 'monitoring/list',
    method: 'GET',
    query: canonicalListQuery(parsed),
    searchKey: parsed.profileId ? 'profile_id' : undefined,
    searchValue: parsed.profileId,
    dots: parsed.profileId ? [parsed.profileId.split('-')[0] ?? ''] : [],
  };
};

function monitoringChange(endpoint: 'monitoring/add' | 'monitoring/remove'): Validator {
  return (raw, body) => {
    singleValues(raw, []);
    const ids = parseProfileIdsBody(body);
    const canonical = [
      ...new Set(ids.map(({ parsed }) => formatProfileId(parsed.dot, parsed.docket))),
    ];
    return {
      endpoint,
      method: 'POST',
      query: [],
      body: { profile_ids: canonical },
      searchKey: 'profile_ids',
      searchValue: canonical.length === 1 ? canonical[0] : `${canonical.length} profile ids`,
      dots: [...new Set(ids.map(({ parsed }) => parsed.dot))],
    };
  };
}

const VALIDATORS: Record<Endpoint, Validator> = {
  profile: profileSearch('profile'),
  'profile-lite': profileSearch('profile-lite'),
  'profile-fmcsa': fmcsa,
  autocomplete,
  'monitoring/list': monitoringList,
  'monitoring/add': monitoringChange('monitoring/add'),
  'monitoring/remove': monitoringChange('monitoring/remove'),
};

/** Validate a browser request for `endpoint`; throws a 400 ProxyError with a specific code. */
export function validateRequest(endpoint: Endpoint, query: unknown, body: unknown): ForwardRequest {
  try {
    return VALIDATORS[endpoint]((query ?? {}) as RawQuery, body);
  } catch (err) {
    const proxyError = toProxyError(err);
    if (proxyError.status !== 400) throw err;
    throw proxyError;
  }
}

/** `endpoint?a=1&b=2` from the canonical parameters: the cache and coalescing key. */
export function requestKey(request: ForwardRequest): string {
  return `${request.endpoint}?${new URLSearchParams(request.query).toString()}`;
}
