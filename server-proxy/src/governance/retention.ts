import type Database from 'better-sqlite3';
import type { SqlEngine } from '../sql/engine.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { createTenderCheckStore } from '../tender/store.ts';

/**
 * How long the proxy keeps its own records (docs/proxy-security.md, "Retention"). Defaults: audit
 * 365 days, free ledger rows (cache hits, free repeats) 90 days, priced ledger rows 24 months.
 */
export interface RetentionPolicy {
  auditDays: number;
  freeLedgerDays: number;
  pricedLedgerMonths: number;
  /** tender checks keep the phone, e-mail and contact name of an offer this long (default 90) */
  tenderContactDays?: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = {
  auditDays: 365,
  freeLedgerDays: 90,
  pricedLedgerMonths: 24,
  tenderContactDays: 90,
};

export interface PruneResult {
  auditRows: number;
  freeLedgerRows: number;
  pricedLedgerRows: number;
  /** tender checks whose phone, e-mail and contact name were blanked */
  tenderChecksRedacted: number;
}

const DAY_MS = 86_400_000;
/** Rows deleted per transaction, so the write lock is never held for long. */
const CHUNK = 5000;

function monthStartUtc(now: Date, monthsBack = 0): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, 1));
}

/** The earlier of two instants, as the ISO text the tables store. */
function earlier(a: Date, b: Date): string {
  return (a < b ? a : b).toISOString();
}

/** Where the records are: the audit log and the ledger in `sql`, else in the proxy's SQLite file. */
export interface RetentionStores {
  db: Database.Database;
  /** their engine (PostgreSQL with DATABASE_URL); absent, the SQLite file */
  sql?: SqlEngine;
}

const AUDIT_OLD = `DELETE FROM audit_log WHERE id IN (
  SELECT id FROM audit_log WHERE at < ? ORDER BY id LIMIT ${CHUNK})`;
const FREE_OLD = `DELETE FROM spend_ledger WHERE id IN (
  SELECT id FROM spend_ledger
  WHERE at < ? AND (cache_hit = 1 OR (price_mills = 0
    AND endpoint NOT IN ('monitoring/add', 'monitoring/remove')))
  ORDER BY id LIMIT ${CHUNK})`;
const PRICED_OLD = `DELETE FROM spend_ledger WHERE id IN (
  SELECT id FROM spend_ledger AS old
  WHERE at < ? AND NOT (
    old.cache_hit = 0 AND old.endpoint IN ('monitoring/add', 'monitoring/remove')
    AND NOT EXISTS (
      SELECT 1 FROM spend_ledger AS later
      WHERE later.mode = old.mode AND later.dot = old.dot AND later.cache_hit = 0
        AND later.endpoint IN ('monitoring/add', 'monitoring/remove')
        AND (later.at > old.at OR (later.at = old.at AND later.id > old.id))))
  ORDER BY id LIMIT ${CHUNK})`;

/** Run a chunked DELETE until it deletes less than a chunk; how many rows it deleted. */
async function drain(sql: SqlEngine, statement: string, cutoff: string): Promise<number> {
  let total = 0;
  for (;;) {
    const { changes } = await sql.run(statement, [cutoff]);
    total += changes;
    if (changes < CHUNK) return total;
  }
}

/** Blank the people of tender checks older than the setting, a batch at a time. */
async function redactTenderChecks(
  sql: SqlEngine,
  policy: RetentionPolicy,
  now: Date,
): Promise<number> {
  const days = policy.tenderContactDays ?? DEFAULT_RETENTION.tenderContactDays ?? 90;
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  const store = createTenderCheckStore(sql);
  let total = 0;
  for (;;) {
    const done = await store.redactOlderThan(cutoff, now);
    total += done;
    if (done === 0) return total;
  }
}

/**
 * Delete what the policy no longer keeps. The current month's ledger is never touched (the budget,
 * usage and unique-DOT billing read it), and the latest monitoring add/remove of every DOT is kept
 * whatever its age, since the next month's monitoring carry-over is derived from it. On a shared
 * PostgreSQL every replica prunes; the deletes are the same, so it does not matter which goes first.
 */
export async function pruneRecords(
  stores: RetentionStores,
  policy: RetentionPolicy,
  now: Date,
): Promise<PruneResult> {
  const thisMonth = monthStartUtc(now);
  const auditCutoff = new Date(now.getTime() - policy.auditDays * DAY_MS).toISOString();
  const freeCutoff = earlier(new Date(now.getTime() - policy.freeLedgerDays * DAY_MS), thisMonth);
  const pricedCutoff = earlier(monthStartUtc(now, policy.pricedLedgerMonths), thisMonth);
  const sql = stores.sql ?? createSqliteEngine(stores.db);
  return {
    auditRows: await drain(sql, AUDIT_OLD, auditCutoff),
    freeLedgerRows: await drain(sql, FREE_OLD, freeCutoff),
    pricedLedgerRows: await drain(sql, PRICED_OLD, pricedCutoff),
    tenderChecksRedacted: await redactTenderChecks(sql, policy, now),
  };
}

export interface RetentionJob {
  /** Prune now; errors (a locked or read-only database) are reported, never thrown. */
  runOnce(): Promise<PruneResult | undefined>;
  stop(): void;
}

/**
 * Prune at start-up and then every `everyMs` (default 6 h). A failing run (the database is locked
 * by a backup, read-only, or PostgreSQL unreachable) is logged and tried again at the next tick;
 * it never stops the proxy. Runs take turns.
 */
export function startRetention(
  stores: RetentionStores,
  policy: RetentionPolicy,
  options: {
    now?: () => Date;
    everyMs?: number;
    onError?: (err: unknown) => void;
    onPruned?: (result: PruneResult) => void;
  } = {},
): RetentionJob {
  const now = options.now ?? (() => new Date());
  let stopped = false;
  let running: Promise<PruneResult | undefined> = Promise.resolve(undefined);
  const prune = async () => {
    if (stopped || !stores.db.open) return undefined;
    try {
      const result = await pruneRecords(stores, policy, now());
      options.onPruned?.(result);
      return result;
    } catch (err) {
      options.onError?.(err);
      return undefined;
    }
  };
  const runOnce = () => {
    running = running.then(prune);
    return running;
  };
  void runOnce();
  const timer = setInterval(() => void runOnce(), options.everyMs ?? 6 * 3_600_000);
  timer.unref();
  return {
    runOnce,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
