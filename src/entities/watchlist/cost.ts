/**
 * What watching costs, asked before anything is billed (proxy routes, see docs/monitoring.md):
 * resolving pasted DOTs and dockets to profile ids (a dry-run plan first) and the estimate of
 * watching profiles.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiPost } from '../../lib/api-client.ts';
import { FRESHNESS } from '../../lib/freshness.ts';
import type { CallOptions } from './api.ts';
import { watchlistKeys } from './keys.ts';
import { canonicalIds } from '../../lib/watchlist/profile-id.ts';

const planSchema = z.object({
  plan: z.object({
    entries: z.number(),
    profileIds: z.number(),
    dots: z.number(),
    dockets: z.number(),
    invalid: z.number(),
    maxCostUsd: z.number(),
  }),
});
export type ResolvePlan = z.infer<typeof planSchema>['plan'];

const resolutionSchema = z.object({
  resolved: z.array(z.object({ input: z.string(), profile_id: z.string(), via: z.string() })),
  unresolved: z.array(z.object({ input: z.string(), reason: z.string(), message: z.string() })),
  profile_ids: z.array(z.string()),
  costUsd: z.number(),
});
export type Resolution = z.infer<typeof resolutionSchema>;

const estimateSchema = z.object({
  units: z.number(),
  billableUnits: z.number(),
  unitPriceUsd: z.number(),
  costUsd: z.number(),
  withinBudget: z.boolean(),
  billing: z.object({ billed: z.boolean(), note: z.string() }).optional(),
});
export type WatchEstimate = z.infer<typeof estimateSchema>;

/** Entries per resolve call (the proxy takes at most 10,000). */
const RESOLVE_MAX_ENTRIES = 10_000;

/** What resolving entries would cost at most (a dry run: nothing is called, nothing billed). */
export async function planResolution(
  entries: readonly string[],
  options: CallOptions = {},
): Promise<ResolvePlan> {
  const body = await apiPost(
    '/api/local/watchlist/resolve',
    { entries: entries.slice(0, RESOLVE_MAX_ENTRIES), dryRun: true },
    options,
  );
  return planSchema.parse(body).plan;
}

/** DOT numbers, dockets or profile ids → profile ids (billed lookups: show the plan first). */
export async function resolveEntries(
  entries: readonly string[],
  options: CallOptions = {},
): Promise<Resolution> {
  const body = await apiPost(
    '/api/local/watchlist/resolve',
    { entries: entries.slice(0, RESOLVE_MAX_ENTRIES) },
    options,
  );
  return resolutionSchema.parse(body);
}

/**
 * The proxy's estimate of watching profiles: new DOTs this month × 0.50 USD, already-billed DOTs
 * free. Ids with a docket go in `profile_ids`, bare-DOT ids (carriers without a docket) in `dots`.
 */
export async function estimateWatch(
  profileIds: readonly string[],
  options: CallOptions = {},
): Promise<WatchEstimate> {
  const ids = canonicalIds(profileIds);
  const withDocket = ids.filter((id) => id.includes('-'));
  const dots = ids.filter((id) => !id.includes('-'));
  const body = await apiPost(
    '/api/local/estimate',
    {
      action: 'monitoring/add',
      ...(withDocket.length ? { profile_ids: withDocket } : {}),
      ...(dots.length ? { dots } : {}),
    },
    options,
  );
  return estimateSchema.parse(body);
}

/** The estimate of watching one profile, cached briefly (shown before the Watch confirmation). */
export function useWatchEstimate(profileIds: readonly string[], enabled: boolean) {
  return useQuery({
    queryKey: watchlistKeys.estimate(profileIds),
    queryFn: ({ signal }) => estimateWatch(profileIds, { signal }),
    enabled: enabled && profileIds.length > 0,
    staleTime: FRESHNESS.watchEstimate,
  });
}
