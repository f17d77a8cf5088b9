/** Query keys of the usage feature (the proxy's own `/api/local/*` data, beside its config). */
export const usageKeys = {
  /** this month's metered spend */
  spend: () => ['local', 'usage'] as const,
};
