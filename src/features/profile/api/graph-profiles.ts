/**
 * Profiles for the network graph's "hop out", under the cost rule of the Network tab: nothing that
 * could be billed is fetched without the user's click. A carrier's profile is read first from the
 * query cache (a profile page already opened), then from the proxy's cache with
 * `Cache-Control: only-if-cached` (the proxy answers from its cache or says 504 `not_cached`, never
 * calling the service). Only a confirmed expand asks the service, at the cost shown beforehand
 * (`/api/local/estimate`: the published price, 0 when already billed this month, and whether the
 * mode bills at all).
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, apiGetWithMeta, apiPost } from '../../../lib/api-client.ts';
import { FRESHNESS } from '../../../lib/freshness.ts';
import { parseProfileResponse, type Profile } from '../../../lib/service/index.ts';
import type { ProfileResult } from './get-profile.ts';
import { profileKeys } from './keys.ts';

export type GraphProfile =
  | { state: 'held'; profile: Profile }
  /** the service knows no carrier with this DOT */
  | { state: 'unknown-carrier' }
  /** neither the page nor the proxy holds it: expanding it is a service call */
  | { state: 'not-held' };

const graphKeys = {
  held: (dot: string) => ['profile', 'graph', 'held', dot] as const,
  cost: (dot: string) => ['profile', 'graph', 'cost', dot] as const,
};

async function askProxy(dot: string, onlyIfCached: boolean, signal?: AbortSignal) {
  try {
    const answer = await apiGetWithMeta(
      '/api/v2/profile',
      { dot_number: dot },
      { signal, headers: onlyIfCached ? { 'cache-control': 'only-if-cached' } : undefined },
    );
    const profile = parseProfileResponse(answer.body).value.items[0];
    const result: GraphProfile = profile
      ? { state: 'held', profile }
      : { state: 'unknown-carrier' };
    return result;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // Answers, not failures: kept by the query and not retried.
    if (onlyIfCached && error.status === 504 && error.code === 'not_cached')
      return { state: 'not-held' } as const;
    if (error.status === 404) return { state: 'unknown-carrier' } as const;
    throw error;
  }
}

/** What is held of a carrier without any billed call: the page's cache, else the proxy's. */
export function heldGraphProfileQuery(client: QueryClient, dot: string) {
  return queryOptions({
    queryKey: graphKeys.held(dot),
    queryFn: async ({ signal }): Promise<GraphProfile> => {
      const page = client.getQueryData<ProfileResult>(profileKeys.full(dot))?.profile;
      if (page) return { state: 'held', profile: page };
      return askProxy(dot, true, signal);
    },
    // A heavy profile is tens of thousands of objects: replace it whole.
    structuralSharing: false,
    staleTime: Infinity,
  });
}

/** The confirmed expand: the service is asked (billed unless already billed this month). */
export async function fetchGraphProfile(client: QueryClient, dot: string): Promise<GraphProfile> {
  const result = await askProxy(dot, false);
  client.setQueryData(graphKeys.held(dot), result);
  client.removeQueries({ queryKey: graphKeys.cost(dot) });
  return result;
}

const estimateSchema = z.object({
  costUsd: z.number(),
  unitPriceUsd: z.number(),
  billing: z.object({ billed: z.boolean(), note: z.string() }).optional(),
});

/** What expanding a carrier not held would cost (no service call: the proxy's own estimate). */
export function expandCostQuery(dot: string) {
  return queryOptions({
    queryKey: graphKeys.cost(dot),
    queryFn: async ({ signal }) =>
      estimateSchema.parse(
        await apiPost('/api/local/estimate', { action: 'profile', dots: [dot] }, { signal }),
      ),
    staleTime: FRESHNESS.watchEstimate,
  });
}
