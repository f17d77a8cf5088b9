/**
 * Whether the proxy answers at all: one shared flag for the whole SPA. `api-client` sets it from
 * every request (any HTTP answer → reachable; a fetch that could not connect → unreachable), and
 * the query client (`query-policy.ts`) polls `/healthz` while it is down, then refetches the
 * queries that failed for want of a connection, so views recover without a click.
 *
 * Read it in a component with `useServerReachable()`, e.g. to mark a count as stale.
 */
import { useSyncExternalStore } from 'react';

let reachable = true;
const listeners = new Set<() => void>();

export function isServerReachable(): boolean {
  return reachable;
}

/** Called by the API client after each request: did the server answer? */
export function markServerReachable(answered: boolean): void {
  if (answered === reachable) return;
  reachable = answered;
  for (const listener of [...listeners]) listener();
}

export function subscribeServerReachable(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * `false` from the moment a request could not reach the proxy until it (or the `/healthz` poll)
 * answers again. Renders again on every change.
 */
export function useServerReachable(): boolean {
  return useSyncExternalStore(subscribeServerReachable, isServerReachable, () => true);
}
