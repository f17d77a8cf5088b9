/** Query keys of the compare feature. */
export const compareKeys = {
  /** a carrier's full profile as far as the proxy already holds it (never a billed call) */
  held: (dot: string) => ['compare', 'held', dot] as const,
  /** what fetching a carrier's profile would cost (`/api/local/estimate`) */
  cost: (dot: string) => ['compare', 'cost', dot] as const,
};
