import { useIsFetching, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { getMonitoringList, INBOX_REFRESH_MS } from '../api/get-monitoring-list.ts';
import { useTriageStates } from '../api/triage.ts';
import { inboxChangesOf } from '../model/change-id.ts';
import { MAX_PAGE_SIZE } from '../model/inbox-params.ts';
import { untriagedCounts } from '../model/inbox.ts';

/** The newest changed profiles the badge counts over: one free list call of the largest page. */
const BADGE_QUERY = { page: 1, pageSize: MAX_PAGE_SIZE, view_changes: 'true' } as const;

/** Whether an inbox page (any list query but the badge's own) is on its way. */
function useInboxLoading(): boolean {
  return (
    useIsFetching({
      queryKey: ['monitoring', 'list'],
      predicate: (query) => query.queryKey[2] !== 'badge',
    }) > 0
  );
}

function useUntriagedTotal(): number | undefined {
  // Its answer is as big as an inbox page: wait for the page the user is waiting for.
  const inboxLoading = useInboxLoading();
  const list = useQuery({
    queryKey: ['monitoring', 'list', 'badge'] as const,
    queryFn: ({ signal }) => getMonitoringList(BADGE_QUERY, signal),
    staleTime: 60_000,
    refetchInterval: INBOX_REFRESH_MS,
    retry: false,
    structuralSharing: false,
    enabled: !inboxLoading,
  });
  const profiles = list.data?.profiles;
  const changes = useMemo(() => (profiles ?? []).flatMap(inboxChangesOf), [profiles]);
  const profileIds = useMemo(() => (profiles ?? []).map((p) => p.profileId), [profiles]);
  const triage = useTriageStates(profileIds);
  if (!list.isSuccess || (changes.length > 0 && !triage.isSuccess)) return undefined;
  return untriagedCounts(changes, triage.data ?? new Map()).total;
}

/**
 * The count of untriaged changes next to "Monitoring" in the navigation, over the newest 500
 * changed carriers. Hidden until known and when zero.
 */
export function MonitoringNavBadge() {
  const total = useUntriagedTotal();
  if (!total) return null;
  const text = total > 999 ? '999+' : String(total);
  return (
    <span className="ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-neutral-900 px-1.5 text-xs font-semibold text-white tabular-nums dark:bg-neutral-100 dark:text-neutral-900">
      <span aria-hidden="true">{text}</span>
      <span className="sr-only">{`${total} untriaged changes`}</span>
    </span>
  );
}
