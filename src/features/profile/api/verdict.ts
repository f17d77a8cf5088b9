/**
 * The profile's vetting calls (docs/vetting.md): the proxy's verdict on the carrier shown (the
 * query is the vetting entity's, which the app's prefetch also runs) and recording a decision.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPost, parseBody } from '../../../lib/api-client.ts';
import { decisionRecordSchema, type Decision } from '../../../lib/vetting/decision-record.ts';
import { vettingKeys } from '../../../entities/vetting/keys.ts';
import { verdictQuery } from '../../../entities/vetting/verdict.ts';

export function useVerdict(dot: string, enabled = true) {
  return useQuery({ ...verdictQuery(dot), enabled });
}

export interface DecisionInput {
  dot_number: string;
  decision: Decision;
  note?: string;
  conditions?: string;
  expires_on?: string;
  supersedes?: number;
  /** required to approve a carrier the policy fails or sends to review */
  override_reason?: string;
  /** a tender check on this carrier, kept in the record (docs/tender-check.md) */
  tender_check_id?: number;
}

/** Record a decision; every query under `decisions` (lists, standings, the queue) is asked again. */
export function useRecordDecision() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: DecisionInput) =>
      parseBody(decisionRecordSchema, await apiPost('/api/local/decisions', input), 'the decision'),
    onSuccess: () => client.invalidateQueries({ queryKey: vettingKeys.decisions }),
  });
}
