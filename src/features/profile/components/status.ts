/**
 * The profile's status badges as data: each badge's label, value text and tone, derived once from
 * the parsed profile so the header and its tests agree. The badges that the vetting policy judges
 * (authority, insurance, safety rating, new entrant, carrier safety) take their tone from the same
 * rule results as the verdict (`src/lib/vetting`), so a badge is never green while the verdict
 * holds the same fact against the carrier: a pending cancellation is a warning, a broker without
 * carrier authority is not a pass for hauling. USDOT status, out of service, the vendor's risk score
 * and ISS are shown as the profile states them.
 */
import type { BadgeTone } from '../../../components/Badge.tsx';
import { formatCount, formatDate, formatPercent, formatRiskScore } from '../../../lib/format.ts';
import type { Profile } from '../../../lib/service/index.ts';
import {
  defaultSettings,
  evaluate,
  isBrokerOnly,
  type Outcome,
  type Policy,
  type RuleId,
  type RuleResult,
} from '../../../lib/vetting/index.ts';

export interface StatusBadge {
  id: string;
  label: string;
  value: string;
  tone: BadgeTone;
  /** the policy rules whose results decide the badge's tone (none: shown as the profile states it) */
  rules: readonly RuleId[];
}

/** The default policy (version 1): what the badges judge by when no team policy is given. */
const DEFAULT_POLICY: Policy = { version: 1, settings: defaultSettings() };

const RANK: Record<Outcome, number> = { pass: 0, review: 1, fail: 2 };
const OUTCOME_TONE: Record<Outcome, BadgeTone> = { pass: 'good', review: 'warn', fail: 'bad' };

type Results = ReadonlyMap<RuleId, RuleResult>;

/** The worst of the given rules' results (undefined when none of them is enabled). */
function worst(results: Results, rules: readonly RuleId[]): RuleResult | undefined {
  return rules
    .map((rule) => results.get(rule))
    .filter((result): result is RuleResult => result !== undefined)
    .reduce<RuleResult | undefined>(
      (acc, result) => (!acc || RANK[result.outcome] > RANK[acc.outcome] ? result : acc),
      undefined,
    );
}

/**
 * A badge judged by rules: the worst result decides. A pass that rests on no data or does not apply
 * is neutral, never green; a rule that lacked data and yields review is a warning.
 */
function ruledBadge(
  id: string,
  label: string,
  results: Results,
  rules: readonly RuleId[],
  values: { pass?: string; review?: string; fail?: string } = {},
): StatusBadge {
  const result = worst(results, rules);
  if (!result) return { id, label, value: 'Not checked', tone: 'neutral', rules };
  if (result.outcome === 'pass' && result.not_applicable)
    return { id, label, value: 'Not applicable', tone: 'neutral', rules };
  if (result.not_enough_data) {
    return {
      id,
      label,
      value: 'Not enough data',
      tone: result.outcome === 'pass' ? 'neutral' : OUTCOME_TONE[result.outcome],
      rules,
    };
  }
  const words = { pass: 'Pass', review: 'Review', fail: 'Fail', ...values };
  return { id, label, value: words[result.outcome], tone: OUTCOME_TONE[result.outcome], rules };
}

function usdotBadge(status: string | undefined): StatusBadge {
  const active = status?.trim().toLowerCase() === 'active';
  return {
    id: 'usdot',
    label: 'USDOT status',
    value: status ?? 'Unknown',
    tone: status === undefined ? 'neutral' : active ? 'good' : 'bad',
    rules: [],
  };
}

function outOfServiceBadge(profile: Profile): StatusBadge {
  const flag = profile.out_of_service_flag;
  if (flag === true) {
    const since = profile.out_of_service_date
      ? ` since ${formatDate(profile.out_of_service_date)}`
      : '';
    return { id: 'oos', label: 'Out of service', value: `Yes${since}`, tone: 'bad', rules: [] };
  }
  return {
    id: 'oos',
    label: 'Out of service',
    value: flag === false ? 'No' : 'Unknown',
    tone: flag === false ? 'good' : 'neutral',
    rules: [],
  };
}

/** Operating authority for hauling: a broker's own authority passes the policy but hauls nothing. */
function authorityBadge(profile: Profile, results: Results): StatusBadge {
  const badge = ruledBadge('authority', 'Authority', results, ['operating_authority']);
  if (isBrokerOnly(profile) && badge.tone === 'good')
    return { ...badge, value: 'Broker only, no carrier authority', tone: 'info' };
  return badge;
}

