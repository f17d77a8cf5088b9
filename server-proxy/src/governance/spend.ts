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
import type { SqlEngine, SqlExecutor, SqlParam } from '../sql/engine.ts';
import { guardWrites } from '../sql/write-guard.ts';
import { insertRows } from '../sql/insert-rows.ts';
import { createSqlWriteBuffer } from './write-buffer.ts';
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
import { placeholders } from '../sql/placeholders.ts';

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
  usage(now: Date): Promise<Usage>;
  /** Cost of `units` planned calls of an endpoint; for per-DOT kinds `dots` names them. */
  estimate(
    endpoint: Endpoint,
    plan: { dots?: string[]; count?: number },
    now: Date,
  ): Promise<Estimate>;
  spentMills(now: Date): Promise<number>;
  /** Write queued cache-hit rows and deferred settlements now; never rejects. */
  flush(): Promise<void>;
}

/** Ledger row states (migration 3); every state counts as spent. */
type LedgerState = 'pending' | 'settled' | 'uncertain';

type Call = BillableCall & { user: string };

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

/** PostgreSQL answers COUNT, SUM and BIGINT as strings, SQLite as numbers (SUM of nothing: null). */
const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

// A DOT is billed by settled or uncertain rows. Another call's reservation (pending) does not
// count: that call may still be released, so each call in flight reserves the DOT itself.
const BILLED_DOT = `SELECT COUNT(*) AS n FROM spend_ledger
  WHERE mode = ? AND month = ? AND endpoint = ? AND dot = ? AND price_mills > 0
    AND state <> 'pending'`;
// DOTs whose last monitoring event before the month started was an add: still watched, so the
// service bills them again for the new month. Ties in time go to the later row, as in retention.
const CARRIED = `SELECT DISTINCT dot FROM spend_ledger AS last
  WHERE last.mode = ? AND last.at < ? AND last.dot IS NOT NULL AND last.cache_hit = 0
    AND last.endpoint = 'monitoring/add'
    AND NOT EXISTS (
      SELECT 1 FROM spend_ledger AS later
      WHERE later.mode = last.mode AND later.dot = last.dot AND later.at < ?
        AND later.cache_hit = 0 AND later.endpoint IN ('monitoring/add', 'monitoring/remove')
        AND (later.at > last.at OR (later.at = last.at AND later.id > last.id)))`;
const LEDGER_COLUMNS = [
  'call_id',
  'at',
  'month',
  'day',
  'mode',
  'endpoint',
  'dot',
  '"user"',
  'cache_hit',
  'price_mills',
  'state',
];
const INSERT = `INSERT INTO spend_ledger (${LEDGER_COLUMNS.join(', ')})
  VALUES (${placeholders(LEDGER_COLUMNS.length)})`;
const SPENT = 'SELECT SUM(price_mills) AS mills FROM spend_ledger WHERE mode = ? AND month = ?';
const UNSETTLED = `SELECT state, SUM(price_mills) AS mills FROM spend_ledger
  WHERE mode = ? AND month = ? AND state <> 'settled' GROUP BY state`;
const DROP_CALL = 'DELETE FROM spend_ledger WHERE call_id = ?';
const MARK_UNCERTAIN =
  "UPDATE spend_ledger SET state = 'uncertain' WHERE call_id = ? AND state = 'pending'";
const RECOVER_PENDING =
  "UPDATE spend_ledger SET state = 'uncertain' WHERE state = 'pending' AND at < ?";
const CATEGORIES = `SELECT endpoint, COUNT(DISTINCT call_id) AS calls,
    COUNT(DISTINCT CASE WHEN cache_hit = 1 THEN call_id END) AS cache_hits,
    SUM(CASE WHEN price_mills > 0 THEN 1 ELSE 0 END) AS billed_units, SUM(price_mills) AS mills
  FROM spend_ledger WHERE mode = ? AND month = ? GROUP BY endpoint`;
