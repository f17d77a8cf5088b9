/**
 * Company-name suggestions (`GET /api/v2/autocomplete`). TanStack Query hands the fetcher an
 * AbortSignal and aborts it when the key changes, so a stale request never lands; the previous
 * suggestions stay on screen while the next ones load.
 */
import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';
import { FRESHNESS } from '../../../lib/freshness.ts';
import type { AutocompleteItem } from '../../../lib/service/index.ts';
import { isValidAutocompleteQ } from '../../../lib/service/search-rules.ts';
import { loadAutocompleteParser } from '../lazy-parts.ts';
import { searchKeys } from './keys.ts';

export const AUTOCOMPLETE_LIMIT = 15;
/**
 * The quiet time that ends a burst of fast keystrokes (see `useTypingDebounce`): a keystroke after a
 * pause this long asks at once, one inside a burst waits this long. The target is suggestions within
 * 50 ms of the last keystroke (p95), this wait included, so it stays short: it still merges the
 * keys of a machine-fast burst (a few ms apart), while human keystrokes, rarely closer than 20 ms,
 * ask as they come. The cost side is in docs/search-and-profile.md ("Autocomplete").
 */
export const AUTOCOMPLETE_DEBOUNCE_MS = 10;

/** The query as the proxy canonicalises it: trimmed, lower-case, single spaces. */
export function autocompleteTerm(input: string): string {
  return input.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The parser is a lazy chunk (prefetched when idle): asked for alongside the request. */
async function getAutocomplete(term: string, signal?: AbortSignal): Promise<AutocompleteItem[]> {
  const [body, { parseAutocomplete }] = await Promise.all([
    apiGet('/api/v2/autocomplete', { q: term, limit: AUTOCOMPLETE_LIMIT }, { signal }),
    loadAutocompleteParser(),
  ]);
  return parseAutocomplete(body).value.slice(0, AUTOCOMPLETE_LIMIT);
}

function autocompleteQueryOptions(term: string) {
  return queryOptions({
    queryKey: searchKeys.autocomplete(term),
    queryFn: ({ signal }) => getAutocomplete(term, signal),
    // The service's rule for q (2 to 100 printable characters): anything else is not sent.
    enabled: isValidAutocompleteQ(term),
    staleTime: FRESHNESS.suggestions,
    placeholderData: keepPreviousData,
  });
}

/** Suggestions for `input` (already debounced by the caller); idle unless `q` would be valid. */
export function useAutocomplete(input: string) {
  return useQuery(autocompleteQueryOptions(autocompleteTerm(input)));
}

/** Whether the suggestions for `input` are in the client cache and fresh (showing them is free). */
export function hasFreshSuggestions(client: QueryClient, input: string): boolean {
  const state = client.getQueryState(searchKeys.autocomplete(autocompleteTerm(input)));
  return state?.status === 'success' && Date.now() - state.dataUpdatedAt < FRESHNESS.suggestions;
}
