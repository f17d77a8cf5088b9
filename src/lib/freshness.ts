/**
 * How long each kind of server data counts as fresh (`staleTime`) or stays cached unused (`gcTime`),
 * by name. Queries not listed here (full profiles, FMCSA records, search results) take the client's
 * defaults in `query-policy.ts`: upstream data changes a few times a day and profile calls are billed.
 * Free, fast-moving data (the inbox, the watchlist) is re-read sooner; data fixed while the proxy runs
 * is read once per page load.
 */
export const FRESHNESS = {
  /** The proxy's configuration (mode, budget, prices): fixed while it runs, read once per page load. */
  proxyConfig: Infinity,
  /** A lite profile, once looked up, is kept: asking again is billed (per new DOT and month). */
  liteProfile: Infinity,
  /** Company-name suggestions: the service's own cache rule for autocomplete answers. */
  suggestions: 5 * 60_000,
  /** The inbox's free reads: list pages, the navigation badge's count, triage states. */
  inbox: 60_000,
  /** Carrier names the proxy holds (a free read). */
  heldNames: 60_000,
  /** How long an inbox page nobody shows stays cached: a page of 500 profiles is megabytes. */
  inboxPageGc: 60_000,
  /** The user's last visit of the inbox: read once, invalidated when the inbox is left. */
  lastVisit: Infinity,
  /** Whether profiles are on the watchlist (one profile, or every watched id). */
  watchState: 60_000,
  /** What watching would cost, shown before the Watch confirmation. */
  watchEstimate: 30_000,
  /** This month's spend: moves with every billed call, so read again whenever it is shown. */
  spend: 0,
  /** A bulk-vetting job while it runs: polled this often (a free read) until it stops. */
  bulkJobPoll: 2_000,
} as const;
