/**
 * A decision record's receipt (`GET /api/local/decisions/:id/receipt`, docs/vetting.md "An
 * anchored record"): a statement signed by the proxy of the record's id, position and hash and the
 * chain's length and head hash when it was issued. The printed record carries it; whoever keeps it
 * can later show with `POST /api/local/decisions/verify` that the record was not cut or changed.
 */
import { useQuery } from '@tanstack/react-query';
import { apiGet, parseBody } from '../../../lib/api-client.ts';
import { receiptSchema } from '../../../lib/vetting/contract.ts';
import { vettingKeys } from '../../../entities/vetting/keys.ts';

export type { Receipt } from '../../../lib/vetting/contract.ts';

/**
 * The receipt of record `id`, issued now (each visit states the chain as it is then): the parsed
 * fields to show, and the proxy's answer as it came (`raw`) to keep, fields the SPA does not know
 * included: the verify route takes a receipt exactly as the proxy gave it.
 */
export function useDecisionReceipt(id: string) {
  return useQuery({
    queryKey: [...vettingKeys.decisions, 'receipt', id] as const,
    queryFn: async ({ signal }) => {
      const raw = await apiGet(
        `/api/local/decisions/${encodeURIComponent(id)}/receipt`,
        {},
        { signal },
      );
      return {
        receipt: parseBody(receiptSchema, raw, 'the receipt'),
        raw: raw as Record<string, unknown>,
      };
    },
    staleTime: 0,
  });
}
