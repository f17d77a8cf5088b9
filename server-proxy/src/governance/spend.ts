import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type {
  BillableCall,
  Endpoint,
  ReserveDecision,
  ServiceMode,
  SpendMeter,
  SpendReservation,
} from '../context.ts';
import type { SqlEngine, SqlExecutor } from '../sql/engine.ts';
import { guardWrites } from '../sql/write-guard.ts';
import { createSqlWriteBuffer } from './write-buffer.ts';
import { millsToUsd, monthOf, monthStart, usdToMills } from './pricing.ts';
import {
  billedDots,
  carriedDots,
  dropCall,
  insertLedgerBatch,
  insertLedgerRows,
  lockMonth,
  markUncertain,
  monthMills,
  monthSums,
  recoverPending,
} from './spend-queries.ts';
import {
  budgetVerdict,
  dotsToPrice,
  estimateReport,
  fitsBudget,
  intentRows,
  needsSpend,
  planDotsToPrice,
  planUnits,
  quoteMills,
  rolloverRows,
  servedRows,
  usageReport,
  type Call,
  type Estimate,
  type EstimatePlan,
  type LedgerRow,
  type ServedCall,
  type Usage,
} from './spend-rules.ts';

export { ROLLOVER_USER } from './spend-rules.ts';

/** The spend meter plus the read side used by /api/local/usage and /api/local/estimate. */
export interface SpendLedger extends SpendMeter {
  usage(now: Date): Promise<Usage>;
  /** Cost of `units` planned calls of an endpoint; for per-DOT kinds `dots` names them. */
  estimate(endpoint: Endpoint, plan: EstimatePlan, now: Date): Promise<Estimate>;
  spentMills(now: Date): Promise<number>;
  /** Write queued cache-hit rows and deferred settlements now; never rejects. */
  flush(): Promise<void>;
}

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

type Guard = <T>(fn: () => Promise<T>) => Promise<T>;

/** What every part of a ledger works with: the engine, the service mode and the write guard. */
interface Ledger {
  sql: SqlEngine;
  mode: ServiceMode;
  guard: Guard;
}

/** The DOTs of `call` already billed in its month (only those that decide its price are read). */
function billedFor(ledger: Ledger, ex: SqlExecutor, call: BillableCall & { cacheHit?: boolean }) {
  return billedDots(ex, ledger.mode, monthOf(call.at), call.endpoint, dotsToPrice(call));
}

/** What `call` would cost now, read through `ex`. */
async function quote(ledger: Ledger, ex: SqlExecutor, call: BillableCall): Promise<number> {
  return quoteMills(call, await billedFor(ledger, ex, call));
}

/**
 * Rows still `pending` when the ledger is created were left by a crash: they become `uncertain`
 * (PostgreSQL: only those older than the grace, other replicas' calls may be in flight). With
 * SQLite, the statement runs before this returns: the rows are recovered at creation.
 */
function recoverCrashedCalls({ sql, guard }: Ledger): void {
  const before =
    sql.kind === 'postgres' ? new Date(Date.now() - PENDING_GRACE_MS).toISOString() : '9999';
  guard(() => recoverPending(sql, before)).catch(() => {
    // The database refuses writes: the pending rows stay pending, which counts them as spent too.
  });
}

/**
 * Bill, once per month, the monitored DOTs carried over from earlier months (as the service
 * does). `rollOver` rejects with a storage_unavailable ProxyError when the rows cannot be
 * written; `tryRollOver`, for read paths (usage, estimate), answers without the rows then.
 */
function createRollover(ledger: Ledger) {
  const { sql, mode, guard } = ledger;
  const rolledOver = new Set<string>();
  async function rollOver(now: Date): Promise<void> {
    const month = monthOf(now);
    if (rolledOver.has(month)) return;
    await guard(() =>
      sql.transaction(async (tx) => {
        await lockMonth(sql.kind, tx, mode, month);
        const start = monthStart(now);
        const carried = await carriedDots(tx, mode, start.toISOString());
        const billed = await billedDots(tx, mode, month, 'monitoring/add', carried);
        await insertLedgerRows(tx, rolloverRows(mode, start, carried, billed, randomUUID()));
      }),
    );
    rolledOver.add(month);
  }
  async function tryRollOver(now: Date): Promise<void> {
    try {
      await rollOver(now);
    } catch {
      // retried by the next read or call; /readyz reports the database failing meanwhile
    }
  }
  return { rollOver, tryRollOver };
}

/**
 * The ledger's deferred writes: free cache-hit rows, batched off the hot path; and settlements,
 * releases and records of calls that happened, when the database refused them at once: kept in
 * order and retried; a billed call is never dropped (the bound is only a guard). Each write can
 * run twice (a batch retried after its first writes went through): they are idempotent.
 */
function createDeferredWrites({ sql, guard }: Ledger, db: Database.Database | undefined) {
  const freeRows = createSqlWriteBuffer<LedgerRow>(
    sql,
    db,
    (lines) => sql.transaction((tx) => insertLedgerBatch(tx, lines)),
    { name: 'free ledger rows' },
  );
  const deferred = createSqlWriteBuffer<() => Promise<unknown>>(
    sql,
    db,
    async (writes) => {
      for (const write of writes) await write();
    },
    { maxQueued: 1_000_000, name: 'ledger settlements' },
  );
  return {
    freeRows,
    /** Write now, or queue it to be retried: the ledger must hear of a call that happened. */
    async writeOrDefer(write: () => Promise<unknown>): Promise<void> {
      try {
        await guard(write);
      } catch {
        deferred.push(write);
      }
    },
    async flush(): Promise<void> {
      await freeRows.flush();
      await deferred.flush();
    },
  };
}

