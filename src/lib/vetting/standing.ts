/**
 * The standing of a decision against the verdict of the carrier's freshest held data
 * (docs/vetting.md, "Standing"): does the decision still agree with what the policy says now?
 * Pure and runtime-neutral: the proxy's `GET /api/local/decisions/current` and policy preview, and
 * the SPA, compute the same standing.
 */
import type { Outcome } from './types.ts';

export const STANDINGS = ['holds', 'now_fails', 'now_review', 'now_passes', 'unknown'] as const;
export type Standing = (typeof STANDINGS)[number];

/** The decision kinds that let a carrier be used. */
const APPROVALS: ReadonlySet<string> = new Set(['approved', 'approved_with_conditions']);

/**
 * `decision.verdict` is the verdict the record kept; `now` the verdict of the freshest held data
 * (null: nothing held). An approval stands until the carrier fails, or turns Review after being
 * approved on a Pass (an override of a Review that is still Review holds); a rejection stands until
 * the carrier passes when it did not pass before.
 */
export function standingOf(
  decision: { decision: string; verdict: Outcome },
  now: { verdict: Outcome } | null,
): Standing {
  if (!now) return 'unknown';
  if (APPROVALS.has(decision.decision)) {
    if (now.verdict === 'fail') return 'now_fails';
    if (now.verdict === 'review' && decision.verdict === 'pass') return 'now_review';
    return 'holds';
  }
  if (now.verdict === 'pass' && decision.verdict !== 'pass') return 'now_passes';
  return 'holds';
}
