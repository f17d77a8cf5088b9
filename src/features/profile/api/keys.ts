/** Query keys of the profile feature. */
export const profileKeys = {
  /** the full profile (`/api/v2/profile`), which a refresh replaces */
  full: (dot: string) => ['profile', 'full', dot] as const,
  /** the proxy's summary of it (`/api/local/profile-summary`) */
  summary: (dot: string) => ['profile', 'summary', dot] as const,
  /** every slice of the profile the proxy cut for this DOT (`/api/local/profile-view`) */
  views: (dot: string) => ['profile', 'view', dot] as const,
  /** one slice: a view with its query (paging, sort, filters) */
  view: (dot: string, view: string, query: Readonly<Record<string, string>>) =>
    ['profile', 'view', dot, view, query] as const,
  /** the consolidated FMCSA record (`/api/v2/profile-fmcsa`) */
  fmcsa: (dot: string) => ['profile-fmcsa', dot] as const,
  /** the lite profile's price and billing, from the proxy's configuration */
  lookupPricing: () => ['local', 'config', 'lookup-pricing'] as const,
};
