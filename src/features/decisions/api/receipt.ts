/**
 * A decision record's receipt (`GET /api/local/decisions/:id/receipt`, docs/vetting.md "An
 * anchored record"): a statement signed by the proxy of the record's id, position and hash and the
 * chain's length and head hash when it was issued. The printed record carries it; whoever keeps it
 * can later show with `POST /api/local/decisions/verify` that the record was not cut or changed.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet } from '../../../lib/api-client.ts';
import { vettingKeys } from '../../../entities/vetting/keys.ts';

const HASH = /^[0-9a-f]{64}$/;

const receiptSchema = z.object({
  type: z.literal('decision-receipt'),
  record_id: z.number().int().positive(),
  record_position: z.number().int().positive(),
  record_hash: z.string().regex(HASH),
  chain_length: z.number().int().positive(),
  head_hash: z.string().regex(HASH),
  issued_at: z.string(),
  /** the exact text that was signed (canonical JSON of the fields above and `key_id`) */
  payload: z.string(),
  /** Ed25519 over `payload`, base64 */
  signature: z.string(),
  key_id: z.string(),
});
export type Receipt = z.infer<typeof receiptSchema>;

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
      return { receipt: receiptSchema.parse(raw), raw: raw as Record<string, unknown> };
    },
    staleTime: 0,
  });
}
