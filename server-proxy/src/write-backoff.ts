/**
 * The one back-off of database writes. A writer that meets a refusing database (SQLite's lock,
 * read-only or missing file; a PostgreSQL that does not answer) notes the failure here: writes are
 * then refused at once until the delay has passed (250 ms, doubling per failure, at most 30 s), and
 * a retry timer calls the writer back when it has, so rows kept in memory go out without another
 * request. A success ends the back-off. Used by the proxy file's Storage (storage.ts) and by the
 * PostgreSQL write buffers (governance/write-buffer.ts).
 */
import { backoffDelayMs } from '../../src/lib/service/retry.ts';

const WRITE_RETRY_START_MS = 250;
export const WRITE_RETRY_MAX_MS = 30_000;

/** The wait after the `failures`-th failure in a row (1-based): start, doubling, at most max. */
export function writeRetryDelayMs(
  failures: number,
  startMs = WRITE_RETRY_START_MS,
  maxMs = WRITE_RETRY_MAX_MS,
): number {
  // the shared doubling (no jitter: one writer per database file or pool)
  const attempt = Math.min(Math.max(failures, 1) - 1, 16);
  return backoffDelayMs(attempt, { baseDelayMs: startMs, maxDelayMs: maxMs, jitter: 0 });
}

export interface WriteBackoffOptions {
  startMs?: number;
  maxMs?: number;
  now?: () => number;
}

export class WriteBackoff {
  private count = 0;
  private nextAttemptAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly startMs: number;
  private readonly maxMs: number;
  private readonly now: () => number;

  /** `retry` runs on the timer (after a failure's delay, or when `retryIn` asks); it must not throw. */
  constructor(
    private readonly retry: () => void,
    {
      startMs = WRITE_RETRY_START_MS,
      maxMs = WRITE_RETRY_MAX_MS,
      now = Date.now,
    }: WriteBackoffOptions = {},
  ) {
    this.startMs = startMs;
    this.maxMs = maxMs;
    this.now = now;
  }

  /** the last write failed (until one succeeds) */
  get failing(): boolean {
    return this.count > 0;
  }

  /** failures in a row */
  get failures(): number {
    return this.count;
  }

  /** May a write be tried now (no back-off pending)? */
  get writable(): boolean {
    return this.count === 0 || this.now() >= this.nextAttemptAt;
  }

  /** Milliseconds until a write may be tried (0 when it may now). */
  get waitMs(): number {
    return this.writable ? 0 : this.nextAttemptAt - this.now();
  }

  /** A retry is scheduled on the timer. */
  get retryScheduled(): boolean {
    return this.timer !== undefined;
  }

  /**
   * Count a failure: writes wait the next delay (or `delayMs` when given: the longest wait for a
   * failure no early retry can mend), and the retry timer is set for then. Answers the delay.
   */
  failed(delayMs?: number): number {
    this.count += 1;
    const delay = delayMs ?? writeRetryDelayMs(this.count, this.startMs, this.maxMs);
    this.nextAttemptAt = this.now() + delay;
    this.retryIn(delay);
    return delay;
  }

  /** A write went through: the back-off ends (and a pending retry with it). Answers whether it was failing. */
  succeeded(): boolean {
    const was = this.count > 0;
    this.count = 0;
    this.nextAttemptAt = 0;
    this.stop();
    return was;
  }

  /** Call the writer back in `ms` (replacing a retry already scheduled). */
  retryIn(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.retry();
      },
      Math.max(0, ms),
    ).unref();
  }

  /** Cancel the retry timer (the database is closing). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
