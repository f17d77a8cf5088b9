import type Database from 'better-sqlite3';

/**
 * How long the proxy keeps its own records (docs/proxy-security.md, "Retention"). Defaults: audit
 * 365 days, free ledger rows (cache hits, free repeats) 90 days, priced ledger rows 24 months.
 */
export interface RetentionPolicy {
  auditDays: number;
  freeLedgerDays: number;
  pricedLedgerMonths: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = {
  auditDays: 365,
  freeLedgerDays: 90,
  pricedLedgerMonths: 24,
};

export interface PruneResult {
  auditRows: number;
  freeLedgerRows: number;
  pricedLedgerRows: number;
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

/**
 * Delete what the policy no longer keeps. The current month's ledger is never touched (the budget,
 * usage and unique-DOT billing read it), and the latest monitoring add/remove of every DOT is kept
 * whatever its age, since the next month's monitoring carry-over is derived from it.
 */
export function pruneRecords(
  db: Database.Database,
  policy: RetentionPolicy,
  now: Date,
): PruneResult {
  const thisMonth = monthStartUtc(now);
  const auditCutoff = new Date(now.getTime() - policy.auditDays * DAY_MS).toISOString();
  const freeCutoff = earlier(new Date(now.getTime() - policy.freeLedgerDays * DAY_MS), thisMonth);
  const pricedCutoff = earlier(monthStartUtc(now, policy.pricedLedgerMonths), thisMonth);

  const audit = db.prepare(
    `DELETE FROM audit_log WHERE id IN (
       SELECT id FROM audit_log WHERE at < ? ORDER BY id LIMIT ${CHUNK})`,
  );
  const free = db.prepare(
    `DELETE FROM spend_ledger WHERE id IN (
       SELECT id FROM spend_ledger
       WHERE at < ? AND (cache_hit = 1 OR (price_mills = 0
         AND endpoint NOT IN ('monitoring/add', 'monitoring/remove')))
       ORDER BY id LIMIT ${CHUNK})`,
  );
  const priced = db.prepare(
    `DELETE FROM spend_ledger WHERE id IN (
       SELECT id FROM spend_ledger AS old
       WHERE at < ? AND NOT (
         old.cache_hit = 0 AND old.endpoint IN ('monitoring/add', 'monitoring/remove')
         AND NOT EXISTS (
           SELECT 1 FROM spend_ledger AS later
           WHERE later.mode = old.mode AND later.dot = old.dot AND later.cache_hit = 0
             AND later.endpoint IN ('monitoring/add', 'monitoring/remove')
             AND (later.at > old.at OR (later.at = old.at AND later.id > old.id))))
       ORDER BY id LIMIT ${CHUNK})`,
  );
  const drain = (statement: Database.Statement<[string]>, cutoff: string): number => {
    let total = 0;
    for (;;) {
      const { changes } = statement.run(cutoff);
      total += changes;
      if (changes < CHUNK) return total;
    }
  };
  return {
    auditRows: drain(audit, auditCutoff),
    freeLedgerRows: drain(free, freeCutoff),
    pricedLedgerRows: drain(priced, pricedCutoff),
  };
}

export interface RetentionJob {
  /** Prune now; errors (a locked or read-only database) are reported, never thrown. */
  runOnce(): PruneResult | undefined;
  stop(): void;
}

/**
 * Prune at start-up and then every `everyMs` (default 6 h). A failing run (the database is locked
 * by a backup, or read-only) is logged and tried again at the next tick; it never stops the proxy.
 */
export function startRetention(
  db: Database.Database,
  policy: RetentionPolicy,
  options: {
    now?: () => Date;
    everyMs?: number;
    onError?: (err: unknown) => void;
    onPruned?: (result: PruneResult) => void;
  } = {},
): RetentionJob {
  const now = options.now ?? (() => new Date());
  const runOnce = () => {
    if (!db.open) return undefined;
    try {
      const result = pruneRecords(db, policy, now());
      options.onPruned?.(result);
      return result;
    } catch (err) {
      options.onError?.(err);
      return undefined;
    }
  };
  runOnce();
  const timer = setInterval(runOnce, options.everyMs ?? 6 * 3_600_000);
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
