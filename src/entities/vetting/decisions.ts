/**
 * Decision records (`GET /api/local/decisions`, docs/vetting.md), filtered and a page at a time:
 * the Decisions page's list and the profile's history of a carrier's decisions.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet } from '../../lib/api-client.ts';
import { decisionRecordSchema, type Decision } from '../../lib/vetting/decision-record.ts';
import { vettingKeys } from './keys.ts';

/** One page of decision records. */
export const decisionPageSchema = z.object({
  items: z.array(decisionRecordSchema),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});

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
      decisionPageSchema.parse(await apiGet('/api/local/decisions', { ...filters }, { signal })),
    staleTime: 0,
  });
}

export function useDecisions(filters: DecisionFilters) {
  return useQuery(decisionsQuery(filters));
}
