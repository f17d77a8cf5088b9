/**
 * The data of a tender check, through the proxy's one path to the service (the mirror: validation,
 * cache, budget, rate limit, spend meter, audit). Nothing billed runs unless its cost fits
 * `max_cost_usd`: each check is priced first (held in the cache: free; a repeat of what this month
 * already billed: free; else its published price, a search at its whole page), the checks that fit
 * run in order (the claimed carrier's profile, the phone search, the e-mail search), the rest are
 * listed as pending with their cost. A held answer is read with `only-if-cached`, so a cache entry
 * that expired in between is never fetched (and billed) unasked. docs/tender-check.md.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { SpendMeter } from '../context.ts';
import type { SpendLedger } from '../governance/spend.ts';
import { millsToUsd, monthOf, unitMills } from '../governance/pricing.ts';
import { ApiError } from '../http/api-error.ts';
import type { MirrorAnswer, MirrorClient, MirrorPeek } from '../routes/mirror.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { placeholders } from '../sql/placeholders.ts';
import { parseLiteResponse } from '../../../src/lib/service/index.ts';
import type {
  TenderCheckRequest,
  TenderPending,
  TenderSearch,
  TenderSearchCheck,
  TenderSearchStatus,
} from '../../../src/lib/tender/contract.ts';
import { domainOf, isFreeMail } from '../../../src/lib/tender/domains.ts';
import type { SearchAnswer } from '../../../src/lib/tender/rules.ts';

type SearchEndpoint = 'profile' | 'profile-lite';

/** Carriers a search by phone or e-mail reads at most (and so may bill at most). */
const SEARCH_PAGE_SIZE = 5;

/** A search this month's stored checks ran, with every DOT its answer held. */
export interface PastSearch {
  endpoint: SearchEndpoint;
  key: string;
  value: string;
  dots: string[];
  total_count: number | null;
}

export interface GatherDeps {
  mode: string;
  mirror: MirrorClient & MirrorPeek;
  spend: SpendMeter & Partial<Pick<SpendLedger, 'estimate'>>;
  /** where the spend ledger is (to read what a call billed) */
  sql: SqlEngine;
  /** searches stored checks ran this month (the free-repeat rule) */
  pastSearches(month: string): Promise<PastSearch[]>;
}

export interface Caller {
  user: string;
  requestId: string;
  headers: IncomingHttpHeaders;
}

/** One planned call: where, what, and how it is had. */
interface Plan {
  check: TenderSearchCheck;
  endpoint: SearchEndpoint;
  query: Record<string, string>;
  status: Exclude<TenderSearchStatus, 'failed' | 'skipped'>;
  /** the most it may add to the month's spend (mills) */
  mills: number;
  maxUnits: number;
}

export interface Gathered {
  /** the claimed carrier's answer (null: pending, not found or failed) */
  profile: { answer: MirrorAnswer; fetchedAt: string } | null;
  /** why the profile is missing when it is (`not_found`, `pending`, `failed`) */
  profileMissing: 'not_found' | 'pending' | 'failed' | null;
  phone: SearchAnswer | null;
  email: SearchAnswer | null;
  searches: TenderSearch[];
  pending: TenderPending[];
  costMills: number;
  /** every DOT each search answered (kept for the free-repeat rule) */
  pastSearches: PastSearch[];
}

/** What to search by e-mail: the domain when it is a company's, else the address itself. */
export function emailSearchValue(email: string): string {
  const domain = domainOf(email);
  return domain && !isFreeMail(domain) ? domain : email;
}

function isOk(stored: { status: number } | undefined): boolean {
  return stored !== undefined && stored.status >= 200 && stored.status < 300;
}

async function heldQuery(
  deps: GatherDeps,
  endpoint: SearchEndpoint,
  queries: Record<string, string>[],
): Promise<Record<string, string> | undefined> {
  for (const query of queries) {
    const stored = await deps.mirror.peek(endpoint, query);
    if (isOk(stored) && stored?.staleAfterChange === undefined) return query;
  }
  return undefined;
}

/** New billable units of a per-DOT plan at `now` (0: all billed this month already). */
async function billableOf(deps: GatherDeps, endpoint: SearchEndpoint, dots: string[], now: Date) {
  if (deps.spend.estimate) {
    return (await deps.spend.estimate(endpoint, { dots }, now)).billableUnits;
  }
  const check = await deps.spend.check({ endpoint, dots, at: now });
  return Math.round(check.costUsd / millsToUsd(unitMills(endpoint)));
}

/** The DOT the proxy's carrier names (names/store.ts) know to carry `docket`, if exactly one. */
async function dotOfDocket(sql: SqlEngine, docket: string): Promise<string | undefined> {
  const rows = await sql.query<{ dot_number: string }>(
    'SELECT dot_number FROM carrier_name WHERE docket = ? LIMIT 2',
    [docket],
  );
  return rows.length === 1 ? rows[0]?.dot_number : undefined;
}

