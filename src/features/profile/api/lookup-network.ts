/**
 * Naming the carriers of a network without fanning out billed calls: what the query cache already
 * holds (full profiles, earlier lite look-ups or previews), the lite profile (the cheaper call,
 * `liteProfileQuery` of src/lib/carrier) for an explicit, confirmed look-up, and the mode and price
 * from `/api/local/config`.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet, ApiError } from '../../../lib/api-client.ts';
import { carrierKeys } from '../../../entities/carrier/keys.ts';
import { liteProfileQuery } from '../../../entities/carrier/lite-profile.ts';
import { FRESHNESS } from '../../../lib/freshness.ts';
import { unitUsd } from '../../../lib/service/endpoints.ts';
import type { LiteProfile } from '../../../lib/service/index.ts';
import type { KnownCarrier } from '../components/tabs/network/model.ts';
import type { ProfileResult } from './get-profile.ts';
import { profileKeys } from './keys.ts';

/** Published price of one lite profile per new DOT per month, used until the proxy says otherwise. */
const PUBLISHED_LITE_PRICE_USD = unitUsd('profile-lite');
/** At most this many look-ups in flight at once (live keys allow 5 profile calls a minute). */
const LOOKUP_CONCURRENCY = 2;

export interface LookupPricing {
  /** false only when the proxy says nothing is billed (sandbox, test key) */
  billed: boolean;
  mode: 'sandbox' | 'test' | 'live' | undefined;
  unitUsd: number;
  /** true when the price is the published one because the proxy did not say */
  assumed: boolean;
}

const ConfigBody = z.object({
  mode: z.enum(['sandbox', 'test', 'live']).optional().catch(undefined),
  billing: z.object({ billed: z.boolean() }).optional().catch(undefined),
  prices: z
    .array(z.object({ endpoint: z.string(), usd: z.number().nonnegative() }).loose())
    .optional()
    .catch(undefined),
});

/** The lite profile's price and whether calls are billed; unknown mode counts as billed. */
export function readLookupPricing(body: unknown): LookupPricing {
  const parsed = ConfigBody.safeParse(body);
  const data = parsed.success ? parsed.data : {};
  const price = data.prices?.find((p) => p.endpoint === 'profile-lite')?.usd;
  return {
    mode: data.mode,
    billed: data.billing?.billed ?? data.mode !== 'sandbox',
    unitUsd: price ?? PUBLISHED_LITE_PRICE_USD,
    assumed: price === undefined,
  };
}

export const lookupPricingQuery = queryOptions({
  queryKey: profileKeys.lookupPricing(),
  queryFn: async ({ signal }) =>
    readLookupPricing(await apiGet('/api/local/config', {}, { signal })),
  staleTime: FRESHNESS.proxyConfig,
  gcTime: FRESHNESS.proxyConfig,
});

function fromProfileLike(
  dot: string,
  p: Pick<LiteProfile, 'legal_name' | 'usdot_status' | 'out_of_service_flag'>,
  source: KnownCarrier['source'],
): KnownCarrier {
  return {
    dot,
    name: p.legal_name,
    usdotStatus: p.usdot_status,
    outOfService: p.out_of_service_flag,
    source,
  };
}

const NO_DETAILS = {
  name: undefined,
  usdotStatus: undefined,
  outOfService: undefined,
  source: 'lite',
} as const;

/** What the query cache knows about these DOTs: fetched full profiles first, then lite look-ups. */
export function knownFromCache(queryClient: QueryClient, dots: readonly string[]) {
  const known = new Map<string, KnownCarrier>();
  for (const dot of dots) {
    const full = queryClient.getQueryData<ProfileResult>(profileKeys.full(dot))?.profile;
    const lite = queryClient.getQueryData<LiteProfile | null>(carrierKeys.lite(dot));
    if (full) known.set(dot, fromProfileLike(dot, full, 'profile'));
    else if (lite) known.set(dot, fromProfileLike(dot, lite, 'lite'));
    else if (lite === null) known.set(dot, { ...NO_DETAILS, dot, notFound: true });
  }
  return known;
}

export interface LookupProgress {
  done: number;
  total: number;
  failed: string[];
  /** set when the run stopped early (rate limit, budget, key problem) */
  stoppedBy?: ApiError | undefined;
}

function stopsTheRun(error: unknown): error is ApiError {
  return error instanceof ApiError && [401, 402, 403, 429].includes(error.status);
}

/**
 * Look up the lite profiles of `dots`, at most `concurrency` at a time, through the query cache (a
 * DOT already looked up is not called again). A rate limit or budget refusal stops the run.
 */
export async function lookUpNames(
  queryClient: QueryClient,
  dots: readonly string[],
  onProgress: (progress: LookupProgress) => void,
  concurrency = LOOKUP_CONCURRENCY,
): Promise<LookupProgress> {
  const progress: LookupProgress = { done: 0, total: dots.length, failed: [] };
  const queue = [...dots];
  async function worker() {
    for (let dot = queue.shift(); dot !== undefined && !progress.stoppedBy; dot = queue.shift()) {
      try {
        await queryClient.fetchQuery(liteProfileQuery(dot));
      } catch (error) {
        progress.failed.push(dot);
        if (stopsTheRun(error)) progress.stoppedBy = error;
      }
      progress.done += 1;
      onProgress({ ...progress, failed: [...progress.failed] });
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return progress;
}
