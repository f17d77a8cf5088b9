import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type {
  BillableCall,
  BudgetDecision,
  Endpoint,
  ReserveDecision,
  ServiceMode,
  SpendMeter,
  SpendReservation,
} from '../context.ts';
import { storageOf } from '../storage.ts';
import { createWriteBuffer } from './write-buffer.ts';
import {
  ENDPOINTS,
  PRICE_RULES,
  SPEND_CATEGORIES,
  categoryOf,
  dayOf,
  distinct,
  millsToUsd,
  monthOf,
  monthStart,
  normaliseDot,
  unitMills,
  usdToMills,
  type SpendCategory,
} from './pricing.ts';

/** User name on the ledger rows of monitored DOTs carried into a new month. */
export const ROLLOVER_USER = '(monthly rollover)';

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

interface DayUsage {
  day: string;
  calls: number;
  usd: number;
}

interface Usage {
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
  byDay: DayUsage[];
}

interface Estimate {
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

/** The spend meter plus the read side used by /api/local/usage and /api/local/estimate. */
export interface SpendLedger extends SpendMeter {
  usage(now: Date): Usage;
  /** Cost of `units` planned calls of an endpoint; for per-DOT kinds `dots` names them. */
  estimate(endpoint: Endpoint, plan: { dots?: string[]; count?: number }, now: Date): Estimate;
  spentMills(now: Date): number;
  /** Write queued cache-hit rows and deferred settlements now. */
  flush(): void;
}

/** Ledger row states (migration 3); every state counts as spent. */
type LedgerState = 'pending' | 'settled' | 'uncertain';

type Call = BillableCall & { user: string };

interface Statements {
  billedDot: Database.Statement<[string, string, string, string], { n: number }>;
  carried: Database.Statement<[string, string], { dot: string }>;
  insert: Database.Statement<[LedgerRow]>;
  spent: Database.Statement<[string, string], { mills: number | null }>;
  unsettled: Database.Statement<[string, string], { state: LedgerState; mills: number }>;
  dropCall: Database.Statement<[string]>;
  markUncertain: Database.Statement<[string]>;
  recoverPending: Database.Statement<[]>;
  categories: Database.Statement<[string, string], CategoryRow>;
  days: Database.Statement<[string, string], DayUsage & { mills: number }>;
  users: Database.Statement<[string, string], { user: string; calls: number; mills: number }>;
}

interface LedgerRow {
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

interface CategoryRow {
  endpoint: Endpoint;
  calls: number;
  cache_hits: number;
  billed_units: number;
  mills: number;
}

function prepare(db: Database.Database): Statements {
  return {
    // A DOT is billed by settled or uncertain rows. Another call's reservation (pending) does not
    // count: that call may still be released, so each call in flight reserves the DOT itself.
    billedDot: db.prepare(
      `SELECT COUNT(*) AS n FROM spend_ledger
       WHERE mode = ? AND month = ? AND endpoint = ? AND dot = ? AND price_mills > 0
         AND state <> 'pending'`,
    ),
    // DOTs whose last monitoring event before the month started was an add: still watched, so the
    // service bills them again for the new month.
    carried: db.prepare(
      `SELECT dot FROM (
         SELECT dot, endpoint, MAX(at) AS last_at FROM spend_ledger
         WHERE mode = ? AND at < ? AND dot IS NOT NULL AND cache_hit = 0
           AND endpoint IN ('monitoring/add', 'monitoring/remove')
         GROUP BY dot)
       WHERE endpoint = 'monitoring/add'`,
    ),
    insert: db.prepare(
      `INSERT INTO spend_ledger
         (call_id, at, month, day, mode, endpoint, dot, user, cache_hit, price_mills, state)
       VALUES (@call_id, @at, @month, @day, @mode, @endpoint, @dot, @user, @cache_hit, @price_mills,
         @state)`,
    ),
    spent: db.prepare(
      'SELECT SUM(price_mills) AS mills FROM spend_ledger WHERE mode = ? AND month = ?',
    ),
    unsettled: db.prepare(
      `SELECT state, SUM(price_mills) AS mills FROM spend_ledger
       WHERE mode = ? AND month = ? AND state <> 'settled' GROUP BY state`,
    ),
    dropCall: db.prepare('DELETE FROM spend_ledger WHERE call_id = ?'),
    markUncertain: db.prepare(
      "UPDATE spend_ledger SET state = 'uncertain' WHERE call_id = ? AND state = 'pending'",
    ),
    recoverPending: db.prepare(
      "UPDATE spend_ledger SET state = 'uncertain' WHERE state = 'pending'",
    ),
    categories: db.prepare(
      `SELECT endpoint, COUNT(DISTINCT call_id) AS calls,
         COUNT(DISTINCT CASE WHEN cache_hit = 1 THEN call_id END) AS cache_hits,
         SUM(price_mills > 0) AS billed_units, SUM(price_mills) AS mills
       FROM spend_ledger WHERE mode = ? AND month = ? GROUP BY endpoint`,
    ),
    days: db.prepare(
      `SELECT day, COUNT(DISTINCT call_id) AS calls, SUM(price_mills) AS mills
       FROM spend_ledger WHERE mode = ? AND month = ? GROUP BY day ORDER BY day`,
    ),
    users: db.prepare(
      `SELECT user, COUNT(DISTINCT call_id) AS calls, SUM(price_mills) AS mills
       FROM spend_ledger WHERE mode = ? AND month = ? GROUP BY user ORDER BY mills DESC, user`,
    ),
  };
}

interface MeterOptions {
  mode: ServiceMode;
  monthlyBudgetUsd?: number;
}

/**
 * SQLite ledger of every metered upstream call, priced as the service prices it (also in sandbox and
 * test modes, where nothing is actually billed). Uniqueness is per mode, endpoint, DOT and UTC month.
 *
 * A call that may bill is reserved before it is sent: its intent is written as `pending` rows at
 * the quote (the known DOTs, or one DOT-less row at the page's worst case), in the same write
 * transaction as the budget check, so concurrent calls cannot together cross the budget and a
 * crash after the send leaves the call in the ledger. After the answer the intent is settled
 * (replaced by the rows served), released (the call never reached the service) or kept as
 * `uncertain`. Rows still `pending` when the ledger is created were left by a crash: they become
 * `uncertain` and stay counted as spent.
 */
export function createSpendLedger(db: Database.Database, options: MeterOptions): SpendLedger {
  const sql = prepare(db);
  const storage = storageOf(db);
  const { mode } = options;
  const budgetMills =
    options.monthlyBudgetUsd === undefined ? undefined : usdToMills(options.monthlyBudgetUsd);

  try {
    storage.write(() => sql.recoverPending.run());
  } catch {
    // The database refuses writes: the pending rows stay pending, which counts them as spent too.
  }

  const rolledOver = new Set<string>();
  const rollOverTx = db.transaction((now: Date) => {
    const start = monthStart(now);
    const month = monthOf(now);
    const callId = randomUUID();
    const mills = unitMills('monitoring/add');
    for (const { dot } of sql.carried.all(mode, start.toISOString())) {
      if (isBilled(month, 'monitoring/add', dot)) continue;
      sql.insert.run(
        row(start, 'monitoring/add', dot, ROLLOVER_USER, false, mills, callId, 'settled'),
      );
    }
  });

  /**
   * Bill, once per month, the monitored DOTs carried over from earlier months (as the service
   * does). Throws a storage_unavailable ProxyError when the rows cannot be written.
   */
  function rollOver(now: Date): void {
    const month = monthOf(now);
    if (rolledOver.has(month)) return;
    storage.write(() => rollOverTx(now));
    rolledOver.add(month);
  }

  /** The same for read paths (usage, estimate): they answer without the rows if they cannot. */
  function tryRollOver(now: Date): void {
    try {
      rollOver(now);
    } catch {
      // retried by the next read or call; /readyz reports the database failing meanwhile
    }
  }

  function row(
    at: Date,
    endpoint: Endpoint,
    dot: string | null,
    user: string,
    cacheHit: boolean,
    mills: number,
    callId: string = randomUUID(),
    state: LedgerState = 'settled',
  ): LedgerRow {
    return {
      call_id: callId,
      at: at.toISOString(),
      month: monthOf(at),
      day: dayOf(at),
      mode,
      endpoint,
      dot,
      user,
      cache_hit: cacheHit ? 1 : 0,
      price_mills: mills,
      state,
    };
  }

  function isBilled(month: string, endpoint: Endpoint, dot: string): boolean {
    return (sql.billedDot.get(mode, month, endpoint, dot)?.n ?? 0) > 0;
  }

  function newDots(endpoint: Endpoint, dots: readonly string[], at: Date): string[] {
    const month = monthOf(at);
    return uniqueDots(dots).filter((dot) => !isBilled(month, endpoint, dot));
  }

  function monthMills(now: Date): number {
    return sql.spent.get(mode, monthOf(now))?.mills ?? 0;
  }

  function spentMills(now: Date): number {
    tryRollOver(now);
    return monthMills(now);
  }

  /** Units a call whose DOTs are unknown before the answer may serve: its page (at least one). */
  function worstCaseUnits(call: BillableCall): number {
    return Math.max(1, Math.floor(call.maxUnits ?? 1));
  }

  /**
   * Mills a call would cost now. DOTs unknown before the response are quoted at the worst case:
   * `maxUnits` (the page size) new DOTs, or one when it is not given.
   */
  function quote(call: BillableCall): number {
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
        return rule.mills * newDots(call.endpoint, call.dots, call.at).length;
    }
  }

