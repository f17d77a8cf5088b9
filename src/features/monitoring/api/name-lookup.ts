/**
 * Looking up the names of watched carriers nobody has named yet (`POST /api/local/names/lookup`):
 * first the cost (nothing is called), then, once the user confirms that cost, the look-up itself
 * through the proxy's one path to the service. Never automatic.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiPost, parseBody } from '../../../lib/api-client.ts';
import { carrierKeys } from '../../../entities/carrier/keys.ts';

/** The proxy looks up at most this many carriers per request. */
export const NAME_LOOKUP_MAX = 100;
const PATH = '/api/local/names/lookup';

const estimateSchema = z.object({
  carriers: z.number(),
  already_named: z.number(),
  to_look_up: z.number(),
  endpoint: z.string(),
  unit_price_usd: z.number(),
  billable: z.number(),
  metered_cost_usd: z.number(),
  cost_usd: z.number(),
  billed: z.boolean(),
  within_budget: z.boolean(),
});
export type NameLookupEstimate = z.infer<typeof estimateSchema>;

const resultSchema = z.object({
  named: z.record(z.string(), z.object({ name: z.string() })),
  not_found: z.array(z.string()),
  failed: z.array(z.object({ dot: z.string(), code: z.string(), error: z.string() })),
  stopped: z.object({ code: z.string(), error: z.string(), hint: z.string() }).optional(),
});
export type NameLookupResult = z.infer<typeof resultSchema>;

const estimateAnswer = z.object({ estimate: estimateSchema });
const resultAnswer = z.object({ estimate: estimateSchema, result: resultSchema });

/** What looking up these DOTs would cost (free to ask). */
export function useNameLookupEstimate() {
  return useMutation({
    mutationFn: async (dots: readonly string[]) =>
      parseBody(
        estimateAnswer,
        await apiPost(PATH, { dots: dots.slice(0, NAME_LOOKUP_MAX) }),
        'the cost of looking up names',
      ).estimate,
  });
}

/** Look them up, at most the cost the user saw; the names the inbox reads are asked again. */
export function useNameLookup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ dots, maxCostUsd }: { dots: readonly string[]; maxCostUsd: number }) =>
      parseBody(
        resultAnswer,
        await apiPost(PATH, {
          dots: dots.slice(0, NAME_LOOKUP_MAX),
          confirm: true,
          max_cost_usd: maxCostUsd,
        }),
        'the looked-up names',
      ).result,
    onSettled: () => client.invalidateQueries({ queryKey: [...carrierKeys.all, 'held-names'] }),
  });
}
