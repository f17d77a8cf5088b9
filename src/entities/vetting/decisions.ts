/**
 * Decision records (`GET /api/local/decisions`, docs/vetting.md), filtered and a page at a time:
 * the Decisions page's list and the profile's history of a carrier's decisions. The answer's
 * shape is the vetting contract's (src/lib/vetting/contract.ts).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, parseBody } from '../../lib/api-client.ts';
import { decisionPageSchema } from '../../lib/vetting/contract.ts';
import type { Decision } from '../../lib/vetting/decision-record.ts';
import { vettingKeys } from './keys.ts';

export interface DecisionFilters {
  dot_number?: string | undefined;
  decision?: Decision | undefined;
  user?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page?: number | undefined;
}

function decisionsQuery(filters: DecisionFilters) {
  return queryOptions({
    queryKey: vettingKeys.decisionList(filters),
    queryFn: async ({ signal }) =>
      parseBody(
        decisionPageSchema,
        await apiGet('/api/local/decisions', { ...filters }, { signal }),
        'the decision records',
      ),
    staleTime: 0,
  });
}

export function useDecisions(filters: DecisionFilters) {
  return useQuery(decisionsQuery(filters));
}
