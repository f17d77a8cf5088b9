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

/** A rule's outcome as a verdict lists it (the record's reasons, the held verdict's). */
interface RuleOutcome {
  rule: string;
  outcome: Outcome;
}

/** The rules at or worse than `level` among `reasons`. */
function rulesAt(reasons: readonly RuleOutcome[], level: Outcome): Set<string> {
  const worse = level === 'fail' ? ['fail'] : ['review', 'fail'];
  return new Set(reasons.filter((r) => worse.includes(r.outcome)).map((r) => r.rule));
}

/**
 * Does `now` find something at `level` that the decision did not accept? With both sides' reasons,
 * a rule now at `level` that the record did not already hold at `level` or worse; without them, any
 * verdict at `level` the recorded verdict did not reach.
 */
function newAt(
  level: 'review' | 'fail',
  recorded: { verdict: Outcome; reasons?: readonly RuleOutcome[] | undefined },
  now: { verdict: Outcome; reasons?: readonly RuleOutcome[] | undefined },
): boolean {
  if (recorded.reasons && now.reasons) {
    const accepted = rulesAt(recorded.reasons, level);
    return [...rulesAt(now.reasons, level)].some((rule) => !accepted.has(rule));
  }
  const rank = (o: Outcome) => (o === 'pass' ? 0 : o === 'review' ? 1 : 2);
  return rank(recorded.verdict) < rank(level);
}

/**
 * `decision.verdict` (and `reasons`) is the verdict the record kept; `now` the verdict of the
 * freshest held data (null: nothing held). An approval stands until the carrier fails on a rule the
 * approval did not accept, or turns Review on a rule it did not accept: an override of a Review or a
 * Fail holds while the same rules are all that fire, and turns `now_fails`/`now_review` as soon as
 * another one does (without reasons on both sides: any Fail, or a Review after a Pass). A rejection
 * stands until the carrier passes when it did not pass before.
 */
export function standingOf(
  decision: { decision: string; verdict: Outcome; reasons?: readonly RuleOutcome[] | undefined },
  now: { verdict: Outcome; reasons?: readonly RuleOutcome[] | undefined } | null,
): Standing {
  if (!now) return 'unknown';
  if (APPROVALS.has(decision.decision)) {
    if (now.verdict === 'fail') {
      // without reasons, a Fail is always news (an approval of a Fail included)
      const news = decision.reasons && now.reasons ? newAt('fail', decision, now) : true;
      if (news) return 'now_fails';
    }
    if (now.verdict !== 'pass' && newAt('review', decision, now)) return 'now_review';
    return 'holds';
  }
  if (now.verdict === 'pass' && decision.verdict !== 'pass') return 'now_passes';
  return 'holds';
}
