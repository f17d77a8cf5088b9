/**
 * The tender check's own calls (docs/tender-check.md): run a check (`POST`, which may bill only up
 * to the `max_cost_usd` it is sent) and read a stored one. The lists are the tender entity's.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost, parseBody } from '../../../lib/api-client.ts';
import {
  tenderCheckAnswerSchema,
  type TenderCheckAnswer,
  type TenderCheckInput,
} from '../../../lib/tender/contract.ts';
import { tenderKeys } from '../../../entities/tender-check/keys.ts';

/** Run a check; the answer is kept as that stored check's, and every list is asked again. */
export function useRunTenderCheck() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: TenderCheckInput): Promise<TenderCheckAnswer> =>
      parseBody(
        tenderCheckAnswerSchema,
        await apiPost('/api/local/tender-checks', body),
        'the tender check',
      ),
    onSuccess: async (answer) => {
      client.setQueryData(tenderKeys.one(String(answer.id)), answer);
      await client.invalidateQueries({ queryKey: tenderKeys.lists() });
    },
  });
}

export function useTenderCheck(id: string) {
  return useQuery({
    queryKey: tenderKeys.one(id),
    queryFn: async ({ signal }) =>
      parseBody(
        tenderCheckAnswerSchema,
        await apiGet(`/api/local/tender-checks/${encodeURIComponent(id)}`, {}, { signal }),
        'the tender check',
      ),
  });
}
