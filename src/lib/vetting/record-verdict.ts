/**
 * The verdict of a policy on what a decision record kept, when no profile of the carrier is held:
 * the record's evidence with the monitoring changes seen since laid over (reevaluate.ts), evaluated
 * rule by rule (docs/vetting.md, "Standing"). A rule the changes do not touch, and whose threshold
 * is the one the record was evaluated with, keeps what it found (a hit, a pass, not enough data,
 * not applicable) and takes the outcome the policy gives that finding; the others are evaluated
 * again on the evidence, and keep their recorded finding when the evidence lacks what they read.
 * A rule that was off when the record was made, and whose fields the record did not keep, is left
 * out (the record cannot say; counting it as "not enough data" would invent a Review).
 */
import { parseProfile } from '../service/index.ts';
import { evaluate, worstOutcome } from './evaluate.ts';
import { isRuleId, layOver, touches, type FieldChangeInput } from './reevaluate.ts';
import {
  OUTCOMES,
  type Outcome,
  type Policy,
  type PolicySettings,
  type RuleResult,
  type RuleSettings,
} from './types.ts';

/** A rule result as a record kept it (`rule` may name a rule this version no longer has). */
type RecordedResult = Omit<RuleResult, 'rule' | 'tab' | 'label'> & {
  rule: string;
  tab: string;
  label?: string | undefined;
  not_enough_data?: boolean | undefined;
  not_applicable?: boolean | undefined;
  vendor_derived?: boolean | undefined;
};

export interface RecordedVerdictFull {
  verdict: Outcome;
  snapshot_date: string | null;
  reasons: readonly RecordedResult[];
}

export interface RecordVerdict {
  verdict: Outcome;
  policy_version: number;
  /** every rule result the record supports under the policy, worst first */
  reasons: RuleResult[];
}

/** The outcome `settings` give to what a rule found when the record was made. */
function outcomeOfFinding(recorded: RecordedResult, settings: RuleSettings): Outcome {
  if (recorded.not_applicable) return 'pass';
  if (recorded.not_enough_data) return settings.no_data;
  return recorded.outcome === 'pass' ? 'pass' : settings.outcome;
}

export function recordVerdict(
  recorded: RecordedVerdictFull,
  changes: readonly FieldChangeInput[],
  policy: Policy,
  options: { now?: Date; recordedSettings?: PolicySettings | undefined } = {},
): RecordVerdict {
  const { raw, changed } = layOver(recorded, changes);
  const fresh = evaluate(parseProfile(raw).value, policy, options.now);
  const byRule = new Map(recorded.reasons.map((reason) => [reason.rule, reason]));
  const results: RuleResult[] = [];
  for (const result of fresh.reasons) {
    const kept = byRule.get(result.rule);
    if (!kept) {
      // off when the record was made: only what the kept evidence shows
      if (!result.not_enough_data) results.push(result);
      continue;
    }
    const settings = policy.settings[result.rule];
    const before = options.recordedSettings?.[result.rule];
    const thresholdMoved = before !== undefined && before.threshold !== settings.threshold;
    const fields = kept.fields.map((field) => field.name);
    const again =
      (thresholdMoved || (isRuleId(kept.rule) && touches(kept.rule, fields, changed))) &&
      !result.not_enough_data;
    if (again) {
      results.push(result);
      continue;
    }
    results.push({
      rule: result.rule,
      label: result.label,
      tab: result.tab,
      outcome: outcomeOfFinding(kept, settings),
      message: kept.message,
      fields: kept.fields,
      ...(kept.anchor ? { anchor: kept.anchor } : {}),
      ...(kept.not_enough_data ? { not_enough_data: true as const } : {}),
      ...(kept.not_applicable ? { not_applicable: true as const } : {}),
      ...(kept.vendor_derived ? { vendor_derived: true as const } : {}),
    });
  }
  const reasons = OUTCOMES.slice()
    .reverse()
    .flatMap((outcome) => results.filter((result) => result.outcome === outcome));
  return {
    verdict: worstOutcome(results.map((result) => result.outcome)),
    policy_version: policy.version,
    reasons,
  };
}
