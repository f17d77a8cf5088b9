/**
 * One page of search results (`GET /api/v2/profile` with one search key). The reader and the shared
 * parsers under it are a lazy chunk, fetched alongside the first search (and prefetched when the
 * browser is idle, see `lazy-parts.ts`), so the search page's first paint does not wait for them.
 */
import {
  keepPreviousData,
  queryOptions,
  useQuery,
  type UseQueryResult,
} from '@tanstack/react-query';
import { ApiError, apiGet } from '../../../lib/api-client.ts';
import { loadResultsReader } from '../lazy-parts.ts';
import { profileQueryParams, type SearchRequest } from '../lib/search-params.ts';
import type { SearchResults } from './read-results.ts';

async function searchProfiles(
  request: SearchRequest,
  signal?: AbortSignal,
): Promise<SearchResults> {
  const [body, reader] = await Promise.all([
    apiGet('/api/v2/profile', profileQueryParams(request), { signal }),
    loadResultsReader(),
  ]);
  return reader.readSearchResults(body, request);
}

function searchQueryOptions(request: SearchRequest) {
  return queryOptions({
    queryKey: ['search', 'profiles', profileQueryParams(request)] as const,
    queryFn: ({ signal }) => searchProfiles(request, signal),
    placeholderData: keepPreviousData,
  });
}

export type SearchResultsQuery = UseQueryResult<SearchResults>;

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
