/**
 * What watching costs, asked before anything is billed (proxy routes, see docs/monitoring.md):
 * resolving pasted DOTs and dockets to profile ids (a dry-run plan first) and the estimate of
 * watching profiles.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiPost, parseBody } from '../../lib/api-client.ts';
import { FRESHNESS } from '../../lib/freshness.ts';
import type { CallOptions } from './api.ts';
import { watchlistKeys } from './keys.ts';
import { canonicalIds } from '../../lib/watchlist/profile-id.ts';
import {
  MAX_RESOLVE_ENTRIES,
  resolutionSchema,
  resolvePlanAnswerSchema,
  type Resolution,
  type ResolvePlan,
} from '../../lib/watchlist/contract.ts';

export type { Resolution, ResolvePlan } from '../../lib/watchlist/contract.ts';

const estimateSchema = z.object({
  units: z.number(),
  billableUnits: z.number(),
  unitPriceUsd: z.number(),
  costUsd: z.number(),
  withinBudget: z.boolean(),
  billing: z.object({ billed: z.boolean(), note: z.string() }).optional(),
});
export type WatchEstimate = z.infer<typeof estimateSchema>;

/** What resolving entries would cost at most (a dry run: nothing is called, nothing billed). */
export async function planResolution(
  entries: readonly string[],
  options: CallOptions = {},
): Promise<ResolvePlan> {
  const body = await apiPost(
    '/api/local/watchlist/resolve',
    { entries: entries.slice(0, MAX_RESOLVE_ENTRIES), dryRun: true },
    options,
  );
  return parseBody(resolvePlanAnswerSchema, body, 'the resolution plan').plan;
}

/** DOT numbers, dockets or profile ids → profile ids (billed lookups: show the plan first). */
export async function resolveEntries(
  entries: readonly string[],
  options: CallOptions = {},
): Promise<Resolution> {
  const body = await apiPost(
    '/api/local/watchlist/resolve',
    { entries: entries.slice(0, MAX_RESOLVE_ENTRIES) },
    options,
  );
  return parseBody(resolutionSchema, body, 'the resolution');
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
