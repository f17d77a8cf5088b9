/**
 * The profile's status badges as data: each badge's label, value text and tone, derived once from
 * the parsed profile so the header and its tests agree. Tri-state indicators: only an explicit
 * `false` fails; `null`/absent is "not applicable".
 */
import type { BadgeTone } from '../../../components/Badge.tsx';
import {
  TRI_STATE_LABELS,
  formatCount,
  formatDate,
  formatPercent,
  formatRiskScore,
  triState,
  type TriState,
} from '../../../lib/format.ts';
import type { Profile } from '../../../lib/service/index.ts';

/** FMCSA treats a carrier as a new entrant for its first 18 months. */
export const NEW_ENTRANT_DAYS = 540;

export interface StatusBadge {
  id: string;
  label: string;
  value: string;
  tone: BadgeTone;
}

const TRI_TONE: Record<TriState, BadgeTone> = {
  pass: 'good',
  fail: 'bad',
  'not-applicable': 'neutral',
};

function triBadge(id: string, label: string, value: boolean | null | undefined): StatusBadge {
  const state = triState(value);
  return { id, label, value: TRI_STATE_LABELS[state], tone: TRI_TONE[state] };
}

function usdotBadge(status: string | undefined): StatusBadge {
  const active = status?.trim().toLowerCase() === 'active';
  return {
    id: 'usdot',
    label: 'USDOT status',
    value: status ?? 'Unknown',
    tone: status === undefined ? 'neutral' : active ? 'good' : 'bad',
  };
}

function outOfServiceBadge(profile: Profile): StatusBadge {
  const flag = profile.out_of_service_flag;
  if (flag === true) {
    const since = profile.out_of_service_date
      ? ` since ${formatDate(profile.out_of_service_date)}`
      : '';
    return { id: 'oos', label: 'Out of service', value: `Yes${since}`, tone: 'bad' };
  }
  return {
    id: 'oos',
    label: 'Out of service',
    value: flag === false ? 'No' : 'Unknown',
    tone: flag === false ? 'good' : 'neutral',
  };
}

const RATING_TONE: Record<string, BadgeTone> = {
  satisfactory: 'good',
  conditional: 'warn',
  unsatisfactory: 'bad',
};

function safetyRatingBadge(rating: string | undefined): StatusBadge {
  const tone = rating ? (RATING_TONE[rating.trim().toLowerCase()] ?? 'neutral') : 'neutral';
  return { id: 'rating', label: 'Safety rating', value: rating ?? 'Not rated', tone };
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
  return { id: 'risk', label: 'Risk', value: `${formatRiskScore(score)}${probability}`, tone };
}

const ISS_TONE: Record<string, BadgeTone> = { inspect: 'bad', optional: 'warn', pass: 'good' };

function issBadge(profile: Profile): StatusBadge | undefined {
  if (profile.iss_value === undefined && profile.iss_recommendation === undefined) return undefined;
  const recommendation = profile.iss_recommendation;
  const tone = recommendation
    ? (ISS_TONE[recommendation.trim().toLowerCase()] ?? 'neutral')
    : 'neutral';
  const value = [formatCount(profile.iss_value), recommendation].filter(Boolean).join(' · ');
  return { id: 'iss', label: 'ISS', value, tone };
}

/** A new entrant badge when the DOT number is younger than 540 days. */
export function newEntrantBadge(dotAge: number | undefined): StatusBadge | undefined {
  if (dotAge === undefined || dotAge >= NEW_ENTRANT_DAYS) return undefined;
  return {
    id: 'new-entrant',
    label: 'New entrant',
    value: `${formatCount(dotAge)} days`,
    tone: 'info',
  };
}

export function statusBadges(profile: Profile): StatusBadge[] {
  const badges: (StatusBadge | undefined)[] = [
    usdotBadge(profile.usdot_status),
    outOfServiceBadge(profile),
    triBadge('authority', 'Authority', profile.indicator_authority),
    triBadge('insurance', 'Insurance', profile.indicator_insurance),
    safetyRatingBadge(profile.safety_rating_desc),
    riskBadge(profile),
    issBadge(profile),
    newEntrantBadge(profile.dot_age),
    triBadge('carrier-safety', 'Carrier safety', profile.indicator_carrier_safety),
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
