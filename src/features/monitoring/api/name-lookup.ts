/**
 * Looking up the names of watched carriers nobody has named yet (`POST /api/local/names/lookup`):
 * first the cost (nothing is called), then, once the user confirms that cost, the look-up itself
 * through the proxy's one path to the service. Never automatic.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost, parseBody } from '../../../lib/api-client.ts';
import { carrierKeys } from '../../../entities/carrier/keys.ts';
import {
  nameLookupEstimateAnswerSchema,
  nameLookupResultAnswerSchema,
} from '../../../lib/monitoring/contract.ts';

export type { NameLookupEstimate, NameLookupResult } from '../../../lib/monitoring/contract.ts';

/** The proxy looks up at most this many carriers per request. */
export const NAME_LOOKUP_MAX = 100;
const PATH = '/api/local/names/lookup';

/** What looking up these DOTs would cost (free to ask). */
export function useNameLookupEstimate() {
  return useMutation({
    mutationFn: async (dots: readonly string[]) =>
      parseBody(
        nameLookupEstimateAnswerSchema,
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
        nameLookupResultAnswerSchema,
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
