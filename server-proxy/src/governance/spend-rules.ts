/**
 * The spend ledger's decisions, with no database: what a call costs, which rows it writes (its
 * intent before it is sent, what it served after), whether it fits the budget, and the usage and
 * estimate reports built from the ledger's sums. The DOTs already billed this month come in as a
 * set, read by the store (spend-queries.ts) under the month's lock.
 */
import { readTokenActor } from '../../../src/lib/token-actor.ts';
import type { BillableCall, BudgetDecision, Endpoint, ServiceMode } from '../context.ts';
import {
  ENDPOINTS,
  PRICE_RULES,
  SPEND_CATEGORIES,
  categoryOf,
  dayOf,
  distinct,
  millsToUsd,
  monthOf,
  normaliseDot,
  unitMills,
  type SpendCategory,
} from './pricing.ts';

/** User name on the ledger rows of monitored DOTs carried into a new month. */
export const ROLLOVER_USER = '(monthly rollover)';

/** Ledger row states (migration 3); every state counts as spent. */
export type LedgerState = 'pending' | 'settled' | 'uncertain';

export type Call = BillableCall & { user: string };
export type ServedCall = Call & { cacheHit: boolean };

export interface LedgerRow {
  call_id: string;
  at: string;
  month: string;
  day: string;
  mode: ServiceMode;
  endpoint: Endpoint;
  dot: string | null;
  user: string;
  cache_hit: 0 | 1;
  price_mills: number;
  state: LedgerState;
}

/** One endpoint's sums for a month, as the ledger's GROUP BY endpoint answers them. */
export interface EndpointSums {
  endpoint: Endpoint;
  calls: number;
  cache_hits: number;
  billed_units: number;
  mills: number;
}

interface CategoryUsage {
  category: SpendCategory;
  calls: number;
  cacheHits: number;
  /** DOTs billed (per-DOT kinds), matched lookups (FMCSA) or queries (autocomplete) */
  billedUnits: number;
  usd: number;
}

interface EndpointUsage {
  endpoint: Endpoint;
  calls: number;
  cacheHits: number;
  billedUnits: number;
  usd: number;
}

interface UserUsage {
  /** the signed-in user (`local` without DASHBOARD_AUTH), or ROLLOVER_USER */
  user: string;
  calls: number;
  usd: number;
}

/** The spend of the calls made with one API token (its user `token:<id>:<name>`). */
interface TokenUsage {
  id: number;
  name: string;
  calls: number;
  usd: number;
}

interface DayUsage {
  day: string;
  calls: number;
  usd: number;
}

export interface Usage {
  month: string;
  mode: ServiceMode;
  /** everything that counts against the budget: settled, reserved and uncertain */
  spentUsd: number;
  /** of which reserved by calls in flight (pending rows) */
  reservedUsd: number;
  /** of which kept for calls that failed after they may have reached the service (or a crash) */
  uncertainUsd: number;
  budgetUsd: number | null;
  remainingUsd: number | null;
  byCategory: CategoryUsage[];
  /** every endpoint (zero when unused), in the price list's order */
  byEndpoint: EndpointUsage[];
  /** users with calls this month, most spent first */
  byUser: UserUsage[];
  /** of those, the API tokens' (docs/api.md), most spent first */
  byToken: TokenUsage[];
  byDay: DayUsage[];
}

export interface Estimate {
  endpoint: Endpoint;
  month: string;
  unitPriceUsd: number;
  /** distinct DOTs (per-DOT and per-match kinds) or queries (autocomplete) in the plan */
  units: number;
  /** of those, how many would be billed now (not yet billed this month) */
  billableUnits: number;
  costUsd: number;
  spentUsd: number;
  budgetUsd: number | null;
  withinBudget: boolean;
}

export interface EstimatePlan {
  dots?: string[];
  count?: number;
}

/** DOTs as the ledger keys them: without leading zeros, each once, in first-seen order. */
function uniqueDots(dots: readonly string[]): string[] {
  return distinct(dots.map(normaliseDot));
}

/** A ledger row of `mode`, dated by `at` (its UTC month and day). */
function ledgerRow(
  mode: ServiceMode,
  line: {
    at: Date;
    endpoint: Endpoint;
    dot: string | null;
    user: string;
    cacheHit: boolean;
    mills: number;
    callId: string;
    state: LedgerState;
  },
): LedgerRow {
  return {
    call_id: line.callId,
    at: line.at.toISOString(),
    month: monthOf(line.at),
    day: dayOf(line.at),
    mode,
    endpoint: line.endpoint,
    dot: line.dot,
    user: line.user,
    cache_hit: line.cacheHit ? 1 : 0,
    price_mills: line.mills,
    state: line.state,
  };
}

/**
 * The DOTs whose billing this month decides the call's price: those of a per-DOT-month call
 * that names them and is not served from the cache. Any other call's price needs no lookup.
 */
