import { useIsFetching, useQuery, useQueryClient, type QueryCache } from '@tanstack/react-query';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useMatch } from 'react-router';
import { apiGet, parseBody } from '../../../lib/api-client.ts';
import { FRESHNESS } from '../../../lib/freshness.ts';
import { whenIdle } from '../../../lib/idle.ts';
import { monitoringBadgeSchema, type MonitoringBadge } from '../../../lib/monitoring/contract.ts';
import { reportChangesSeen } from '../api/changes-seen.ts';
import { INBOX_REFRESH_MS, RETRY_AFTER_FAILURE_MS } from '../api/get-monitoring-list.ts';
import { isBadgeKey, monitoringKeys } from '../api/keys.ts';

/**
 * The proxy's count of the user's untriaged changes over the newest changed watched carriers
 * (server-proxy/src/routes/monitoring-badge.ts, docs/proxy.md "Monitoring badge"): it reads the list
 * and the triage states itself and answers a few hundred bytes.
 */
const MONITORING_BADGE_PATH = '/api/local/monitoring-badge';

/** The badge's count; an answer of another shape is an `invalid-body` error. */
async function getBadgeCount(signal: AbortSignal): Promise<MonitoringBadge> {
  const body = await apiGet(MONITORING_BADGE_PATH, {}, { signal });
  return parseBody(monitoringBadgeSchema, body, 'the untriaged count');
}

/** Whether an inbox page (any list query but the badge's) is loading for the first time. */
function useInboxLoading(): boolean {
  return (
    useIsFetching({
      queryKey: monitoringKeys.lists(),
      // a first load only: a refetch may wait out long retries in an outage, and the badge must
      // still learn that the server is unreachable
      predicate: (query) => !isBadgeKey(query.queryKey) && query.state.data === undefined,
    }) > 0
  );
}

/** Whether an inbox page (not the badge's count) has an answer or an error. */
function hasSettledInboxPage(cache: QueryCache): boolean {
  return cache
    .findAll({ queryKey: monitoringKeys.lists() })
    .some(
      (query) =>
        !isBadgeKey(query.queryKey) &&
        (query.state.data !== undefined || query.state.status === 'error'),
    );
}

/**
 * On the inbox itself, whether its first page is still to come. The inbox's query only exists once
 * the page's lazy chunk has loaded, after the badge has mounted, so `useInboxLoading` alone would
 * let the badge's count go first: the proxy would read a list of the largest size from the service
 * (through the same upstream queue) and parse it ahead of the page the user is waiting for.
 */
function useInboxFirstPagePending(): boolean {
  const onInbox = useMatch('/monitoring') !== null;
  const cache = useQueryClient().getQueryCache();
  const subscribe = useCallback((onChange: () => void) => cache.subscribe(onChange), [cache]);
  const settled = useSyncExternalStore(subscribe, () => hasSettledInboxPage(cache));
  return onInbox && !settled;
}

/** The longest the badge waits for the page's own first answers before asking anyway. */
const PAGE_FIRST_MS = 5_000;

/**
 * Whether the page the user opened has had its first answers: no query fetching, then an idle
 * moment (or PAGE_FIRST_MS at most). The badge's answer is small, but the proxy reads a page of the
 * largest size from the service for it: asked at once, it competes with the page's own calls.
 */
function usePageSettledOnce(): boolean {
  const busy = useIsFetching() > 0;
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (settled) return;
    const timer = window.setTimeout(() => setSettled(true), PAGE_FIRST_MS);
    const cancelIdle = busy ? undefined : whenIdle(() => setSettled(true));
    return () => {
      window.clearTimeout(timer);
      cancelIdle?.();
    };
  }, [busy, settled]);
  return settled;
}

interface UntriagedTotal {
  total: number;
  /** the last count read: the latest refresh failed (outage), so it may be out of date */
  stale: boolean;
}

function useUntriagedTotal(): UntriagedTotal | undefined {
  // The proxy reads a page as big as the inbox's for it: wait for the page the user is waiting for.
  const inboxLoading = useInboxLoading();
  const inboxPending = useInboxFirstPagePending();
  const pageSettled = usePageSettledOnce();
  const count = useQuery({
    queryKey: monitoringKeys.badge(),
    queryFn: ({ signal }) => getBadgeCount(signal),
    staleTime: FRESHNESS.inbox,
    refetchInterval: (query) =>
      query.state.status === 'error' ? RETRY_AFTER_FAILURE_MS : INBOX_REFRESH_MS,
    retry: false,
    enabled: pageSettled && !inboxLoading && !inboxPending,
  });
  // carriers whose change is newer than what the browser holds of them are read again
  const client = useQueryClient();
  const recent = count.data?.recentChanges;
  useEffect(() => {
    if (recent) reportChangesSeen(client, new Map(Object.entries(recent)));
  }, [client, recent]);
  // A failed refresh keeps the last answer (TanStack Query keeps `data` on error): show it, stale.
  if (!count.data) return undefined;
  return { total: count.data.total, stale: count.isError };
}

/**
 * The count of untriaged changes next to "Monitoring" in the navigation, over the newest 500
 * changed carriers, as the proxy counts it (`GET /api/local/monitoring-badge`). Hidden until known
 * and when zero. During an outage it keeps the last count, drawn dashed and named "last known",
 * rather than disappearing (which would read as zero).
 */
export function MonitoringNavBadge() {
  const known = useUntriagedTotal();
  if (!known?.total) return null;
  const { total, stale } = known;
  const text = total > 999 ? '999+' : String(total);
  return (
    <span
      data-stale={stale}
      title={stale ? 'Last known count: the server cannot be reached' : undefined}
      className={
        stale
          ? 'ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full border border-dashed border-amber-700 bg-amber-50 px-1.5 text-xs font-semibold text-amber-900 tabular-nums dark:border-amber-400 dark:bg-amber-950 dark:text-amber-100'
          : 'ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-neutral-900 px-1.5 text-xs font-semibold text-white tabular-nums dark:bg-neutral-100 dark:text-neutral-900'
      }
    >
      <span aria-hidden="true">{stale ? `${text}?` : text}</span>
      <span className="sr-only">
        {stale
          ? `${total} untriaged changes (last known, the server cannot be reached)`
          : `${total} untriaged changes`}
      </span>
    </span>
  );
}
