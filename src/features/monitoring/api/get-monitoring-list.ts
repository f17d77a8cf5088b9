/**
 * One page of the watchlist with its change records, as the inbox draws it: the proxy's monitoring
 * view (`GET /api/local/monitoring-view`, the query of `/v2/monitoring/list`, free and never cached)
 * answers the page already read by the shared parser, with the ids of every profile's changes, so
 * the browser reads plain JSON and hashes nothing before the first render (docs/proxy.md,
 * "Monitoring view"). The page is put back in the requested order.
 *
 * A page of 500 profiles is megabytes of JSON and about as much heap once parsed, so the cache keeps
 * few of them: the page shown, the next one (prefetched while the user reads) and the
 * `KEPT_INACTIVE_PAGES` last seen, each dropped `FRESHNESS.inboxPageGc` after it was left.
 */
import {
  keepPreviousData,
  queryOptions,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { ApiError, apiGet } from '../../../lib/api-client.ts';
import { FRESHNESS } from '../../../lib/freshness.ts';
import type { MonitoringList } from '../../../lib/service/index.ts';
import { adoptChangeIds } from '../../../lib/monitoring/change-id.ts';
import {
  monitoringViewShellSchema,
  type MonitoringView,
} from '../../../lib/monitoring/contract.ts';
import {
  listQuery,
  type InboxParams,
  type ListQuery,
} from '../../../lib/monitoring/inbox-params.ts';
import { sortProfiles } from '../../../lib/monitoring/inbox.ts';
import { useReportChangesSeen } from './changes-seen.ts';
import { monitoringKeys } from './keys.ts';

/** The proxy's route for the inbox's pages (server-proxy/src/routes/monitoring-view.ts). */
export const MONITORING_VIEW_PATH = '/api/local/monitoring-view';

/** Polling interval while the inbox is open (paused while the tab is hidden). */
export const INBOX_REFRESH_MS = 3 * 60_000;
/** Polling interval while the last read failed. */
export const RETRY_AFTER_FAILURE_MS = 30_000;
/** Pages left (or prefetched) that are kept at most, newest first; older ones are dropped. */
const KEPT_INACTIVE_PAGES = 3;
/** Delay before the next page is prefetched: the page shown has painted by then. */
const PREFETCH_DELAY_MS = 50;

/**
 * The view's body when it has the view's shape: its outer shape checked with the contract's
 * schema (the profiles, megabytes on a page of 500, as the proxy's own parse built them).
 */
function readView(body: unknown): { view?: MonitoringView; problem?: unknown } {
  const checked = monitoringViewShellSchema.safeParse(body);
  return checked.success ? { view: body as MonitoringView } : { problem: checked.error };
}

/**
 * One page of the inbox. Failures are the api-client's `ApiError`s (the status, code, hint and
 * Retry-After of the proxy's answer); a successful answer that is not JSON, or not a page, is an
 * `invalid-body` error. `baseUrl` is for tests outside a browser.
 */
export async function getMonitoringList(
  query: ListQuery,
  signal?: AbortSignal,
  baseUrl?: string,
): Promise<MonitoringList> {
  const body = await apiGet(MONITORING_VIEW_PATH, query, { signal, baseUrl });
  const { view, problem } = readView(body);
  if (!view) {
    throw new ApiError({
      kind: 'invalid-body',
      status: 200,
      message: 'The server answered 200 OK but the body is not a page of the watchlist.',
      cause: problem,
    });
  }
  adoptChangeIds(view.list.profiles, view.changeIds);
  return view.list;
}

function monitoringListQueryOptions(params: InboxParams) {
  const query = listQuery(params);
  return queryOptions({
    queryKey: monitoringKeys.list(query),
    queryFn: ({ signal }) => getMonitoringList(query, signal),
    staleTime: FRESHNESS.inbox,
    gcTime: FRESHNESS.inboxPageGc,
    // A new answer shares nothing worth keeping with the last: skip the deep comparison.
    structuralSharing: false,
    placeholderData: keepPreviousData,
    // After a failure (outage) ask again sooner: the inbox says it is retrying.
    refetchInterval: (query) =>
      query.state.status === 'error' ? RETRY_AFTER_FAILURE_MS : INBOX_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
}

/** Drops the cached pages nobody shows beyond the `KEPT_INACTIVE_PAGES` most recently fetched. */
export function pruneListPages(client: QueryClient, keep = KEPT_INACTIVE_PAGES): void {
  const cache = client.getQueryCache();
  const inactive = cache
    .findAll({ queryKey: monitoringKeys.lists(), type: 'inactive' })
    .sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt);
  for (const query of inactive.slice(keep)) cache.remove(query);
}

/** After a page arrived: drop old pages, then fetch the next one in the background. */
function usePrefetchNext(params: InboxParams, pageCount: number | undefined, shown: boolean) {
  const client = useQueryClient();
  useEffect(() => {
    if (!shown) return;
    pruneListPages(client);
    if (pageCount === undefined || params.page >= pageCount) return;
    const timer = setTimeout(() => {
      void client.prefetchQuery(monitoringListQueryOptions({ ...params, page: params.page + 1 }));
    }, PREFETCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [client, params, pageCount, shown]);
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
  const list = useQuery({ ...monitoringListQueryOptions(params), select });
  // carriers whose change is newer than what the browser holds of them are read again
  useReportChangesSeen(list.isPlaceholderData ? undefined : list.data?.profiles);
  const pageCount = list.data && Math.ceil(list.data.totalCount / params.pageSize);
  usePrefetchNext(params, pageCount, list.isSuccess && !list.isPlaceholderData);
  return list;
}
