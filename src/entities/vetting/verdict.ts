/**
 * The proxy's verdict on one carrier (`GET /api/local/verdict`): the same engine and policy, run
 * on the proxy's cached profile (free on a hit; a miss is the one billed profile call the page
 * makes anyway), so the browser needs neither the full profile nor its network lists for it. Read
 * by the profile and run ahead by the app's profile prefetch (src/app/profile-prefetch.ts). The
 * answer's shape is the vetting contract's (src/lib/vetting/contract.ts).
 */
import { queryOptions } from '@tanstack/react-query';
import { apiGet, parseBody } from '../../lib/api-client.ts';
import { verdictAnswerSchema, type VerdictAnswer } from '../../lib/vetting/contract.ts';
import { vettingKeys } from './keys.ts';

export type VerdictReason = VerdictAnswer['reasons'][number];

/**
 * The query key of a carrier's verdict: under the policy's key, so saving a policy (which
 * invalidates the policy) has every verdict asked again.
 */
export function verdictKey(dot: string) {
  return vettingKeys.verdict(dot);
}

/** The verdict's query (the profile's `useVerdict`, the app's prefetch). */
export function verdictQuery(dot: string) {
  return queryOptions({
    queryKey: verdictKey(dot),
    queryFn: async ({ signal }) =>
      parseBody(
        verdictAnswerSchema,
        await apiGet('/api/local/verdict', { dot_number: dot }, { signal }),
        'the verdict',
      ),
  });
}