  /** The pending rows of a call about to be sent: what it may bill, priced as the quote. */
  function intentRows(call: Call, callId: string): LedgerRow[] {
    const rule = PRICE_RULES[call.endpoint];
    const dots = uniqueDots(call.dots);
    const make = (dot: string | null, mills: number) =>
      row(call.at, call.endpoint, dot, call.user, false, mills, callId, 'pending');
    if (rule.kind === 'free') return [];
    if (rule.kind === 'per-call') return [make(dots[0] ?? null, rule.mills)];
    if (dots.length === 0) return [make(null, quote(call))];
    if (rule.kind === 'per-match') return dots.map((dot) => make(dot, rule.mills));
    const month = monthOf(call.at);
    return dots.map((dot) => make(dot, isBilled(month, call.endpoint, dot) ? 0 : rule.mills));
  }

  const freeRows = createWriteBuffer<LedgerRow>(db, (line) => sql.insert.run(line), {
    name: 'free ledger rows',
  });
  // Settlements, releases and records of calls that happened, when the database refused them at
  // once: kept in order and retried; a billed call is never dropped (the bound is only a guard).
  const deferred = createWriteBuffer<() => void>(db, (write) => write(), {
    maxQueued: 1_000_000,
    name: 'ledger settlements',
  });

  /** Write now, or queue it to be retried: the ledger must hear of a call that happened. */
  function writeOrDefer(write: () => void): void {
    try {
      storage.write(write);
    } catch {
      deferred.push(write);
    }
  }