/**
 * Replace whatever rows `callId` has by the rows the call served, under the month's lock (so
 * the unique-DOT pricing sees every replica's rows). Running it again changes nothing.
 */
function writeServed(ledger: Ledger, callId: string, call: ServedCall): Promise<void> {
  const { sql, mode } = ledger;
  return sql.transaction(async (tx) => {
    await lockMonth(sql.kind, tx, mode, monthOf(call.at));
    await dropCall(tx, callId);
    await insertLedgerRows(tx, servedRows(mode, call, callId, await billedFor(ledger, tx, call)));
  });
}

/**
 * Check the budget and write the call's intent in one transaction under the month's lock: the
 * budget and the DOTs billed are read as every replica left them, and no other reservation can
 * come between the read and the write. `refusedAt` is the spend that refused it.
 */
function writeIntent(ledger: Ledger, call: Call, id: string, budgetMills: number | undefined) {
  const { sql, mode } = ledger;
  return sql.transaction(async (tx) => {
    await lockMonth(sql.kind, tx, mode, monthOf(call.at));
    const billed = await billedFor(ledger, tx, call);
    const cost = quoteMills(call, billed);
    const spent = await monthMills(tx, mode, monthOf(call.at));
    if (!fitsBudget(budgetMills, spent, cost)) return { cost, refusedAt: spent };
    await insertLedgerRows(tx, intentRows(mode, call, id, billed));
    return { cost, refusedAt: null };
  });
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
 *
 * The SQL is in spend-queries.ts, the pricing and budget decisions in spend-rules.ts.
 */
export function createSpendLedger(sql: SqlEngine, options: MeterOptions): SpendLedger {
  const { mode, db } = options;
  const guard: Guard = db ? guardWrites(sql, db) : (fn) => fn();
  const ledger: Ledger = { sql, mode, guard };
  const budgetMills =
    options.monthlyBudgetUsd === undefined ? undefined : usdToMills(options.monthlyBudgetUsd);
  recoverCrashedCalls(ledger);
  const { rollOver, tryRollOver } = createRollover(ledger);
  const writes = createDeferredWrites(ledger, db);
  /** Reservations whose intent is in the database (a free call writes none). */
  const written = new WeakSet<SpendReservation>();

  async function spentMills(now: Date): Promise<number> {
    await tryRollOver(now);
    return monthMills(sql, mode, monthOf(now));
  }

  async function reserve(call: Call): Promise<ReserveDecision> {
    await tryRollOver(call.at);
    const id = randomUUID();
    // Nothing to reserve (free endpoint, DOTs already billed this month): no write, so a database
    // refusing writes does not stop a free call; its rows are written after it.
    if ((await quote(ledger, sql, call)) === 0)
      return { ok: true, reservation: { id, costUsd: 0 } };
    // A priced call needs this month's carried-over rows in the spend (rejects when missing).
    await rollOver(call.at);
    const outcome = await guard(() => writeIntent(ledger, call, id, budgetMills));
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

  return {
    async check(call) {
      const cost = await quote(ledger, sql, call);
      const spent = needsSpend(budgetMills, cost) ? await spentMills(call.at) : 0;
      return budgetVerdict(budgetMills, cost, spent);
    },
    reserve,
    async settle(reservation, call) {
      await writes.writeOrDefer(async () => {
        await rollOver(call.at);
        await writeServed(ledger, reservation.id, { ...call, cacheHit: false });
      });
    },
    async release(reservation) {
      if (written.has(reservation)) {
        await writes.writeOrDefer(() => dropCall(sql, reservation.id));
      }
    },
    async markUncertain(reservation) {
      if (written.has(reservation)) {
        await writes.writeOrDefer(() => markUncertain(sql, reservation.id));
      }
    },
    async record(call) {
      // Cache hits are free rows on the hot path: queue them; priced calls are written at once.
      if (call.cacheHit) {
        await tryRollOver(call.at);
        for (const line of servedRows(mode, call, randomUUID(), new Set())) {
          writes.freeRows.push(line);
        }
        return;
      }
      const callId = randomUUID();
      await writes.writeOrDefer(async () => {
        await rollOver(call.at);
        await writeServed(ledger, callId, call);
      });
    },
    flush: writes.flush,
    spentMills,
    async usage(now) {
      await writes.flush();
      const spent = await spentMills(now);
      const month = monthOf(now);
      return usageReport(month, mode, await monthSums(sql, mode, month, spent), budgetMills);
    },
    async estimate(endpoint, plan, now) {
      await writes.flush();
      const spent = await spentMills(now);
      const dots = planDotsToPrice(endpoint, plan);
      const billed = await billedDots(sql, mode, monthOf(now), endpoint, dots);
      return estimateReport(endpoint, now, planUnits(endpoint, plan, billed), spent, budgetMills);
    },
  };
}