export function dotsToPrice(call: BillableCall & { cacheHit?: boolean }): string[] {
  if (call.cacheHit === true || PRICE_RULES[call.endpoint].kind !== 'per-dot-month') return [];
  return uniqueDots(call.dots);
}

/** Units a call whose DOTs are unknown before the answer may serve: its page (at least one). */
function worstCaseUnits(call: BillableCall): number {
  return Math.max(1, Math.floor(call.maxUnits ?? 1));
}

/**
 * Mills a call would cost now, given the DOTs of `dotsToPrice(call)` already billed this month.
 * DOTs unknown before the response are quoted at the worst case: `maxUnits` (the page size) new
 * DOTs, or one when it is not given.
 */
export function quoteMills(call: BillableCall, billed: ReadonlySet<string>): number {
  const rule = PRICE_RULES[call.endpoint];
  switch (rule.kind) {
    case 'free':
      return 0;
    case 'per-call':
      return rule.mills;
    case 'per-match':
      return rule.mills * Math.max(1, uniqueDots(call.dots).length);
    case 'per-dot-month':
      if (call.dots.length === 0) return rule.mills * worstCaseUnits(call);
      return rule.mills * uniqueDots(call.dots).filter((dot) => !billed.has(dot)).length;
  }
}

/** The price of each DOT of a per-DOT-month call: the unit price, or free when already billed. */
function pricePerDot(
  call: BillableCall,
  dots: readonly string[],
  billed: ReadonlySet<string>,
): [string, number][] {
  const mills = unitMills(call.endpoint);
  return dots.map((dot) => [dot, billed.has(dot) ? 0 : mills]);
}

/** The pending rows of a call about to be sent: what it may bill, priced as the quote. */
export function intentRows(
  mode: ServiceMode,
  call: Call,
  callId: string,
  billed: ReadonlySet<string>,
): LedgerRow[] {
  const rule = PRICE_RULES[call.endpoint];
  const dots = uniqueDots(call.dots);
  const make = (dot: string | null, mills: number) =>
    ledgerRow(mode, { ...call, dot, mills, callId, cacheHit: false, state: 'pending' });
  if (rule.kind === 'free') return [];
  if (rule.kind === 'per-call') return [make(dots[0] ?? null, rule.mills)];
  if (dots.length === 0) return [make(null, quoteMills(call, billed))];
  if (rule.kind === 'per-match') return dots.map((dot) => make(dot, rule.mills));
  return pricePerDot(call, dots, billed).map(([dot, mills]) => make(dot, mills));
}

/** One row per DOT the call served (or one DOT-less row), priced with unique-DOT semantics. */
export function servedRows(
  mode: ServiceMode,
  call: ServedCall,
  callId: string,
  billed: ReadonlySet<string>,
): LedgerRow[] {
  const rule = PRICE_RULES[call.endpoint];
  const dots = uniqueDots(call.dots);
  const make = (dot: string | null, mills: number) =>
    ledgerRow(mode, { ...call, dot, mills, callId, state: 'settled' });
  if (call.cacheHit) return dots.length ? dots.map((dot) => make(dot, 0)) : [make(null, 0)];
  if (rule.kind === 'per-call') return [make(dots[0] ?? null, rule.mills)];
  if (dots.length === 0) return [make(null, 0)];
  if (rule.kind === 'free') return dots.map((dot) => make(dot, 0));
  if (rule.kind === 'per-match') return dots.map((dot) => make(dot, rule.mills));
  return pricePerDot(call, dots, billed).map(([dot, mills]) => make(dot, mills));
}

/**
 * The rows that bill, once in a new month, the monitored DOTs carried over from earlier months
 * (as the service does): one settled row per DOT not billed yet, dated the month's first instant.
 */
export function rolloverRows(
  mode: ServiceMode,
  start: Date,
  carried: readonly string[],
  billed: ReadonlySet<string>,
  callId: string,
): LedgerRow[] {
  const mills = unitMills('monitoring/add');
  return carried
    .filter((dot) => !billed.has(dot))
    .map((dot) =>
      ledgerRow(mode, {
        at: start,
        endpoint: 'monitoring/add',
        dot,
        user: ROLLOVER_USER,
        cacheHit: false,
        mills,
        callId,
        state: 'settled',
      }),
    );
}

/** Whether a call costing `cost` fits the budget when `spent` is already counted (all in mills). */
export function fitsBudget(budgetMills: number | undefined, spent: number, cost: number): boolean {
  return budgetMills === undefined || cost === 0 || spent + cost <= budgetMills;
}

/** Whether the budget verdict needs the month's spend at all (a budget, and a call that costs). */
export function needsSpend(budgetMills: number | undefined, cost: number): boolean {
  return budgetMills !== undefined && cost !== 0;
}

