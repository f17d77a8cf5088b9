/**
 * One page of search results. Which endpoint a search uses (see `resultsEndpoint`):
 *
 * - `/v2/profile-lite` (0.50 USD per new DOT per month on a live key) for the searches that list
 *   carriers (company, EIN, e-mail, phone, address, plate, unit): the results table shows only
 *   fields the lite profile carries, and a page of ten full profiles would cost up to 30 USD;
 * - `/v2/profile` (3.00 USD) for a DOT or docket search, which opens the one carrier's profile
 *   straight away (the full profile is what that page needs, billed once per DOT and month), and for
 *   a VIN search, whose decoded vehicle and inspections only the full answer carries.
 *
 * The reader and the shared parsers under it are a lazy chunk, fetched alongside the first search
 * (and prefetched when the browser is idle, see `lazy-parts.ts`), so the search page's first paint
 * does not wait for them. An invalid search is never sent (`enabled: false`, see
 * `validate-search.ts`).
 */
import {
  keepPreviousData,
  queryOptions,
  useQuery,
  type UseQueryResult,
} from '@tanstack/react-query';
import { ApiError, apiGet } from '../../../lib/api-client.ts';
import { loadResultsReader } from '../lazy-parts.ts';
import type { SearchKey } from '../lib/search-keys.ts';
import { profileQueryParams, type SearchRequest } from '../lib/search-params.ts';
import { searchKeys } from './keys.ts';
import type { SearchResults } from './read-results.ts';

export type ResultsEndpoint = 'profile' | 'profile-lite';

const FULL_PROFILE_KEYS: ReadonlySet<SearchKey> = new Set(['dot_number', 'docket_number', 'vin']);

/** The endpoint a search's results come from (and are billed by). */
export function resultsEndpoint(key: SearchKey): ResultsEndpoint {
  return FULL_PROFILE_KEYS.has(key) ? 'profile' : 'profile-lite';
}

async function searchProfiles(
  request: SearchRequest,
  signal?: AbortSignal,
): Promise<SearchResults> {
  const endpoint = resultsEndpoint(request.key);
  const [body, reader] = await Promise.all([
    apiGet(`/api/v2/${endpoint}`, profileQueryParams(request), { signal }),
    loadResultsReader(),
  ]);
  return endpoint === 'profile'
    ? reader.readSearchResults(body, request)
    : reader.readLiteResults(body);
}

function searchQueryOptions(request: SearchRequest) {
  return queryOptions({
    queryKey: searchKeys.results(resultsEndpoint(request.key), profileQueryParams(request)),
    queryFn: ({ signal }) => searchProfiles(request, signal),
    placeholderData: keepPreviousData,
  });
}

export type SearchResultsQuery = UseQueryResult<SearchResults>;

/** The results of `request`; nothing is asked while it is undefined (no search, or invalid). */
export function useSearchResults(request: SearchRequest | undefined): SearchResultsQuery {
  return useQuery({
    ...searchQueryOptions(request ?? { key: 'dot_number', value: '', page: 1 }),
    enabled: request !== undefined,
  });
}

/** The proxy refused the search itself (400): the form shows the hint next to the field. */
export function isBadRequest(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 400;
}