async function planProfile(deps: GatherDeps, body: TenderCheckRequest, now: Date): Promise<Plan> {
  const query: Record<string, string> =
    body.dot_number !== undefined
      ? { dot_number: body.dot_number }
      : { docket_number: body.docket_number ?? '' };
  const base = { check: 'carrier_profile' as const, endpoint: 'profile' as const, query };
  if (await heldQuery(deps, 'profile', [query]))
    return { ...base, status: 'held', mills: 0, maxUnits: 0 };
  // a docket's DOT: the one the proxy has seen carry it (names/), else priced as one new carrier
  const dot = body.dot_number ?? (await dotOfDocket(deps.sql, body.docket_number ?? ''));
  const billable = dot !== undefined ? await billableOf(deps, 'profile', [dot], now) : 1;
  return billable === 0
    ? { ...base, status: 'free', mills: 0, maxUnits: 0 }
    : { ...base, status: 'billed', mills: unitMills('profile'), maxUnits: 1 };
}

async function planSearch(
  deps: GatherDeps,
  check: 'phone_search' | 'email_search',
  key: 'phone' | 'email',
  value: string,
  past: readonly PastSearch[],
  now: Date,
): Promise<Plan> {
  const paged = { [key]: value, pageSize: String(SEARCH_PAGE_SIZE) };
  const plain = { [key]: value };
  // held: either endpoint answers (a lite answer is the cheaper to have fetched)
  for (const endpoint of ['profile-lite', 'profile'] as const) {
    const held = await heldQuery(deps, endpoint, [paged, plain]);
    if (held) return { check, endpoint, query: held, status: 'held', mills: 0, maxUnits: 0 };
  }
  // a repeat this month: free when every carrier the same search answered is billed already
  // (and it answered its whole result); cheapest endpoint first
  for (const endpoint of ['profile-lite', 'profile'] as const) {
    const earlier = past.find(
      (s) =>
        s.endpoint === endpoint &&
        s.key === key &&
        s.value === value &&
        s.total_count !== null &&
        s.total_count <= SEARCH_PAGE_SIZE,
    );
    if (
      earlier &&
      (earlier.dots.length === 0 || (await billableOf(deps, endpoint, earlier.dots, now)) === 0)
    ) {
      return { check, endpoint, query: paged, status: 'free', mills: 0, maxUnits: 0 };
    }
  }
  // billed per carrier it finds: a lite page of SEARCH_PAGE_SIZE at most (lite answers a search
  // with every field the rules read of the carriers found: DOT, name, status, phone, e-mail)
  return {
    check,
    endpoint: 'profile-lite',
    query: paged,
    status: 'billed',
    mills: unitMills('profile-lite') * SEARCH_PAGE_SIZE,
    maxUnits: SEARCH_PAGE_SIZE,
  };
}

/** DOTs of `dots` whose first billed row of this month is at or after `since`: this call billed them. */
async function billedSince(
  deps: GatherDeps,
  endpoint: SearchEndpoint,
  dots: readonly string[],
  since: string,
  month: string,
): Promise<number> {
  if (dots.length === 0) return 0;
  const rows = await deps.sql.query<{ dot: string; first: string }>(
    `SELECT dot, MIN(at) AS first FROM spend_ledger
      WHERE mode = ? AND month = ? AND endpoint = ? AND cache_hit = 0 AND price_mills > 0
        AND dot IN (${placeholders(dots.length)})
      GROUP BY dot`,
    [deps.mode, month, endpoint, ...dots],
  );
  return rows.filter((row) => row.first >= since).length;
}

function dotsOf(answer: MirrorAnswer): { items: SearchAnswer['items']; total: number | null } {
  const parsed = parseLiteResponse(answer.json).value;
  const body = answer.json as { total_count?: unknown } | null;
  const total = typeof body?.total_count === 'number' ? body.total_count : null;
  return { items: parsed.items, total };
}

/** Run one plan through the mirror; a held one only from the cache (`only-if-cached`). */
async function run(deps: GatherDeps, plan: Plan, caller: Caller) {
  const headers =
    plan.status === 'held'
      ? { ...caller.headers, 'cache-control': 'only-if-cached' }
      : caller.headers;
  const startedAt = new Date().toISOString();
  const answer = await deps.mirror.get(plan.endpoint, plan.query, { ...caller, headers });
  return { answer, startedAt };
}

function pendingOf(plan: Plan): TenderPending {
  return {
    check: plan.check,
    cost_usd: millsToUsd(plan.mills),
    endpoint: plan.endpoint,
    unit_price_usd: millsToUsd(unitMills(plan.endpoint)),
    max_units: plan.maxUnits,
  };
}

/**
 * Price every check, run those `max_cost_usd` allows (in order), and read what each answered and
 * cost. Upstream refusals of a search are kept as a failed search; of the profile, as missing.
 */