  const recordTx = db.transaction((call: Call & { cacheHit: boolean }, callId: string) => {
    for (const line of ledgerRows(call, callId)) sql.insert.run(line);
  });
  const settleTx = db.transaction((callId: string, call: Call) => {
    sql.dropCall.run(callId);
    for (const line of ledgerRows({ ...call, cacheHit: false }, callId)) sql.insert.run(line);
  });
  const reserveTx = db.transaction((call: Call, callId: string, cost: number): number | null => {
    const spent = monthMills(call.at);
    if (budgetMills !== undefined && cost > 0 && spent + cost > budgetMills) return spent;
    for (const line of intentRows(call, callId)) sql.insert.run(line);
    return null;
  });

  /** One row per DOT the call served (or one DOT-less row), priced with unique-DOT semantics. */
  function ledgerRows(call: Call & { cacheHit: boolean }, callId: string): LedgerRow[] {
    const rule = PRICE_RULES[call.endpoint];
    const dots = uniqueDots(call.dots);
    const make = (dot: string | null, mills: number) =>
      row(call.at, call.endpoint, dot, call.user, call.cacheHit, mills, callId);
    if (call.cacheHit) return dots.length ? dots.map((dot) => make(dot, 0)) : [make(null, 0)];
    if (rule.kind === 'per-call') return [make(dots[0] ?? null, rule.mills)];
    if (dots.length === 0) return [make(null, 0)];
    if (rule.kind === 'free') return dots.map((dot) => make(dot, 0));
    if (rule.kind === 'per-match') return dots.map((dot) => make(dot, rule.mills));
    const month = monthOf(call.at);
    return dots.map((dot) => make(dot, isBilled(month, call.endpoint, dot) ? 0 : rule.mills));
  }

  /** Reservations whose intent is in the database (a free call writes none). */
  const written = new WeakSet<SpendReservation>();

  const flush = () => {
    freeRows.flush();
    deferred.flush();
  };

