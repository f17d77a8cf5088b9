import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { getMonitoringList, INBOX_REFRESH_MS } from '../api/get-monitoring-list.ts';
import { useTriageStates } from '../api/triage.ts';
import { changeId } from '../model/change-id.ts';
import { MAX_PAGE_SIZE } from '../model/inbox-params.ts';
import { profileChanges, untriagedCounts } from '../model/inbox.ts';

/** The newest changed profiles the badge counts over: one free list call of the largest page. */
const BADGE_QUERY = { page: 1, pageSize: MAX_PAGE_SIZE, view_changes: 'true' } as const;

function useUntriagedTotal(): number | undefined {
  const list = useQuery({
    queryKey: ['monitoring', 'list', 'badge'] as const,
    queryFn: ({ signal }) => getMonitoringList(BADGE_QUERY, signal),
    staleTime: 60_000,
    refetchInterval: INBOX_REFRESH_MS,
    retry: false,
  });
  const changes = useMemo(
    () => (list.data?.profiles ?? []).flatMap((profile) => profileChanges(profile, changeId)),
    [list.data],
  );
  const triage = useTriageStates(changes.map((change) => change.id));
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
