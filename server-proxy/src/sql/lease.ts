/**
 * Leases: which process runs a piece of background work now (alert polling, one bulk job), so that
 * however many replicas share the database, the work runs once. A lease is a row (`lease` table,
 * both engines) naming its holder and when it lapses; a holder renews it well before then, and a
 * holder that dies simply stops renewing, so another takes the lease over once it has lapsed.
 *
 * The loop that holds a lease while it works is leased-worker.ts.
 *
 * Times are the replicas' own clocks (milliseconds since the epoch): replicas behind one balancer
 * are expected to keep NTP time, and the TTL (tens of seconds) dwarfs any drift between them.
 */
import { randomUUID } from 'node:crypto';
import type { SqlExecutor } from './engine.ts';

/** A name for this process as a lease holder: unique per start, readable in the table. */
export function newHolderId(label = 'proxy'): string {
  return `${label}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * Take the lease `name` for `holder` until `nowMs + ttlMs`, or renew it if `holder` has it. Answers
 * whether `holder` holds it now: false while another holder's lease has not lapsed.
 */
export async function acquireLease(
  sql: SqlExecutor,
  name: string,
  holder: string,
  ttlMs: number,
  nowMs: number = Date.now(),
): Promise<boolean> {
  const expires = nowMs + ttlMs;
  const { changes } = await sql.run(
    `INSERT INTO lease (name, holder, expires_ms) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_ms = excluded.expires_ms
     WHERE lease.holder = excluded.holder OR lease.expires_ms <= ?`,
    [name, holder, expires, nowMs],
  );
  return changes > 0;
}

/** Give the lease up now (when `holder` has it), so another replica need not wait for it to lapse. */
export async function releaseLease(sql: SqlExecutor, name: string, holder: string): Promise<void> {
  await sql.run('DELETE FROM lease WHERE name = ? AND holder = ?', [name, holder]);
}

/** Who holds `name` now, if anyone (a lapsed lease is nobody's). */
export async function leaseHolder(
  sql: SqlExecutor,
  name: string,
  nowMs: number = Date.now(),
): Promise<string | undefined> {
  const rows = await sql.query<{ holder: string }>(
    'SELECT holder FROM lease WHERE name = ? AND expires_ms > ?',
    [name, nowMs],
  );
  return rows[0]?.holder;
}

/** One named lease as a worker holds it (leased-worker.ts); the stores hand theirs out as this. */
export interface Lease {
  /** take or renew it for `holder` until `nowMs + ttlMs`; answers whether `holder` holds it */
  acquire(holder: string, ttlMs: number, nowMs?: number): Promise<boolean>;
  /** give it up now, when `holder` has it */
  release(holder: string): Promise<void>;
}

/** The lease `name` in the database `sql`. */
export function sqlLease(sql: SqlExecutor, name: string): Lease {
  return {
    acquire: (holder, ttlMs, nowMs) => acquireLease(sql, name, holder, ttlMs, nowMs),
    release: (holder) => releaseLease(sql, name, holder),
  };
}
