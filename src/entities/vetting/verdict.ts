/**
 * The proxy's verdict on one carrier (`GET /api/local/verdict`): the same engine and policy, run
 * on the proxy's cached profile (free on a hit; a miss is the one billed profile call the page
 * makes anyway), so the browser needs neither the full profile nor its network lists for it. Read
 * by the profile and run ahead by the app's profile prefetch (src/app/profile-prefetch.ts).
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet } from '../../lib/api-client.ts';
import { outcomeSchema, reasonSchema } from '../../lib/vetting/decision-record.ts';
import { vettingKeys } from './keys.ts';

const verdictBody = z.object({
  dot_number: z.string().nullable(),
  legal_name: z.string().nullable(),
  fetched_at: z.string(),
  evaluated_at: z.string(),
  verdict: outcomeSchema,
  policy_version: z.number(),
  snapshot_date: z.string().nullable(),
  reasons: z.array(reasonSchema),
});
export type VerdictReason = z.infer<typeof verdictBody>['reasons'][number];

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
      verdictBody.parse(await apiGet('/api/local/verdict', { dot_number: dot }, { signal })),
  });
}
