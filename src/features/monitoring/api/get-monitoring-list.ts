/**
 * One page of the watchlist with its change records (`GET /api/v2/monitoring/list`, free, never
 * cached by the proxy), parsed by the shared parser and put back in the requested order.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiGet } from '../../../lib/api-client.ts';
import { parseMonitoringList, type MonitoringList } from '../../../lib/service/index.ts';
import { listQuery, type InboxParams, type ListQuery } from '../model/inbox-params.ts';
import { sortProfiles } from '../model/inbox.ts';

/** Polling interval while the inbox is open (paused while the tab is hidden). */
export const INBOX_REFRESH_MS = 3 * 60_000;

export async function getMonitoringList(
  query: ListQuery,
  signal?: AbortSignal,
): Promise<MonitoringList> {
  const body = await apiGet('/api/v2/monitoring/list', query, { signal });
  return parseMonitoringList(body).value;
}

function monitoringListQueryOptions(params: InboxParams) {
  const query = listQuery(params);
  return queryOptions({
    queryKey: ['monitoring', 'list', query] as const,
    queryFn: ({ signal }) => getMonitoringList(query, signal),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    refetchInterval: INBOX_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
}

/** The page in the requested order (the cache keeps the answer as parsed). */
export function useMonitoringList(params: InboxParams) {
  const { sortBy, sortOrder } = params;
  const select = useCallback(
    (list: MonitoringList): MonitoringList => ({
      ...list,
      profiles: sortProfiles(list.profiles, sortBy, sortOrder),
    }),
    [sortBy, sortOrder],
  );
  return useQuery({ ...monitoringListQueryOptions(params), select });
}
