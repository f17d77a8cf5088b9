/**
 * The Policy page's calls (docs/vetting.md): the policy's versions, saving a change as a new
 * version, and what a change would do to the decisions on record. The current policy itself is
 * the vetting entity's (`usePolicy`, src/entities/vetting/policy.ts): other screens read it too.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost, apiPut, parseBody } from '../../../lib/api-client.ts';
import {
  currentPolicySchema,
  policyPreviewSchema,
  policyVersionsSchema,
} from '../../../lib/vetting/contract.ts';
import type { PolicyOptions, RuleId, RuleSettings } from '../../../lib/vetting/index.ts';
import { vettingKeys } from '../../../entities/vetting/keys.ts';

export type { PolicyPreview, PreviewEntry } from '../../../lib/vetting/contract.ts';

export function usePolicyVersions() {
  return useQuery({
    queryKey: vettingKeys.policyVersions(),
    queryFn: async ({ signal }) => {
      const body = parseBody(
        policyVersionsSchema,
        await apiGet('/api/local/policy/versions', {}, { signal }),
        'the policy versions',
      );
      return body.items;
    },
  });
}

export type RuleChanges = Partial<Record<RuleId, Partial<RuleSettings>>>;

/**
 * Save a change as a new version. Everything the policy decides is asked again: the policy, its
 * versions and every verdict (under `policy`), and the standings shown beside decisions, the
 * flagged list and the re-vet queue (under `decisions`), which the proxy judges by the policy.
 */
export function useSavePolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      rules: RuleChanges;
      options?: Partial<PolicyOptions>;
      note?: string;
    }) =>
      parseBody(currentPolicySchema, await apiPut('/api/local/policy', input), 'the saved policy'),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: vettingKeys.policy }),
        client.invalidateQueries({ queryKey: vettingKeys.decisions }),
      ]),
  });
}

/**
 * What saving these changes would do to the decisions on record (`POST /api/local/policy/preview`:
 * nothing stored, no billed call), asked again whenever the changes differ.
 */
export function usePolicyPreview(
  input: { rules: RuleChanges; options?: Partial<PolicyOptions> },
  enabled: boolean,
) {
  return useQuery({
    enabled,
    queryKey: vettingKeys.policyPreview(input),
    queryFn: async ({ signal }) =>
      parseBody(
        policyPreviewSchema,
        await apiPost('/api/local/policy/preview', input, { signal }),
        'the policy preview',
      ),
    staleTime: 0,
  });
}
