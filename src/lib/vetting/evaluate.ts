/**
 * The verdict of a policy over one parsed profile: every enabled rule's result and the worst
 * outcome among them. Pure and runtime-neutral: the SPA's banner and the proxy's
 * `GET /api/local/verdict` compute the same verdict from the same profile.
 */
import type { Profile } from '../service/index.ts';
import { RULES, type Finding, type RuleDef } from './rules.ts';
import {
  OUTCOMES,
  type Outcome,
  type Policy,
  type RuleResult,
  type RuleSettings,
  type VerdictResult,
} from './types.ts';

const RANK: Record<Outcome, number> = { pass: 0, review: 1, fail: 2 };

export function worstOutcome(outcomes: readonly Outcome[]): Outcome {
  return outcomes.reduce<Outcome>((worst, o) => (RANK[o] > RANK[worst] ? o : worst), 'pass');
}

function toResult(def: RuleDef, settings: RuleSettings, finding: Finding): RuleResult {
  const outcome: Outcome =
    finding.kind === 'hit'
      ? settings.outcome
      : finding.kind === 'no-data'
        ? settings.no_data
        : 'pass';
  return {
    rule: def.id,
    label: def.label,
    outcome,
    message: finding.message,
    fields: finding.fields,
    tab: def.tab,
    ...(finding.anchor ? { anchor: finding.anchor } : {}),
    ...(finding.kind === 'no-data' ? { not_enough_data: true as const } : {}),
    ...(finding.kind === 'not-applicable' ? { not_applicable: true as const } : {}),
    ...((finding.kind === 'hit' || finding.kind === 'pass') && finding.vendor
      ? { vendor_derived: true as const }
      : {}),
  };
}

/** Today (UTC) as YYYY-MM-DD. */
function isoDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Evaluate `policy` on `profile`; dates count from the profile's snapshot date, else `now`. */
export function evaluate(profile: Profile, policy: Policy, now: Date = new Date()): VerdictResult {
  const reference = profile.snapshot_date ?? isoDay(now);
  // a rule the settings do not name is off (settings built before the rule existed)
  const results = RULES.flatMap((def) => {
    const settings = (policy.settings as Partial<Policy['settings']>)[def.id];
    if (!settings?.enabled) return [];
    return [toResult(def, settings, def.check({ profile, reference }, settings))];
  });
  const reasons = OUTCOMES.slice()
    .reverse()
    .flatMap((outcome) => results.filter((result) => result.outcome === outcome));
  return {
    verdict: worstOutcome(results.map((r) => r.outcome)),
    policy_version: policy.version,
    snapshot_date: profile.snapshot_date ?? null,
    reference_date: reference,
    reasons,
  };
}