const DAYS = `SELECT day, COUNT(DISTINCT call_id) AS calls, SUM(price_mills) AS mills
  FROM spend_ledger WHERE mode = ? AND month = ? GROUP BY day ORDER BY day`;
const USERS = `SELECT "user" AS "user", COUNT(DISTINCT call_id) AS calls,
    SUM(price_mills) AS mills
  FROM spend_ledger WHERE mode = ? AND month = ? GROUP BY "user" ORDER BY mills DESC, "user"`;

/**
 * How long a PostgreSQL ledger leaves a pending row alone at start-up: other replicas' calls are
 * in flight (no call waits this long upstream); older ones were left by a crash.
 */
const PENDING_GRACE_MS = 15 * 60_000;

interface MeterOptions {
  mode: ServiceMode;
  monthlyBudgetUsd?: number;
  /**
   * The proxy's SQLite file: with the SQLite engine, writes go through its Storage guard (a
   * refusal is a 503 storage_unavailable, retried with back-off, counted on /readyz)
   */
  db?: Database.Database;
}

/**
 * The ledger of every metered upstream call, priced as the service prices it (also in sandbox
 * and test modes, where nothing is actually billed), over SqlEngine: the proxy's SQLite file, or
 * PostgreSQL shared by every replica. Uniqueness is per mode, endpoint, DOT and UTC month.
 *
 * A call that may bill is reserved before it is sent: its intent is written as `pending` rows at
 * the quote (the known DOTs, or one DOT-less row at the page's worst case), in the same
 * transaction as the budget check, so concurrent calls cannot together cross the budget and a
 * crash after the send leaves the call in the ledger. Every write that prices rows holds the
 * (mode, month) lock for its transaction: SQLite's BEGIN IMMEDIATE, a transaction-scoped advisory
 * lock on PostgreSQL, so calls on other replicas take turns with it and see its rows. After the
 * answer the intent is settled (replaced by the rows served), released (the call never reached the
 * service) or kept as `uncertain`. Rows still `pending` when the ledger is created were left by a
 * crash: they become `uncertain` and stay counted as spent.
 */
