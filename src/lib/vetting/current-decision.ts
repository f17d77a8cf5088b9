/**
 * The answer of `GET /api/local/decisions/current` (docs/vetting.md, "Standing"): per carrier, the
 * current (newest) decision record with how it stands now: the verdict of the freshest held data
 * under the current policy (`now`, never a billed call), the standing, whether a saved policy
 * flagged it, whether it overrides its verdict and whether its re-vet date is due. One schema for
 * every reader: the SPA's standing look-ups (`?dot_numbers=`) and its list of flagged decisions
 * (`?all=1`, a page at a time). Runtime-neutral (zod only).
 */
import { z } from 'zod';
import { decisionRecordSchema, outcomeSchema, reasonSchema } from './decision-record.ts';
import { STANDINGS } from './standing.ts';

/** A current decision's re-vet date has passed, or falls within 14 days. */
const REVET_DUE = ['overdue', 'soon'] as const;

/**
 * The verdict of a carrier's freshest held data under the current policy (never a billed call):
 * its cached profile (`source: "profile"`), else the record's evidence with the monitoring changes
 * seen since laid over (`"record"`). `reasons` are the non-pass rule results.
 */
const heldVerdictSchema = z.object({
  verdict: outcomeSchema,
  policy_version: z.number(),
  reasons: z.array(reasonSchema),
  fetched_at: z.string(),
  evaluated_at: z.string(),
  source: z.enum(['profile', 'record']),
  /** the held profile is marked stale after a reported change (refetched on its next view) */
  stale: z.boolean().optional(),
});
export type HeldVerdict = z.infer<typeof heldVerdictSchema>;

/** A current decision with its standing now. */
const currentDecisionSchema = decisionRecordSchema.extend({
  now: heldVerdictSchema.nullable(),
  standing: z.enum(STANDINGS),
  /** a saved policy changed its standing and no newer decision was recorded since */
  needs_revet: z.boolean(),
  /** the record carries an override reason */
  override: z.boolean(),
  revet_due: z.enum(REVET_DUE).nullable(),
});
export type CurrentDecision = z.infer<typeof currentDecisionSchema>;

/** The answer to `?dot_numbers=`: the current decisions of the carriers asked that have one. */
export const currentDecisionsSchema = z.object({ items: z.array(currentDecisionSchema) });

/** The answer to `?all=1`: one page of every current decision, newest first. */
export const currentDecisionPageSchema = currentDecisionsSchema.extend({
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