  return {
    check(call): BudgetDecision {
      const cost = quote(call);
      const costUsd = millsToUsd(cost);
      if (budgetMills === undefined || cost === 0) return { ok: true, costUsd };
      const spent = spentMills(call.at);
      if (spent + cost <= budgetMills) return { ok: true, costUsd };
      return {
        ok: false,
        costUsd,
        spentUsd: millsToUsd(spent),
        budgetUsd: millsToUsd(budgetMills),
      };
    },
    reserve(call): ReserveDecision {
      tryRollOver(call.at);
      const cost = quote(call);
      const reservation: SpendReservation = { id: randomUUID(), costUsd: millsToUsd(cost) };
      // Nothing to reserve (free endpoint, DOTs already billed this month): no write, so a
      // database refusing writes does not stop a free call; its rows are written after it.
      if (cost === 0) return { ok: true, reservation };
      // A priced call needs this month's carried-over rows in the spend (throws when missing).
      rollOver(call.at);
      // IMMEDIATE: the write lock is taken before the budget is read, so another process sharing
      // the file cannot reserve between the read and the write.
      const refusedAt = storage.write(() => reserveTx.immediate(call, reservation.id, cost));
      if (refusedAt !== null && budgetMills !== undefined) {
        return {
          ok: false,
          costUsd: millsToUsd(cost),
          spentUsd: millsToUsd(refusedAt),
          budgetUsd: millsToUsd(budgetMills),
        };
      }
      written.add(reservation);
      return { ok: true, reservation };
    },
    settle(reservation, call) {
      writeOrDefer(() => {
        rollOver(call.at);
        settleTx(reservation.id, call);
      });
    },
    release(reservation) {
      if (written.has(reservation)) writeOrDefer(() => sql.dropCall.run(reservation.id));
    },
    markUncertain(reservation) {
      if (written.has(reservation)) writeOrDefer(() => sql.markUncertain.run(reservation.id));
    },
    record(call) {
      // Cache hits are free rows on the hot path: queue them; priced calls are written at once.
      if (call.cacheHit) {
        tryRollOver(call.at);
        for (const line of ledgerRows(call, randomUUID())) freeRows.push(line);
        return;
      }
      const callId = randomUUID();
      writeOrDefer(() => {
        rollOver(call.at);
        recordTx(call, callId);
      });
    },
    flush,
    spentMills,
    usage(now) {
      flush();
      const spent = spentMills(now);
      const month = monthOf(now);
      const unsettled = sql.unsettled.all(mode, month);
      const millsIn = (state: LedgerState) =>
        unsettled.find((line) => line.state === state)?.mills ?? 0;
      const endpoints = sql.categories.all(mode, month);
      return {
        month,
        mode,
        spentUsd: millsToUsd(spent),
        reservedUsd: millsToUsd(millsIn('pending')),
        uncertainUsd: millsToUsd(millsIn('uncertain')),
        budgetUsd: budgetMills === undefined ? null : millsToUsd(budgetMills),
        remainingUsd:
          budgetMills === undefined ? null : millsToUsd(Math.max(0, budgetMills - spent)),
        byCategory: byCategory(endpoints),
        byEndpoint: byEndpoint(endpoints),
        byUser: sql.users.all(mode, month).map(({ user, calls, mills }) => ({
          user,
          calls,
          usd: millsToUsd(mills),
        })),
        byDay: sql.days.all(mode, month).map(({ day, calls, mills }) => ({
          day,
          calls,
          usd: millsToUsd(mills),
        })),
      };
    },
    estimate(endpoint, plan, now) {
      flush();
      const spent = spentMills(now);
      const { units, billable } = planUnits(endpoint, plan, now);
      const mills = unitMills(endpoint);
      const cost = mills * billable;
      return {
        endpoint,
        month: monthOf(now),
        unitPriceUsd: millsToUsd(mills),
        units,
        billableUnits: billable,
        costUsd: millsToUsd(cost),
        spentUsd: millsToUsd(spent),
        budgetUsd: budgetMills === undefined ? null : millsToUsd(budgetMills),
        withinBudget: budgetMills === undefined || cost === 0 || spent + cost <= budgetMills,
      };
    },
  };
  function planUnits(endpoint: Endpoint, plan: { dots?: string[]; count?: number }, now: Date) {
    const rule = PRICE_RULES[endpoint];
    const dots = uniqueDots(plan.dots ?? []);
    if (rule.kind === 'per-dot-month') {
      return { units: dots.length, billable: newDots(endpoint, dots, now).length };
    }
    const units = rule.kind === 'per-match' ? dots.length || (plan.count ?? 0) : (plan.count ?? 0);
    return { units, billable: rule.kind === 'free' ? 0 : units };
  }
}

function uniqueDots(dots: readonly string[]): string[] {
  return distinct(dots.map(normaliseDot));
}

/** Every endpoint (zero when unused), in the price list's order. */
function byEndpoint(rows: CategoryRow[]): EndpointUsage[] {
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
function byCategory(rows: CategoryRow[]): CategoryUsage[] {
  return SPEND_CATEGORIES.map((category) => {
    const mine = rows.filter((line) => categoryOf(line.endpoint) === category);
    const sum = (pick: (line: CategoryRow) => number) =>
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
