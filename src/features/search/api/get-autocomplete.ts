/**
 * Company-name suggestions (`GET /api/v2/autocomplete`). TanStack Query hands the fetcher an
 * AbortSignal and aborts it when the key changes, so a stale request never lands; the previous
 * suggestions stay on screen while the next ones load.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';
import { parseAutocomplete, type AutocompleteItem } from '../../../lib/service/index.ts';

const AUTOCOMPLETE_MIN_CHARS = 2;
export const AUTOCOMPLETE_LIMIT = 15;
/**
 * Wait after the last keystroke before asking for suggestions. Short: the target is suggestions
 * within 100 ms of the last keystroke (p95), debounce included; see scripts/bench-autocomplete.ts.
 */
export const AUTOCOMPLETE_DEBOUNCE_MS = 50;
/** The service's own cache rule for autocomplete answers. */
const AUTOCOMPLETE_STALE_MS = 5 * 60_000;

/** The query as the proxy canonicalises it: trimmed, lower-case, single spaces. */
export function autocompleteTerm(input: string): string {
  return input.trim().replace(/\s+/g, ' ').toLowerCase();
}

async function getAutocomplete(term: string, signal?: AbortSignal): Promise<AutocompleteItem[]> {
  const body = await apiGet(
    '/api/v2/autocomplete',
    { q: term, limit: AUTOCOMPLETE_LIMIT },
    { signal },
  );
  return parseAutocomplete(body).value.slice(0, AUTOCOMPLETE_LIMIT);
}

function autocompleteQueryOptions(term: string) {
  return queryOptions({
    queryKey: ['search', 'autocomplete', term] as const,
    queryFn: ({ signal }) => getAutocomplete(term, signal),
    enabled: term.length >= AUTOCOMPLETE_MIN_CHARS,
    staleTime: AUTOCOMPLETE_STALE_MS,
    placeholderData: keepPreviousData,
  });
}

/** Suggestions for `input` (already debounced by the caller); idle below two characters. */
export function useAutocomplete(input: string) {
  return useQuery(autocompleteQueryOptions(autocompleteTerm(input)));
}
