/**
 * The shape of a recorded vetting decision as the proxy answers it (docs/vetting.md): the four
 * decisions, their labels and the zod schema of one record with the verdict and evidence it was
 * taken on. Runtime-neutral (zod only, no React, no React Query): the SPA's vetting hooks parse
 * with it and the proxy's alerts poller types the records it reads with it.
 */
import { z } from 'zod';
import { OUTCOMES } from './index.ts';
import { tenderDecisionAttachmentSchema } from '../tender/contract.ts';

export const DECISIONS = [
  'approved',
  'approved_with_conditions',
  'rejected',
  'do_not_use',
] as const;
export type Decision = (typeof DECISIONS)[number];

export const DECISION_LABELS: Record<Decision, string> = {
  approved: 'Approved',
  approved_with_conditions: 'Approved with conditions',
  rejected: 'Rejected',
  do_not_use: 'Do not use',
};

export const outcomeSchema = z.enum(OUTCOMES);
const evidenceSchema = z.object({
  name: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
});
export const reasonSchema = z.object({
  rule: z.string(),
  label: z.string().optional(),
  outcome: outcomeSchema,
  message: z.string(),
  fields: z.array(evidenceSchema),
  tab: z.string(),
  anchor: z.string().optional(),
  not_enough_data: z.boolean().optional(),
  not_applicable: z.boolean().optional(),
  vendor_derived: z.boolean().optional(),
});

export const decisionRecordSchema = z.object({
  id: z.number().int(),
  hash: z.string(),
  prev_hash: z.string(),
  dot_number: z.string(),
  decision: z.enum(DECISIONS),
  note: z.string().nullable(),
  conditions: z.string().nullable(),
  expires_on: z.string().nullable(),
  supersedes: z.number().nullable(),
  /** why an approval was recorded against a Fail or Review verdict (only on overrides) */
  override_reason: z.string().optional(),
  /** the tender check the decision was recorded with (docs/tender-check.md), when one was */
  tender_check: tenderDecisionAttachmentSchema.optional(),
  user: z.object({ id: z.string(), name: z.string() }),
  decided_at: z.string(),
  policy_version: z.number(),
  verdict: z.object({
    verdict: outcomeSchema,
    policy_version: z.number(),
    evaluated_at: z.string(),
    snapshot_date: z.string().nullable(),
    reasons: z.array(reasonSchema),
  }),
  profile: z.object({
    snapshot_date: z.string().nullable(),
    fetched_at: z.string(),
    identity: z.array(evidenceSchema),
    authority: z.array(evidenceSchema),
    insurance: z.array(evidenceSchema),
    safety: z.array(evidenceSchema),
  }),
});
export type DecisionRecord = z.infer<typeof decisionRecordSchema>;

/** Today (local calendar) as YYYY-MM-DD. */
function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A decision past its re-vet date. */
export function isExpired(
  record: Pick<DecisionRecord, 'expires_on'>,
  today = localToday(),
): boolean {
  return record.expires_on !== null && record.expires_on < today;
}
