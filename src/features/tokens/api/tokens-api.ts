/**
 * The proxy's API token routes (docs/api.md, admins only): the list, making a token (its answer
 * carries the token once) and revoking one. Answers are read with the routes' own contract
 * schemas (src/lib/tokens/contract.ts).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet, apiPost, parseBody } from '../../../lib/api-client.ts';
import {
  createTokenRoute,
  listTokensRoute,
  revokeTokenRoute,
  type ApiToken,
} from '../../../lib/tokens/contract.ts';

export type { ApiToken };
export type NewTokenInput = z.input<typeof createTokenRoute.body>;
export type MadeToken = z.infer<(typeof createTokenRoute.responses)[201]>;

const tokenKeys = { list: () => ['api-tokens'] as const };

/** Every token, newest first; only asked when `enabled` (an admin: the route refuses others). */
export function useTokens(enabled: boolean) {
  return useQuery({
    queryKey: tokenKeys.list(),
    enabled,
    queryFn: async ({ signal }) =>
      parseBody(
        listTokensRoute.responses[200],
        await apiGet(listTokensRoute.path, {}, { signal }),
        'the API tokens',
      ).tokens,
  });
}

/** Make a token; the answer carries the token itself, shown once. */
export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: NewTokenInput): Promise<MadeToken> =>
      parseBody(
        createTokenRoute.responses[201],
        await apiPost(createTokenRoute.path, input),
        'the new token',
      ),
    onSettled: () => client.invalidateQueries({ queryKey: tokenKeys.list() }),
  });
}

/** Revoke a token: systems using it are refused (401) at once, on every replica. */
export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number): Promise<ApiToken> =>
      parseBody(
        revokeTokenRoute.responses[200],
        await apiPost(revokeTokenRoute.path.replace(':id', String(id)), {}),
        'the revoked token',
      ).token,
    onSettled: () => client.invalidateQueries({ queryKey: tokenKeys.list() }),
  });
}
