/**
 * The stored tender checks (`GET /api/local/tender-checks`, docs/tender-check.md): the Tender checks
 * page lists and exports them, a carrier's profile lists its own. Answers are parsed with the
 * tender contract's schemas (src/lib/tender/contract.ts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet, parseBody } from '../../lib/api-client.ts';
import {
  TENDER_LIST_PAGE_SIZE,
  tenderCheckListSchema,
  type TenderCheckListItem,
} from '../../lib/tender/contract.ts';
import { tenderKeys } from './keys.ts';

export interface TenderListQuery {
  dot_number?: string | undefined;
  page?: number | undefined;
}

function listParams(query: TenderListQuery, page: number, pageSize: number) {
  return {
    ...(query.dot_number ? { dot_number: query.dot_number } : {}),
    page,
    page_size: pageSize,
  };
}

/** One page of stored checks, newest first, optionally of one carrier. */
export function useTenderChecks(query: TenderListQuery, enabled = true) {
  const page = query.page ?? 1;
  const dot = query.dot_number;
  return useQuery({
    enabled,
    queryKey: tenderKeys.list({ dot_number: dot ?? null, page }),
    queryFn: async ({ signal }) =>
      parseBody(
        tenderCheckListSchema,
        await apiGet(
          '/api/local/tender-checks',
          listParams({ dot_number: dot }, page, TENDER_LIST_PAGE_SIZE.default),
          { signal },
        ),
        'the tender checks',
      ),
    placeholderData: keepPreviousData,
  });
}

/** Every stored check matching the filter (all pages), for the CSV export. */
export async function allTenderChecks(query: TenderListQuery): Promise<TenderCheckListItem[]> {
  const items: TenderCheckListItem[] = [];
  for (let page = 1; ; page += 1) {
    const body = parseBody(
      tenderCheckListSchema,
      await apiGet('/api/local/tender-checks', listParams(query, page, TENDER_LIST_PAGE_SIZE.max)),
      'the tender checks',
    );
    items.push(...body.items);
    if (body.items.length === 0 || items.length >= body.total) return items;
  }
}
