/**
 * Query keys of the watchlist. They share the monitoring root with the inbox's keys
 * (src/features/monitoring/api/keys.ts builds on `MONITORING_ROOT`): watching or unwatching
 * invalidates the root, which refreshes the inbox, the badge and every watch state at once.
 */
export const MONITORING_ROOT = ['monitoring'] as const;

export const watchlistKeys = {
  all: MONITORING_ROOT,
  state: (profileId: string) =>
    [...MONITORING_ROOT, 'watch-state', profileId.trim().toUpperCase()] as const,
  watchedIds: () => [...MONITORING_ROOT, 'watched-ids'] as const,
  estimate: (profileIds: readonly string[]) =>
    [...MONITORING_ROOT, 'estimate', ...profileIds] as const,
};
