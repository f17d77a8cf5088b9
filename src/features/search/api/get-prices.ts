/**
 * The service mode and the published prices, from the proxy's `GET /api/local/config`, for the
 * cost hints next to actions that call billed endpoints. Read tolerantly: unknown → no hint.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet } from '../../../lib/api-client.ts';

const PriceBody = z.object({ endpoint: z.string(), usd: z.number(), unit: z.string() });

const ConfigBody = z.object({
  mode: z.enum(['sandbox', 'test', 'live']).optional().catch(undefined),
  prices: z.array(PriceBody).optional().catch(undefined),
});

interface Price {
  usd: number;
  unit: string;
}

export interface Pricing {
  /** Whether calls are billed at all (live mode only). */
  billed: boolean;
  prices: Partial<Record<string, Price>>;
}

export function readPricing(body: unknown): Pricing {
  const parsed = ConfigBody.safeParse(body);
  if (!parsed.success) return { billed: false, prices: {} };
  const prices: Partial<Record<string, Price>> = {};
  for (const price of parsed.data.prices ?? []) {
    prices[price.endpoint] = { usd: price.usd, unit: price.unit };
  }
  return { billed: parsed.data.mode === 'live', prices };
}

const pricingQueryOptions = queryOptions({
  queryKey: ['search', 'pricing'] as const,
  queryFn: async ({ signal }) => readPricing(await apiGet('/api/local/config', {}, { signal })),
  staleTime: Infinity,
});

export function usePricing() {
  return useQuery(pricingQueryOptions);
}
