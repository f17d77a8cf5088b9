/**
 * Prices of the service's endpoints for the spend meter, read from the contract's endpoint table
 * (src/lib/service/endpoints.ts), plus the month and USD helpers the meter computes with.
 */
import {
  ENDPOINT_NAMES,
  ENDPOINTS as ENDPOINT_FACTS,
  type Endpoint,
  type PriceRule,
  type SpendCategory,
} from '../../../src/lib/service/endpoints.ts';

export { unitMills } from '../../../src/lib/service/endpoints.ts';
export type { PriceRule, SpendCategory };

/** Price rule of every endpoint (amounts in mills, thousandths of a USD, so sums stay exact). */
export const PRICE_RULES: Readonly<Record<Endpoint, PriceRule>> = Object.fromEntries(
  ENDPOINT_NAMES.map((endpoint) => [endpoint, ENDPOINT_FACTS[endpoint].price]),
) as Record<Endpoint, PriceRule>;

/** Every endpoint, in the table's order (the order of the usage report). */
export const ENDPOINTS: readonly Endpoint[] = ENDPOINT_NAMES;

/** Spend categories in the table's order; the three monitoring endpoints share one. */
export const SPEND_CATEGORIES: readonly SpendCategory[] = [
  ...new Set(ENDPOINT_NAMES.map((endpoint) => ENDPOINT_FACTS[endpoint].category)),
];

export function categoryOf(endpoint: Endpoint): SpendCategory {
  return ENDPOINT_FACTS[endpoint].category;
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

/** Distinct values, in first-seen order. */
export function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** DOT numbers compare without leading zeros ("0568253" and "568253" are one carrier). */
export function normaliseDot(dot: string): string {
  return dot.trim().replace(/^0+(?=\d)/, '');
}
