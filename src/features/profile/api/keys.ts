/** Query keys of the profile feature. */
export const profileKeys = {
  /** the full profile (`/api/v2/profile`), which a refresh replaces */
  full: (dot: string) => ['profile', 'full', dot] as const,
  /** the proxy's summary of it (`/api/local/profile-summary`) */
  summary: (dot: string) => ['profile', 'summary', dot] as const,
  /** the consolidated FMCSA record (`/api/v2/profile-fmcsa`) */
  fmcsa: (dot: string) => ['profile-fmcsa', dot] as const,
  /** the lite profile's price and billing, from the proxy's configuration */
  lookupPricing: () => ['local', 'config', 'lookup-pricing'] as const,
};
