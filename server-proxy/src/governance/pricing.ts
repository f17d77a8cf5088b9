import type { Endpoint } from '../context.ts';

/** Spend categories shown in usage; the three monitoring endpoints share one. */
export type SpendCategory =
  'profile' | 'profile-lite' | 'profile-fmcsa' | 'autocomplete' | 'monitoring';

/** How an endpoint is priced. */
export type PriceRule =
  | { kind: 'per-dot-month'; mills: number }
  | { kind: 'per-match'; mills: number }
  | { kind: 'per-call'; mills: number }
  | { kind: 'free' };

/**
 * Published prices (service-facts) in mills, thousandths of a USD, so sums stay exact integers.
 * profile 3.00 and lite 0.50 per unique DOT per calendar month; FMCSA 0.10 per matched lookup;
 * autocomplete 3.00 per 1,000 queries; monitoring 0.50 per unique DOT per month, removal and list free.
 */
export const PRICE_RULES: Readonly<Record<Endpoint, PriceRule>> = {
  profile: { kind: 'per-dot-month', mills: 3000 },
  'profile-lite': { kind: 'per-dot-month', mills: 500 },
  'profile-fmcsa': { kind: 'per-match', mills: 100 },
  autocomplete: { kind: 'per-call', mills: 3 },
  'monitoring/add': { kind: 'per-dot-month', mills: 500 },
  'monitoring/remove': { kind: 'free' },
  'monitoring/list': { kind: 'free' },
};

export const ENDPOINTS = Object.keys(PRICE_RULES) as Endpoint[];

export function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === 'string' && (ENDPOINTS as string[]).includes(value);
}

export function categoryOf(endpoint: Endpoint): SpendCategory {
  return endpoint.startsWith('monitoring/') ? 'monitoring' : (endpoint as SpendCategory);
}

/** Unit price in mills of an endpoint (0 for free ones). */
export function unitMills(endpoint: Endpoint): number {
  const rule = PRICE_RULES[endpoint];
  return rule.kind === 'free' ? 0 : rule.mills;
}

export function millsToUsd(mills: number): number {
  return mills / 1000;
}

/** Whole mills of a USD amount (budgets are configured in USD). */
export function usdToMills(usd: number): number {
  return Math.round(usd * 1000);
}

/** Calendar month (UTC) of a time, e.g. "2026-11": the service bills per calendar month. */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** Calendar day (UTC) of a time, e.g. "2026-11-03". */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** First instant of the month (UTC) that `at` falls in. */
export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

const PROFILE_ID = /^(\d{1,10})-((MC|MX|FF)?\d{1,10})$/i;

/** DOT number of a `<dot>-<docket>` profile id, or undefined when the id is malformed. */
export function dotOfProfileId(profileId: string): string | undefined {
  const dot = PROFILE_ID.exec(profileId.trim())?.[1];
  return dot === undefined ? undefined : normaliseDot(dot);
}

/** Distinct values, in first-seen order. */
export function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** DOT numbers compare without leading zeros ("0568253" and "568253" are one carrier). */
export function normaliseDot(dot: string): string {
  return dot.trim().replace(/^0+(?=\d)/, '');
}
