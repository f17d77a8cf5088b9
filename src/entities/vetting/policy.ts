/**
 * The team's vetting policy (`GET /api/local/policy`, docs/vetting.md): its rules' settings and
 * options and the rules' descriptions, parsed with the vetting contract's schema
 * (src/lib/vetting/contract.ts), which the proxy's route declares too. Read by the profile
 * (verdicts), Compare and the Policy page.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, parseBody } from '../../lib/api-client.ts';
import {
  currentPolicySchema,
  type CurrentPolicy,
  type PolicyVersion,
} from '../../lib/vetting/contract.ts';
import type { Policy } from '../../lib/vetting/index.ts';
import { vettingKeys } from './keys.ts';

export type { CurrentPolicy, PolicyVersion, RuleInfo } from '../../lib/vetting/contract.ts';

function policyQuery() {
  return queryOptions({
    queryKey: vettingKeys.policy,
    queryFn: async ({ signal }): Promise<CurrentPolicy> =>
      parseBody(
        currentPolicySchema,
        await apiGet('/api/local/policy', {}, { signal }),
        'the vetting policy',
      ),
  });
}

/** The current policy as the engine takes it. */
export function enginePolicy(policy: PolicyVersion): Policy {
  return { version: policy.version, settings: policy.settings };
}

export function usePolicy() {
  return useQuery(policyQuery());
}
