/**
 * The records of a carrier asked by docket or name (`?carrier=`): the proxy filters records by DOT
 * only, so every record matching the other filters is read (free local calls, no service call)
 * and matched here on the docket and names the record kept; then paged like the proxy pages.
 */
import { useQuery } from '@tanstack/react-query';
import { allDecisions } from './decisions.ts';
import type { DecisionFilters } from '../../../entities/vetting/decisions.ts';
import { matchesCarrier } from '../model/filters.ts';

const PAGE_SIZE = 50;

/** Under the decisions' key, so recording a decision refreshes it too. */
export function useMatchingDecisions(
  filters: DecisionFilters,
  carrier: string | undefined,
  page: number,
) {
  const { page: _page, ...asked } = filters;
  return useQuery({
    enabled: carrier !== undefined,
    queryKey: ['vetting', 'decisions', 'matching', asked, carrier ?? ''] as const,
    queryFn: async () => {
      const records = await allDecisions({ ...asked, page: undefined });
      return records.filter((record) => matchesCarrier(record, carrier ?? ''));
    },
    staleTime: 0,
    select: (records) => ({
      all: records,
      items: records.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
      total: records.length,
      page_size: PAGE_SIZE,
    }),
  });
}
