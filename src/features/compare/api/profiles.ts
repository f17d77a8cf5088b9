/**
 * The compare page's data, under its cost rule: a carrier is compared without asking only when
 * the proxy already holds its profile. The page asks with `Cache-Control: only-if-cached` (the
 * proxy answers from its cache or says 504 `not_cached`, never calling the service); a profile not
 * held shows its cost (`/api/local/estimate`) and is fetched only when the user asks.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, apiGetWithMeta, apiPost } from '../../../lib/api-client.ts';
import { parseProfileResponse, type Profile } from '../../../lib/service/index.ts';
import { FRESHNESS } from '../../../lib/freshness.ts';
import { compareKeys } from './keys.ts';

export type HeldProfile =
  | { state: 'held'; profile: Profile; fetchedAt: string | undefined }
  /** the service knows no carrier with this DOT */
  | { state: 'unknown-carrier' }
  | { state: 'not-held' };

async function getProfile(dot: string, onlyIfCached: boolean, signal?: AbortSignal) {
  const answer = await apiGetWithMeta(
    '/api/v2/profile',
    { dot_number: dot },
    { signal, headers: onlyIfCached ? { 'cache-control': 'only-if-cached' } : undefined },
  );
  const profile = parseProfileResponse(answer.body).value.items[0];
  const result: HeldProfile = profile
    ? { state: 'held', profile, fetchedAt: answer.headers.get('x-fetched-at') ?? undefined }
    : { state: 'unknown-carrier' };
  return result;
}

function isNotCached(error: unknown): boolean {
  return error instanceof ApiError && error.status === 504 && error.code === 'not_cached';
}

function isNoSuchCarrier(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** The profile if the proxy already holds it: free, whatever the answer. */
async function getHeldProfile(dot: string, signal?: AbortSignal): Promise<HeldProfile> {
  try {
    return await getProfile(dot, true, signal);
  } catch (error) {
    // An answer, not a failure: the query keeps it and does not retry (5xx would be retried).
    if (isNotCached(error)) return { state: 'not-held' };
    throw error;
  }
}

export function heldProfileQuery(dot: string) {
  return queryOptions({
    queryKey: compareKeys.held(dot),
    queryFn: ({ signal }) => getHeldProfile(dot, signal),
    // A heavy profile is tens of thousands of objects: replace it whole (as the profile page does).
    structuralSharing: false,
  });
}

/** Fetch the profile (a billed call unless already billed this month); the column then shows it. */
export function useFetchProfile(dot: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<HeldProfile> => {
      try {
        return await getProfile(dot, false);
      } catch (error) {
        if (isNoSuchCarrier(error)) return { state: 'unknown-carrier' };
        throw error;
      }
    },
    onSuccess: (result) => {
      client.setQueryData(compareKeys.held(dot), result);
      // The estimate is stale now; dropped rather than asked again (the column no longer shows it).
      client.removeQueries({ queryKey: compareKeys.cost(dot) });
    },
  });
}

const estimateSchema = z.object({
  billableUnits: z.number(),
  unitPriceUsd: z.number(),
  costUsd: z.number(),
  withinBudget: z.boolean(),
  billing: z.object({ billed: z.boolean(), note: z.string() }).optional(),
});
export type ProfileCost = z.infer<typeof estimateSchema>;

/** What fetching one carrier's profile costs: the published price, 0 when billed this month. */
export function useProfileCost(dot: string, enabled: boolean) {
  return useQuery({
    queryKey: compareKeys.cost(dot),
    queryFn: async ({ signal }) =>
      estimateSchema.parse(
        await apiPost('/api/local/estimate', { action: 'profile', dots: [dot] }, { signal }),
      ),
    enabled,
    // an estimate, as fresh as the watch estimate
    staleTime: FRESHNESS.watchEstimate,
  });
}
