/**
 * What a bulk run would cost and take, before anything is sent. The billing figures come from the
 * spend ledger's own estimate (the read side of `/api/local/estimate`: unique DOT per month, per
 * mode), minus the carriers the proxy holds (the mirror's peek: this replica's cache, else the
 * shared one in team mode; a cache hit is free). A docket's DOT is unknown
 * before the call, so an uncached docket counts as one billable call at most. The ledger may be
 * in PostgreSQL (shared by every replica), so the estimate is asynchronous.
 */
import type { BulkEstimate } from '../../../src/lib/bulk/contract.ts';
import type { Identifier, RejectedIdentifier } from '../../../src/lib/service/rules/entries.ts';
import type { ProxyConfig, SpendMeter } from '../context.ts';
import { millsToUsd, unitMills } from '../governance/pricing.ts';
import type { SpendLedger } from '../governance/spend.ts';
import type { MirrorPeek } from '../routes/mirror.ts';

/** Seconds one uncached carrier takes without a rate limit (the bench target is ≥ 50 a second). */
const SECONDS_PER_CALL = 0.02;

/**
 * The profile search one identifier runs. A docket asks for one carrier (`pageSize=1`): the
 * reservation of a search whose DOTs are unknown is priced at its page, and a docket names one
 * carrier, so a whole page would be reserved against the budget for nothing.
 */
export function lookupQuery(identifier: {
  kind: 'dot' | 'docket';
  lookup: string;
}): Record<string, string> {
  return identifier.kind === 'dot'
    ? { dot_number: identifier.lookup }
    : { docket_number: identifier.lookup, pageSize: '1' };
}

function lookupOf(identifier: Identifier): { kind: 'dot' | 'docket'; lookup: string } {
  return identifier.kind === 'dot'
    ? { kind: 'dot', lookup: identifier.dot }
    : { kind: 'docket', lookup: identifier.docket };
}

export interface EstimateDeps {
  config: Pick<ProxyConfig, 'mode' | 'rateLimits' | 'monthlyBudgetUsd'>;
  /** asked whether each carrier's search is already held (never a call) */
  mirror: MirrorPeek;
  /** the governance spend meter; its ledger's `estimate` when it has one (the default governance) */
  spend: SpendMeter & Partial<Pick<SpendLedger, 'estimate'>>;
  /**
   * the DOTs among `dots` whose stored result the runner would use again (no call at all): counted
   * out of the duration, as a held answer is (the cache keeps only a share of a job's answers)
   */
  reusable?: (dots: readonly string[]) => Promise<ReadonlySet<string>>;
}

/** Peeks asked at once (each a Redis read in team mode when this replica does not hold it). */
const PEEKS_AT_ONCE = 200;

/** The identifiers whose search the proxy does not hold yet, in their order. */
async function uncachedOf(mirror: MirrorPeek, valid: readonly Identifier[]): Promise<Identifier[]> {
  const uncached: Identifier[] = [];
  for (let i = 0; i < valid.length; i += PEEKS_AT_ONCE) {
    const slice = valid.slice(i, i + PEEKS_AT_ONCE);
    const held = await Promise.all(
      slice.map((identifier) => mirror.peek('profile', lookupQuery(lookupOf(identifier)))),
    );
    slice.forEach((identifier, j) => {
      if (held[j]?.status !== 200) uncached.push(identifier);
    });
  }
  return uncached;
}

/** Figures from the ledger: how many DOTs are new this month, what is spent, the budget. */
async function ledgerFigures(deps: EstimateDeps, dots: string[], now: Date) {
  if (deps.spend.estimate) {
    const e = await deps.spend.estimate('profile', { dots }, now);
    return { billable: e.billableUnits, spentUsd: e.spentUsd, budgetUsd: e.budgetUsd };
  }
  // A governance without the ledger's read side: its quote, and no spend figure.
  const quote = await deps.spend.check({ endpoint: 'profile', dots, at: now });
  return {
    billable: Math.round(quote.costUsd / millsToUsd(unitMills('profile'))),
    spentUsd: quote.ok ? 0 : quote.spentUsd,
    budgetUsd: deps.config.monthlyBudgetUsd ?? null,
  };
}

export async function estimateRun(
  deps: EstimateDeps,
  valid: readonly Identifier[],
  rejected: RejectedIdentifier[],
  now: Date,
): Promise<BulkEstimate> {
  const uncached = await uncachedOf(deps.mirror, valid);
  const dots = uncached.flatMap((identifier) =>
    identifier.kind === 'dot' ? [identifier.dot] : [],
  );
  const dockets = uncached.length - dots.length;
  const ledger = await ledgerFigures(deps, dots, now);
  const billable = ledger.billable + dockets;
  const unitMillsProfile = unitMills('profile');
  const meteredMills = unitMillsProfile * billable;
  const billed = deps.config.mode === 'live';
  const spentMills = Math.round(ledger.spentUsd * 1000);
  const budgetMills = ledger.budgetUsd === null ? null : Math.round(ledger.budgetUsd * 1000);
  const rate = deps.config.rateLimits?.profile ?? null;
  const reused = (await deps.reusable?.(dots))?.size ?? 0;
  const calls = uncached.length - reused;
  return {
    carriers: valid.length,
    rejected,
    already_fetched: valid.length - billable,
    billable,
    unit_price_usd: millsToUsd(unitMillsProfile),
    cost_usd: billed ? millsToUsd(meteredMills) : 0,
    metered_cost_usd: millsToUsd(meteredMills),
    billed,
    rate_per_minute: rate,
    duration_seconds: Math.ceil(rate ? (calls * 60) / rate : calls * SECONDS_PER_CALL),
    budget_usd: ledger.budgetUsd,
    spent_usd: ledger.spentUsd,
    left_usd: budgetMills === null ? null : millsToUsd(Math.max(0, budgetMills - spentMills)),
    within_budget:
      budgetMills === null || meteredMills === 0 || spentMills + meteredMills <= budgetMills,
  };
}