export function createSpendLedger(sql: SqlEngine, options: MeterOptions): SpendLedger {
  const { mode, db } = options;
  const guard = db ? guardWrites(sql, db) : <T>(fn: () => Promise<T>) => fn();
  const budgetMills =
    options.monthlyBudgetUsd === undefined ? undefined : usdToMills(options.monthlyBudgetUsd);

  /** Hold the (mode, month) turn until `tx` ends (SQLite: the transaction already holds it). */
  async function lockMonth(tx: SqlExecutor, month: string): Promise<void> {
    if (sql.kind !== 'postgres') return;
    await tx.query('SELECT pg_advisory_xact_lock(hashtext(?)) AS locked', [
      `spend_ledger:${mode}:${month}`,
    ]);
  }

  // With SQLite, the statement runs before this returns: the rows are recovered at creation.
  const pendingBefore =
    sql.kind === 'postgres' ? new Date(Date.now() - PENDING_GRACE_MS).toISOString() : '9999';
  guard(() => sql.run(RECOVER_PENDING, [pendingBefore])).catch(() => {
    // The database refuses writes: the pending rows stay pending, which counts them as spent too.
  });

  const rolledOver = new Set<string>();

  /**
   * Bill, once per month, the monitored DOTs carried over from earlier months (as the service
   * does). Rejects with a storage_unavailable ProxyError when the rows cannot be written.
   */
  async function rollOver(now: Date): Promise<void> {
    const month = monthOf(now);
    if (rolledOver.has(month)) return;
    await guard(() =>
      sql.transaction(async (tx) => {
        await lockMonth(tx, month);
        const start = monthStart(now);
        const callId = randomUUID();
        const mills = unitMills('monitoring/add');
        const since = start.toISOString();
        const carried = await tx.query<{ dot: string }>(CARRIED, [mode, since, since]);
        for (const { dot } of carried) {
          if (await isBilled(tx, month, 'monitoring/add', dot)) continue;
          await insert(
            tx,
            row(start, 'monitoring/add', dot, ROLLOVER_USER, false, mills, callId, 'settled'),
          );
        }
      }),
    );
    rolledOver.add(month);
  }

  /** The same for read paths (usage, estimate): they answer without the rows if they cannot. */
  async function tryRollOver(now: Date): Promise<void> {
    try {
      await rollOver(now);
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

  function valuesOf(line: LedgerRow): SqlParam[] {
    return [
      line.call_id,
      line.at,
      line.month,
      line.day,
      line.mode,
      line.endpoint,
      line.dot,
      line.user,
      line.cache_hit,
      line.price_mills,
      line.state,
    ];
  }

  function insert(tx: SqlExecutor, line: LedgerRow): Promise<unknown> {
    return tx.run(INSERT, valuesOf(line));
  }

  async function isBilled(
    ex: SqlExecutor,
    month: string,
    endpoint: Endpoint,
    dot: string,
  ): Promise<boolean> {
    const [found] = await ex.query<{ n: unknown }>(BILLED_DOT, [mode, month, endpoint, dot]);
    return num(found?.n) > 0;
  }

  async function newDots(
    ex: SqlExecutor,
    endpoint: Endpoint,
    dots: readonly string[],
    at: Date,
  ): Promise<string[]> {
    const month = monthOf(at);
    const fresh: string[] = [];
    for (const dot of uniqueDots(dots)) {
      if (!(await isBilled(ex, month, endpoint, dot))) fresh.push(dot);
    }
    return fresh;
  }

  async function monthMills(ex: SqlExecutor, now: Date): Promise<number> {
    const [found] = await ex.query<{ mills: unknown }>(SPENT, [mode, monthOf(now)]);
    return num(found?.mills);
  }

  async function spentMills(now: Date): Promise<number> {
    await tryRollOver(now);
    return monthMills(sql, now);
  }

  /** Units a call whose DOTs are unknown before the answer may serve: its page (at least one). */
  function worstCaseUnits(call: BillableCall): number {
    return Math.max(1, Math.floor(call.maxUnits ?? 1));
  }

  /**
   * Mills a call would cost now. DOTs unknown before the response are quoted at the worst case:
   * `maxUnits` (the page size) new DOTs, or one when it is not given.
   */
  async function quote(ex: SqlExecutor, call: BillableCall): Promise<number> {
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
        return rule.mills * (await newDots(ex, call.endpoint, call.dots, call.at)).length;
    }
  }

  /** The pending rows of a call about to be sent: what it may bill, priced as the quote. */
  async function intentRows(ex: SqlExecutor, call: Call, callId: string): Promise<LedgerRow[]> {
    const rule = PRICE_RULES[call.endpoint];
    const dots = uniqueDots(call.dots);
    const make = (dot: string | null, mills: number) =>
      row(call.at, call.endpoint, dot, call.user, false, mills, callId, 'pending');
    if (rule.kind === 'free') return [];
    if (rule.kind === 'per-call') return [make(dots[0] ?? null, rule.mills)];
    if (dots.length === 0) return [make(null, await quote(ex, call))];
    if (rule.kind === 'per-match') return dots.map((dot) => make(dot, rule.mills));
    return pricePerDot(ex, call, dots, make);
  }

  /** One row per DOT, at the unit price when the DOT is not billed yet this month, else free. */
  async function pricePerDot(
    ex: SqlExecutor,
    call: BillableCall,
    dots: string[],
    make: (dot: string, mills: number) => LedgerRow,
  ): Promise<LedgerRow[]> {
    const month = monthOf(call.at);
    const mills = unitMills(call.endpoint);
    const lines: LedgerRow[] = [];
    for (const dot of dots) {
      lines.push(make(dot, (await isBilled(ex, month, call.endpoint, dot)) ? 0 : mills));
    }
    return lines;
  }

  /** One row per DOT the call served (or one DOT-less row), priced with unique-DOT semantics. */
  async function ledgerRows(
    ex: SqlExecutor,
    call: Call & { cacheHit: boolean },
    callId: string,
  ): Promise<LedgerRow[]> {
    const rule = PRICE_RULES[call.endpoint];
    const dots = uniqueDots(call.dots);
    const make = (dot: string | null, mills: number) =>
      row(call.at, call.endpoint, dot, call.user, call.cacheHit, mills, callId);
    if (call.cacheHit) return dots.length ? dots.map((dot) => make(dot, 0)) : [make(null, 0)];
    if (rule.kind === 'per-call') return [make(dots[0] ?? null, rule.mills)];
    if (dots.length === 0) return [make(null, 0)];
    if (rule.kind === 'free') return dots.map((dot) => make(dot, 0));
    if (rule.kind === 'per-match') return dots.map((dot) => make(dot, rule.mills));
    return pricePerDot(ex, call, dots, make);
  }

  /**
   * Replace whatever rows `callId` has by the rows the call served, under the month's lock (so
   * the unique-DOT pricing sees every replica's rows). Running it again changes nothing.
   */
  function writeServed(callId: string, call: Call & { cacheHit: boolean }): Promise<void> {
    return sql.transaction(async (tx) => {
      await lockMonth(tx, monthOf(call.at));
      await tx.run(DROP_CALL, [callId]);
      for (const line of await ledgerRows(tx, call, callId)) await insert(tx, line);
    });
  }

  const freeRows = createSqlWriteBuffer<LedgerRow>(
    sql,
    db,
    (lines) =>
      sql.transaction((tx) => insertRows(tx, 'spend_ledger', LEDGER_COLUMNS, lines.map(valuesOf))),
    { name: 'free ledger rows' },
  );
  // Settlements, releases and records of calls that happened, when the database refused them at
  // once: kept in order and retried; a billed call is never dropped (the bound is only a guard).
  // Each write can run twice (a batch retried after its first writes went through): they are.
  const deferred = createSqlWriteBuffer<() => Promise<unknown>>(
    sql,
    db,
    async (writes) => {
      for (const write of writes) await write();
    },
    { maxQueued: 1_000_000, name: 'ledger settlements' },
  );

  /** Write now, or queue it to be retried: the ledger must hear of a call that happened. */
  async function writeOrDefer(write: () => Promise<unknown>): Promise<void> {
    try {
      await guard(write);
    } catch {
      deferred.push(write);
    }
  }

  /** Reservations whose intent is in the database (a free call writes none). */
  const written = new WeakSet<SpendReservation>();

  const flush = async () => {
    await freeRows.flush();
    await deferred.flush();
  };

  async function reserve(call: Call): Promise<ReserveDecision> {
    await tryRollOver(call.at);
    const id = randomUUID();
    // Nothing to reserve (free endpoint, DOTs already billed this month): no write, so a database
    // refusing writes does not stop a free call; its rows are written after it.
    if ((await quote(sql, call)) === 0) return { ok: true, reservation: { id, costUsd: 0 } };
    // A priced call needs this month's carried-over rows in the spend (rejects when missing).
    await rollOver(call.at);
    // Under the month's lock, the budget and the DOTs billed are read as every replica left them,
    // and no other reservation can come between the read and the write.
    const outcome = await guard(() =>
      sql.transaction(async (tx) => {
        await lockMonth(tx, monthOf(call.at));
        const cost = await quote(tx, call);
        const spent = await monthMills(tx, call.at);
        if (budgetMills !== undefined && cost > 0 && spent + cost > budgetMills) {
          return { cost, refusedAt: spent };
        }
        for (const line of await intentRows(tx, call, id)) await insert(tx, line);
        return { cost, refusedAt: null };
      }),
    );
    const costUsd = millsToUsd(outcome.cost);
    if (outcome.refusedAt !== null && budgetMills !== undefined) {
      return {
        ok: false,
        costUsd,
        spentUsd: millsToUsd(outcome.refusedAt),
        budgetUsd: millsToUsd(budgetMills),
      };
    }
    const reservation: SpendReservation = { id, costUsd };
    written.add(reservation);
    return { ok: true, reservation };
  }

  async function planUnits(
    endpoint: Endpoint,
    plan: { dots?: string[]; count?: number },
    now: Date,
  ) {
    const rule = PRICE_RULES[endpoint];
    const dots = uniqueDots(plan.dots ?? []);
    if (rule.kind === 'per-dot-month') {
      return { units: dots.length, billable: (await newDots(sql, endpoint, dots, now)).length };
    }
    const units = rule.kind === 'per-match' ? dots.length || (plan.count ?? 0) : (plan.count ?? 0);
    return { units, billable: rule.kind === 'free' ? 0 : units };
  }

  return {
    async check(call): Promise<BudgetDecision> {
      const cost = await quote(sql, call);
      const costUsd = millsToUsd(cost);
      if (budgetMills === undefined || cost === 0) return { ok: true, costUsd };
      const spent = await spentMills(call.at);
      if (spent + cost <= budgetMills) return { ok: true, costUsd };
      return {
        ok: false,
        costUsd,
        spentUsd: millsToUsd(spent),
        budgetUsd: millsToUsd(budgetMills),
      };
    },
    reserve,
    async settle(reservation, call) {
      await writeOrDefer(async () => {
        await rollOver(call.at);
        await writeServed(reservation.id, { ...call, cacheHit: false });
      });
    },
    async release(reservation) {
      if (written.has(reservation)) await writeOrDefer(() => sql.run(DROP_CALL, [reservation.id]));
    },
    async markUncertain(reservation) {
      if (written.has(reservation)) {
        await writeOrDefer(() => sql.run(MARK_UNCERTAIN, [reservation.id]));
      }
    },
    async record(call) {
      // Cache hits are free rows on the hot path: queue them; priced calls are written at once.
      if (call.cacheHit) {
        await tryRollOver(call.at);
        for (const line of await ledgerRows(sql, call, randomUUID())) freeRows.push(line);
        return;
      }
      const callId = randomUUID();
      await writeOrDefer(async () => {
        await rollOver(call.at);
        await writeServed(callId, call);
      });
    },
    flush,
    spentMills,
    async usage(now) {
      await flush();
      const spent = await spentMills(now);
      const month = monthOf(now);
      const unsettled = await sql.query<{ state: LedgerState; mills: unknown }>(UNSETTLED, [
        mode,
        month,
      ]);
      const millsIn = (state: LedgerState) =>
        num(unsettled.find((line) => line.state === state)?.mills);
      const endpoints = (
        await sql.query<Record<keyof CategoryRow, unknown>>(CATEGORIES, [mode, month])
      ).map((line) => ({
        endpoint: line.endpoint as Endpoint,
        calls: num(line.calls),
        cache_hits: num(line.cache_hits),
        billed_units: num(line.billed_units),
        mills: num(line.mills),
      }));
      const users = await sql.query<{ user: string; calls: unknown; mills: unknown }>(USERS, [
        mode,
        month,
      ]);
      const days = await sql.query<{ day: string; calls: unknown; mills: unknown }>(DAYS, [
        mode,
        month,
      ]);
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
        byUser: users.map(({ user, calls, mills }) => ({
          user,
          calls: num(calls),
          usd: millsToUsd(num(mills)),
        })),
        byDay: days.map(({ day, calls, mills }) => ({
          day,
          calls: num(calls),
          usd: millsToUsd(num(mills)),
        })),
      };
    },
    async estimate(endpoint, plan, now) {
      await flush();
      const spent = await spentMills(now);
      const { units, billable } = await planUnits(endpoint, plan, now);
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
