/**
 * Query keys of the monitoring inbox. They live under the watchlist's monitoring root, so watching
 * or unwatching (src/lib/watchlist) refreshes every one of them.
 */
import type { QueryKey } from '@tanstack/react-query';
import { MONITORING_ROOT } from '../../../entities/watchlist/keys.ts';
import type { ListQuery } from '../../../lib/monitoring/inbox-params.ts';

const LISTS = [...MONITORING_ROOT, 'list'] as const;
const BADGE = 'badge';
const TRIAGE = [...MONITORING_ROOT, 'triage'] as const;

export const monitoringKeys = {
  /** every list read: the inbox's pages and the navigation badge's */
  lists: () => LISTS,
  /** one inbox page, by the query the service is sent */
  list: (query: ListQuery) => [...LISTS, query] as const,
  /** the newest changed carriers, counted by the navigation badge */
  badge: () => [...LISTS, BADGE] as const,
  /** every triage-state read */
  triage: () => TRIAGE,
  /** the triage states of these profiles (sorted, without repeats) */
  triageOf: (profileIds: readonly string[]) => [...TRIAGE, profileIds] as const,
  /** the user's last visit of the inbox */
  lastVisit: () => [...MONITORING_ROOT, 'last-visit'] as const,
};

/** Whether a key under `lists()` is the badge's rather than an inbox page's. */
export function isBadgeKey(key: QueryKey): boolean {
  return key[2] === BADGE;
}
