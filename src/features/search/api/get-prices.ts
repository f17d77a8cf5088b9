/**
 * The service mode and the published prices, from the proxy's `GET /api/local/config`, for the
 * cost hints next to actions that call billed endpoints (the search form, the pager, the preview).
 * Read by hand, without zod: the search form is in the search page's initial bundle. Read
 * tolerantly: unknown → no price.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';
import { FRESHNESS } from '../../../lib/freshness.ts';
import { searchKeys } from './keys.ts';

interface Price {
  usd: number;
  unit: string;
}

export interface Pricing {
  /** Whether calls are billed at all (live mode only). */
  billed: boolean;
  prices: Partial<Record<string, Price>>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readPrice(value: unknown): [string, Price] | undefined {
  if (!isRecord(value)) return undefined;
  const { endpoint, usd, unit } = value;
  if (typeof endpoint !== 'string' || typeof unit !== 'string') return undefined;
  if (typeof usd !== 'number' || !Number.isFinite(usd) || usd < 0) return undefined;
  return [endpoint, { usd, unit }];
}

/** A list with one malformed entry is no list: a wrong price is worse than none. */
function readPrices(value: unknown): Partial<Record<string, Price>> {
  if (!Array.isArray(value)) return {};
  const entries = value.map(readPrice);
  if (entries.some((entry) => entry === undefined)) return {};
  return Object.fromEntries(entries as [string, Price][]);
}

export function readPricing(body: unknown): Pricing {
  if (!isRecord(body)) return { billed: false, prices: {} };
  return { billed: body.mode === 'live', prices: readPrices(body.prices) };
}

const pricingQueryOptions = queryOptions({
  queryKey: searchKeys.pricing(),
  queryFn: async ({ signal }) => readPricing(await apiGet('/api/local/config', {}, { signal })),
  staleTime: FRESHNESS.proxyConfig,
});

export function usePricing() {
  return useQuery(pricingQueryOptions);
}