/** The earliest cancellation date (after the reference day) among a pending-cancellation result's fields. */
function cancellationDate(result: RuleResult | undefined, reference: string): string | undefined {
  return result?.fields
    .filter((field) => /cancel/.test(field.name) && typeof field.value === 'string')
    .map((field) => String(field.value))
    .filter((date) => date > reference)
    .sort()[0];
}

/** BIPD on file against the requirement, and any cancellation already filed (the worst decides). */
function insuranceBadge(results: Results, reference: string): StatusBadge {
  const badge = ruledBadge('insurance', 'Insurance', results, [
    'bipd_insurance',
    'pending_cancellation',
  ]);
  const pending = results.get('pending_cancellation');
  const bipd = results.get('bipd_insurance');
  if (!pending || pending.outcome === 'pass') return badge;
  if (bipd && RANK[bipd.outcome] > RANK[pending.outcome]) return badge;
  const date = cancellationDate(pending, reference);
  return { ...badge, value: `Cancellation pending${date ? ` (${formatDate(date)})` : ''}` };
}

function safetyRatingBadge(profile: Profile, results: Results): StatusBadge {
  const badge = ruledBadge('rating', 'Safety rating', results, [
    'rating_unsatisfactory',
    'rating_conditional',
  ]);
  const rating = profile.safety_rating_desc;
  return { ...badge, value: rating ?? 'Not rated' };
}

const RISK_TONE: Record<string, BadgeTone> = {
  low: 'good',
  medium: 'warn',
  high: 'bad',
  'very high': 'bad',
};

/** "High (44.3%)"; absent score reads "Not scored" (intrastate, private, non-carrier). */
export function riskBadge(profile: Profile): StatusBadge {
  const score = profile.risk_score;
  const probability =
    score && profile.risk_score_probability !== undefined
      ? ` (${formatPercent(profile.risk_score_probability)})`
      : '';
  const tone = score ? (RISK_TONE[score.trim().toLowerCase()] ?? 'neutral') : 'neutral';
  return {
    id: 'risk',
    label: 'Risk',
    value: `${formatRiskScore(score)}${probability}`,
    tone,
    rules: [],
  };
}

const ISS_TONE: Record<string, BadgeTone> = { inspect: 'bad', optional: 'warn', pass: 'good' };

function issBadge(profile: Profile): StatusBadge | undefined {
  if (profile.iss_value === undefined && profile.iss_recommendation === undefined) return undefined;
  const recommendation = profile.iss_recommendation;
  const tone = recommendation
    ? (ISS_TONE[recommendation.trim().toLowerCase()] ?? 'neutral')
    : 'neutral';
  const value = [formatCount(profile.iss_value), recommendation].filter(Boolean).join(' · ');
  return { id: 'iss', label: 'ISS', value, tone, rules: [] };
}

/** A new entrant badge while the policy's new-entrant rule fires (FMCSA: the first 540 days). */
function newEntrantBadge(profile: Profile, results: Results): StatusBadge | undefined {
  const result = results.get('new_entrant');
  if (!result || result.outcome === 'pass') return undefined;
  const age = profile.dot_age;
  return {
    id: 'new-entrant',
    label: 'New entrant',
    value: age !== undefined ? `${formatCount(age)} days` : 'Yes',
    tone: OUTCOME_TONE[result.outcome],
    rules: ['new_entrant'],
  };
}

/**
 * The header's badges. `policy` is the team's (the verdict banner's); without one the default
 * policy judges, which is what the banner shows until the team changes a rule.
 */
export function statusBadges(profile: Profile, policy: Policy = DEFAULT_POLICY): StatusBadge[] {
  const verdict = evaluate(profile, policy);
  const results: Results = new Map(verdict.reasons.map((reason) => [reason.rule, reason]));
  const badges: (StatusBadge | undefined)[] = [
    usdotBadge(profile.usdot_status),
    outOfServiceBadge(profile),
    authorityBadge(profile, results),
    insuranceBadge(results, verdict.reference_date),
    safetyRatingBadge(profile, results),
    riskBadge(profile),
    issBadge(profile),
    newEntrantBadge(profile, results),
    ruledBadge('carrier-safety', 'Carrier safety', results, ['basic_alerts', 'oos_rates'], {
      review: 'Review',
    }),
  ];
  return badges.filter((badge): badge is StatusBadge => badge !== undefined);
}

/** "MC277621", plus any other docket of `icc_dockets` ("FF012844"). */
export function docketsOf(profile: Profile): string[] {
  const main =
    profile.docket ??
    (profile.docket_number ? `${profile.docket_prefix ?? ''}${profile.docket_number}` : undefined);
  const others = (profile.icc_dockets ?? '')
    .split(/[,;\s]+/)
    .map((docket) => docket.trim())
    .filter(Boolean);
  return [...new Set([...(main ? [main] : []), ...others])];
}
