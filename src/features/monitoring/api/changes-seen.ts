/**
 * The browser's side of "freshness follows monitoring" (docs/monitoring.md): when the inbox shows a
 * change for a carrier newer than what the browser holds of it (a profile, its summary or slices,
 * its verdict), those queries are asked again. The proxy has marked its own copy stale on the same
 * list answer, so the new read is fetched anew there and says after which change.
 *
 * Features do not import one another: the inbox reports what it shows here, and any query whose
 * key names the DOT (every carrier query keys by DOT) is checked against the change, by the fetch
 * time its data carries (`fetchedAt` / `fetched_at`, else when the browser got it).
 */
import { useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  changeOutdates,
  newestChangeDaysOf,
  type ProfileChanges,
} from '../../../lib/monitoring/change-freshness.ts';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** When the data of `query` was fetched from the service, and after which change, as it says. */
function heldOf(query: Query) {
  const data = query.state.data as Record<string, unknown> | undefined;
  const fetchedAt =
    (data && (text(data.fetchedAt) ?? text(data.fetched_at))) ??
    new Date(query.state.dataUpdatedAt).toISOString();
  const refreshedAfterChange =
    data && (text(data.refreshedAfterChange) ?? text(data.refreshed_after_change));
  return { fetchedAt, refreshedAfterChange };
}

/** The newest change day already acted on, per DOT, per query client. */
const handled = new WeakMap<QueryClient, Map<string, string>>();

/**
 * Ask again every held query of a DOT in `days` whose data the change outdates. Each DOT's change
 * is acted on once (a later change again); returns how many queries were invalidated.
 */
export function reportChangesSeen(client: QueryClient, days: ReadonlyMap<string, string>): number {
  const seen = handled.get(client) ?? new Map<string, string>();
  handled.set(client, seen);
  let invalidated = 0;
  for (const [dot, day] of days) {
    const before = seen.get(dot);
    if (before !== undefined && before >= day) continue;
    seen.set(dot, day);
    const outdated = (query: Query) =>
      query.state.status === 'success' &&
      query.queryKey.includes(dot) &&
      changeOutdates(day, heldOf(query));
    invalidated += client.getQueryCache().findAll({ predicate: outdated }).length;
    void client.invalidateQueries({ predicate: outdated });
  }
  return invalidated;
}

/** Report the changes `profiles` show (the inbox's page) whenever they arrive. */
export function useReportChangesSeen(profiles: readonly ProfileChanges[] | undefined): void {
  const client = useQueryClient();
  useEffect(() => {
    if (profiles) reportChangesSeen(client, newestChangeDaysOf(profiles));
  }, [client, profiles]);
}
