/**
 * A profile page's first data, asked for as soon as its URL is known (the first page load, and a
 * navigation that waits for the page's code) instead of once that code (~20 chunks on a cold load)
 * has downloaded and rendered: the summary and the proxy's verdict. Both at once when the proxy's
 * config (already read by the shell) says it cuts summaries: it then caches profiles, and the
 * verdict joins the summary's one service call (in flight or cached). Otherwise the verdict waits
 * for a successful summary (the proxy answers a DOT without a carrier 404 `unknown_dot`, so a
 * successful summary has a carrier; a proxy that cuts no summary keeps no profile cache, so there
 * a verdict call would be another billed profile call, and the page evaluates the full profile
 * itself). With both at once, a DOT without a carrier also gets a 404 for its verdict, which the
 * page never reads. Both are requests the page
 * makes anyway: `primeGet` hands each answer to the page's own query. Nothing is asked when the
 * summary is already held (a tab switch, a return visit) or was just asked, and without a client
 * (tests' memory routers) nothing happens. The open tab's code is started too, and the page is let
 * load the other tabs' code once it has drawn (`allowIdlePreload`).
 */
import type { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router';
import { profileKeys } from '../features/profile/api/keys.ts';
import { primeGet } from '../lib/api-client.ts';
import { isDotNumber } from '../lib/carrier/paths.ts';
import { proxyConfigQuery } from './proxy-config.ts';

let appClient: QueryClient | undefined;

export function setPrefetchClient(client: QueryClient): void {
  appClient = client;
}

/** A DOT primed this recently is not primed again (the router reports a navigation several times). */
const PRIMED_WITHIN_MS = 10_000;
const primedAt = new Map<string, number>();

/** The profile route's path (src/app/routes.tsx). */
const PROFILE_PATH = '/carriers/:dot/:tab';

/** The profile page's code: the route's lazy import (src/app/routes.tsx) and its preload. */
export function loadProfilePage() {
  return import('../features/profile/components/ProfilePage.tsx');
}

let profileCodeAsked = false;

/**
 * The profile page's code and its Overview tab's, fetched ahead: called when the header's search
 * box takes focus, since a DOT or a chosen suggestion opens a profile next. Code only: nothing is
 * asked of the API, so nothing is billed. A failure is left to the navigation to report.
 */
export function preloadProfileCode(): void {
  if (profileCodeAsked) return;
  profileCodeAsked = true;
  loadProfilePage().catch(() => undefined);
  void import('../features/profile/components/tab-loaders.ts')
    .then((loaders) => loaders.preloadTab('overview'))
    .catch(() => undefined);
}

/** Start the early data of `pathname` when it is a profile page; anything else is left alone. */
export function prefetchForPath(pathname: string): void {
  const match = matchPath(PROFILE_PATH, pathname);
  if (match) prefetchProfileOpening(match.params.dot, match.params.tab);
}

function prefetchProfileOpening(dot: string | undefined, tab: string | undefined): void {
  const client = appClient;
  if (!client || dot === undefined || !isDotNumber(dot)) return;
  if (tab !== undefined) {
    void import('../features/profile/components/tab-loaders.ts')
      .then((loaders) => {
        loaders.allowIdlePreload();
        loaders.preloadTab(tab);
      })
      .catch(() => undefined);
  }
  if (client.getQueryState(profileKeys.summary(dot)) !== undefined) return;
  const now = Date.now();
  if (now - (primedAt.get(dot) ?? -Infinity) < PRIMED_WITHIN_MS) return;
  for (const [held, at] of primedAt) if (now - at >= PRIMED_WITHIN_MS) primedAt.delete(held);
  primedAt.set(dot, now);
  const summary = primeGet('/api/local/profile-summary', { dot_number: dot });
  if (client.getQueryData(proxyConfigQuery.queryKey)?.profileSummaries === true) {
    // The proxy cuts summaries, so it caches profiles: the verdict joins the summary's one service
    // call (or its cached answer) and needs not wait for it.
    primeVerdict(client, dot);
    return;
  }
  void summary.then((body) => {
    // undefined for any failure: an unknown DOT (404 `unknown_dot`, the page says so), a refusal
    if (body !== undefined) primeVerdict(client, dot);
  });
}

/**
 * The verdict asked now, and its query run with that answer as soon as its code is in (it travels
 * with the page's), so the verdict is in the query cache when the page first draws the carrier:
 * drawn in the same frame as the name, not in a later render after "Computing the verdict…".
 */
function primeVerdict(client: QueryClient, dot: string): void {
  void primeGet('/api/local/verdict', { dot_number: dot });
  void import('../entities/vetting/verdict.ts')
    // a verdict already held is left to the page (it asks again if stale, taking this answer)
    .then((vetting) => client.prefetchQuery({ ...vetting.verdictQuery(dot), staleTime: Infinity }))
    .catch(() => undefined);
}
