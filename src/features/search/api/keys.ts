/**
 * Query keys of the search feature (not to be confused with `SearchKey`, the field a search is by,
 * in lib/search-keys.ts).
 */
import type { ResultsEndpoint } from './search-profiles.ts';

export const searchKeys = {
  all: ['search'] as const,
  /** one page of results, by the endpoint that answers it and the query it sends */
  results: (endpoint: ResultsEndpoint, params: Readonly<Record<string, string | number>>) =>
    [...searchKeys.all, endpoint, params] as const,
  /** company-name suggestions for a canonical term */
  autocomplete: (term: string) => [...searchKeys.all, 'autocomplete', term] as const,
  /** the mode and published prices, for cost hints */
  pricing: () => [...searchKeys.all, 'pricing'] as const,
};
