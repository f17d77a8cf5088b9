/**
 * The Policy page's calls (docs/vetting.md): the policy's versions, saving a change as a new
 * version, and what a change would do to the decisions on record. The current policy itself is
 * the vetting entity's (`usePolicy`, src/entities/vetting/policy.ts): other screens read it too.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet, apiPost, apiPut } from '../../../lib/api-client.ts';
import { DECISIONS, outcomeSchema, reasonSchema } from '../../../lib/vetting/decision-record.ts';
import type { PolicyOptions, RuleId, RuleSettings } from '../../../lib/vetting/index.ts';
import { STANDINGS } from '../../../lib/vetting/standing.ts';
import { vettingKeys } from '../../../entities/vetting/keys.ts';
import { policyVersionSchema, toVersion } from '../../../entities/vetting/policy.ts';

export function usePolicyVersions() {
  return useQuery({
    queryKey: vettingKeys.policyVersions(),
    queryFn: async ({ signal }) => {
      const body = z
        .object({ items: z.array(policyVersionSchema) })
        .parse(await apiGet('/api/local/policy/versions', {}, { signal }));
      return body.items.map(toVersion);
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
    }) => toVersion(policyVersionSchema.parse(await apiPut('/api/local/policy', input))),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: vettingKeys.policy }),
        client.invalidateQueries({ queryKey: vettingKeys.decisions }),
      ]),
  });
}

const previewEntry = z.object({
  dot_number: z.string(),
  legal_name: z.string().nullable(),
  decision: z.enum(DECISIONS),
  decision_id: z.number(),
  standing_before: z.enum(STANDINGS),
  standing_after: z.enum(STANDINGS),
  verdict_before: outcomeSchema,
  verdict_after: outcomeSchema,
  reasons: z.array(reasonSchema),
});
export type PreviewEntry = z.infer<typeof previewEntry>;

const policyPreview = z.object({
  version_from: z.number(),
  would_fail: z.array(previewEntry),
  would_review: z.array(previewEntry),
  would_pass: z.array(previewEntry),
  unchanged: z.number(),
});
export type PolicyPreview = z.infer<typeof policyPreview>;

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
      policyPreview.parse(await apiPost('/api/local/policy/preview', input, { signal })),
    staleTime: 0,
  });
}