export async function gather(
  deps: GatherDeps,
  body: TenderCheckRequest,
  caller: Caller,
  now: Date,
): Promise<Gathered> {
  const month = monthOf(now);
  const past = await deps.pastSearches(month);
  const plans: Plan[] = [await planProfile(deps, body, now)];
  if (body.phone !== undefined) {
    plans.push(await planSearch(deps, 'phone_search', 'phone', body.phone, past, now));
  }
  if (body.email !== undefined) {
    plans.push(
      await planSearch(deps, 'email_search', 'email', emailSearchValue(body.email), past, now),
    );
  }
  // what the check may spend: the allowance in mills, taken in order
  let left = Math.round(body.max_cost_usd * 1000);
  const allowed: Plan[] = [];
  const pending: TenderPending[] = [];
  for (const plan of plans) {
    if (plan.mills <= left) {
      left -= plan.mills;
      allowed.push(plan);
    } else {
      pending.push(pendingOf(plan));
    }
  }
  const result: Gathered = {
    profile: null,
    profileMissing: null,
    phone: null,
    email: null,
    searches: [],
    pending,
    costMills: 0,
    pastSearches: [],
  };
  for (const plan of plans) {
    if (!allowed.includes(plan)) {
      if (plan.check === 'carrier_profile') result.profileMissing = 'pending';
      else result.searches.push(searchOf(plan, 'pending', 0, null, [], null));
      continue;
    }
    let ran;
    try {
      ran = await run(deps, plan, caller);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (plan.check === 'carrier_profile') {
        // the budget or the service refused: the whole check cannot be answered
        throw err;
      }
      result.searches.push(searchOf(plan, 'failed', 0, null, [], null));
      continue;
    }
    const { answer, startedAt } = ran;
    const fetchedAt = answer.stored?.fetchedAt.toISOString() ?? startedAt;
    const ok = answer.status >= 200 && answer.status < 300;
    const status: TenderSearchStatus = plan.status;
    if (plan.check === 'carrier_profile') {
      if (answer.status === 404) result.profileMissing = 'not_found';
      else if (!ok) throw upstreamRefusal(answer.status, answer.retryAfter);
      else {
        result.profile = { answer, fetchedAt };
        if (!answer.cacheHit) {
          const dots = answer.stored?.dots ?? [];
          result.costMills +=
            (await billedSince(deps, plan.endpoint, dots, startedAt, month)) *
            unitMills(plan.endpoint);
        }
      }
      continue;
    }
    if (!ok && answer.status !== 404) {
      result.searches.push(searchOf(plan, 'failed', 0, fetchedAt, [], null));
      continue;
    }
    const { items, total } = answer.status === 404 ? { items: [], total: 0 } : dotsOf(answer);
    const dots = items.flatMap((item) => (item.dot_number ? [item.dot_number] : []));
    const mills = answer.cacheHit
      ? 0
      : (await billedSince(deps, plan.endpoint, dots, startedAt, month)) * unitMills(plan.endpoint);
    result.costMills += mills;
    const search = searchOf(
      plan,
      mills > 0 ? 'billed' : status === 'billed' ? 'free' : status,
      mills,
      fetchedAt,
      items,
      total,
    );
    result.pastSearches.push({
      endpoint: plan.endpoint,
      key: Object.keys(plan.query).find((k) => k !== 'pageSize') ?? '',
      value: search.value,
      dots,
      total_count: total,
    });
    const searchAnswer = { search, items };
    if (plan.check === 'phone_search') result.phone = searchAnswer;
    else result.email = searchAnswer;
    result.searches.push(search);
  }
  return result;
}

function searchOf(
  plan: Plan,
  status: TenderSearchStatus,
  mills: number,
  fetchedAt: string | null,
  items: SearchAnswer['items'],
  total: number | null,
): TenderSearch {
  const key = Object.keys(plan.query).find((k) => k !== 'pageSize') ?? '';
  return {
    check: plan.check,
    endpoint: plan.endpoint,
    key,
    value: plan.query[key] ?? '',
    status,
    cost_usd: millsToUsd(mills),
    fetched_at: fetchedAt,
    // the claimed carrier is dropped by the route, which knows its DOT
    found: items.map((item) => ({
      dot_number: item.dot_number ?? '',
      legal_name: item.legal_name ?? null,
      usdot_status: item.usdot_status ?? null,
      now: false,
    })),
    total_count: total,
  };
}

function upstreamRefusal(status: number, retryAfter: string | undefined): ApiError {
  return new ApiError(
    status === 429 ? 429 : 502,
    status === 429 ? 'rate_limited' : 'upstream_error',
    `The data service answered ${status} for the carrier's profile`,
    'Try again in a moment.',
    status === 429 && retryAfter !== undefined ? { 'retry-after': retryAfter } : {},
  );
}