/** The budget verdict of a call costing `cost` mills with `spent` mills counted this month. */
export function budgetVerdict(
  budgetMills: number | undefined,
  cost: number,
  spent: number,
): BudgetDecision {
  const costUsd = millsToUsd(cost);
  if (budgetMills === undefined || fitsBudget(budgetMills, spent, cost))
    return { ok: true, costUsd };
  return { ok: false, costUsd, spentUsd: millsToUsd(spent), budgetUsd: millsToUsd(budgetMills) };
}

/** The DOTs of a plan whose billing this month decides its billable units. */
export function planDotsToPrice(endpoint: Endpoint, plan: EstimatePlan): string[] {
  return PRICE_RULES[endpoint].kind === 'per-dot-month' ? uniqueDots(plan.dots ?? []) : [];
}

/** Units of a plan and how many would bill now, given its DOTs already billed this month. */
export function planUnits(
  endpoint: Endpoint,
  plan: EstimatePlan,
  billed: ReadonlySet<string>,
): { units: number; billable: number } {
  const rule = PRICE_RULES[endpoint];
  const dots = uniqueDots(plan.dots ?? []);
  if (rule.kind === 'per-dot-month') {
    return { units: dots.length, billable: dots.filter((dot) => !billed.has(dot)).length };
  }
  const units = rule.kind === 'per-match' ? dots.length || (plan.count ?? 0) : (plan.count ?? 0);
  return { units, billable: rule.kind === 'free' ? 0 : units };
}

/** The estimate of a plan of `units` (of which `billable` bill now) against the month's spend. */
export function estimateReport(
  endpoint: Endpoint,
  now: Date,
  planned: { units: number; billable: number },
  spent: number,
  budgetMills: number | undefined,
): Estimate {
  const mills = unitMills(endpoint);
  const cost = mills * planned.billable;
  return {
    endpoint,
    month: monthOf(now),
    unitPriceUsd: millsToUsd(mills),
    units: planned.units,
    billableUnits: planned.billable,
    costUsd: millsToUsd(cost),
    spentUsd: millsToUsd(spent),
    budgetUsd: budgetMills === undefined ? null : millsToUsd(budgetMills),
    withinBudget: fitsBudget(budgetMills, spent, cost),
  };
}

/** Every endpoint (zero when unused), in the price list's order. */
function byEndpoint(rows: readonly EndpointSums[]): EndpointUsage[] {
  return ENDPOINTS.map((endpoint) => {
    const line = rows.find((entry) => entry.endpoint === endpoint);
    return {
      endpoint,
      calls: line?.calls ?? 0,
      cacheHits: line?.cache_hits ?? 0,
      billedUnits: line?.billed_units ?? 0,
      usd: millsToUsd(line?.mills ?? 0),
    };
  });
}

/** Every category (zero when unused), the monitoring endpoints folded into one. */
function byCategory(rows: readonly EndpointSums[]): CategoryUsage[] {
  return SPEND_CATEGORIES.map((category) => {
    const mine = rows.filter((line) => categoryOf(line.endpoint) === category);
    const sum = (pick: (line: EndpointSums) => number) =>
      mine.reduce((total, line) => total + pick(line), 0);
    return {
      category,
      calls: sum((line) => line.calls),
      cacheHits: sum((line) => line.cache_hits),
      billedUnits: sum((line) => line.billed_units),
      usd: millsToUsd(sum((line) => line.mills)),
    };
  });
}

/** What the ledger holds for a month, as its queries sum it (mills). */
export interface MonthSums {
  spent: number;
  pending: number;
  uncertain: number;
  endpoints: readonly EndpointSums[];
  users: readonly { user: string; calls: number; mills: number }[];
  days: readonly { day: string; calls: number; mills: number }[];
}

/** The month's usage report from its sums. */
export function usageReport(
  month: string,
  mode: ServiceMode,
  sums: MonthSums,
  budgetMills: number | undefined,
): Usage {
  return {
    month,
    mode,
    spentUsd: millsToUsd(sums.spent),
    reservedUsd: millsToUsd(sums.pending),
    uncertainUsd: millsToUsd(sums.uncertain),
    budgetUsd: budgetMills === undefined ? null : millsToUsd(budgetMills),
    remainingUsd:
      budgetMills === undefined ? null : millsToUsd(Math.max(0, budgetMills - sums.spent)),
    byCategory: byCategory(sums.endpoints),
    byEndpoint: byEndpoint(sums.endpoints),
    byUser: sums.users.map(({ user, calls, mills }) => ({ user, calls, usd: millsToUsd(mills) })),
    byToken: sums.users.flatMap(({ user, calls, mills }) => {
      const token = readTokenActor(user);
      return token === undefined ? [] : [{ ...token, calls, usd: millsToUsd(mills) }];
    }),
    byDay: sums.days.map(({ day, calls, mills }) => ({ day, calls, usd: millsToUsd(mills) })),
  };
}
