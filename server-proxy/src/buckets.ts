import type { Endpoint } from './context.ts';

const WINDOW_MS = 60_000;
/** Slack on top of the minute, so our departure clock never beats the service's arrival clock. */
const SAFETY_MS = 250;

/**
 * A granted slot (wait `waitMs`, then send), or a refusal. `unavailable` marks a refusal because the
 * shared limiter (Redis) could not be asked: nothing may be sent, since the budget is unknown.
 */
export type Reservation =
  { ok: true; waitMs: number } | { ok: false; retryAfterSeconds: number; unavailable?: true };

/**
 * What the upstream client needs of its limiter: the in-process EndpointBuckets below, or the
 * Redis-held buckets shared by several replicas (team/redis-buckets.ts).
 */
export interface UpstreamBuckets {
  reserve(endpoint: Endpoint): Reservation | Promise<Reservation>;
  /** never rejects: a pause that cannot be recorded is dropped */
  pauseUntil(endpoint: Endpoint, until: number): void | Promise<void>;
}

/**
 * A token bucket of `perMinute` tokens in which each spent token comes back one minute after it was
 * spent. That is exactly the service's rule ("N requests in any 60 s"), so a burst that empties the
 * bucket never trips the upstream limit. Requests reserve the next free slot in FIFO order and wait
 * for it; a slot further away than `maxWaitMs` is refused at once.
 */
export class RateBucket {
  /** Departure times granted (past and future), oldest first; only the last `perMinute` matter. */
  private readonly slots: number[] = [];
  private pausedUntil = 0;

  constructor(
    readonly perMinute: number,
    private readonly maxWaitMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reserve a departure slot: how long to wait, or a refusal with the seconds until one frees. */
  reserve(): Reservation {
    const now = this.now();
    this.prune(now);
    const slot = this.nextSlot(now);
    const waitMs = slot - now;
    if (waitMs > this.maxWaitMs) {
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    this.slots.push(slot);
    return { ok: true, waitMs };
  }

  /** The service answered 429: send nothing more before `until` (epoch ms). */
  pauseUntil(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }

  private nextSlot(now: number): number {
    let slot = Math.max(now, this.pausedUntil, this.slots.at(-1) ?? 0);
    if (this.slots.length >= this.perMinute) {
      const freedBy = this.slots[this.slots.length - this.perMinute] ?? 0;
      slot = Math.max(slot, freedBy + WINDOW_MS + SAFETY_MS);
    }
    return slot;
  }

  private prune(now: number): void {
    while (this.slots.length > 0 && (this.slots[0] ?? 0) <= now - WINDOW_MS - SAFETY_MS) {
      this.slots.shift();
    }
  }
}

/**
 * One bucket per endpoint with a limit (limit 0 or no limits: no bucket). An upstream 429 pauses its
 * endpoint whether or not it has a bucket: the service said when to come back.
 */
export class EndpointBuckets implements UpstreamBuckets {
  private readonly buckets = new Map<Endpoint, RateBucket>();
  private readonly pauses = new Map<Endpoint, number>();

  constructor(
    limits: Record<Endpoint, number> | undefined,
    private readonly maxWaitMs: number,
    private readonly now: () => number = Date.now,
  ) {
    for (const [endpoint, perMinute] of Object.entries(limits ?? {}) as [Endpoint, number][]) {
      if (perMinute > 0) this.buckets.set(endpoint, new RateBucket(perMinute, maxWaitMs, now));
    }
  }

  reserve(endpoint: Endpoint): Reservation {
    const bucket = this.buckets.get(endpoint);
    if (bucket) return bucket.reserve();
    const waitMs = Math.max(0, (this.pauses.get(endpoint) ?? 0) - this.now());
    if (waitMs > this.maxWaitMs) return { ok: false, retryAfterSeconds: Math.ceil(waitMs / 1000) };
    return { ok: true, waitMs };
  }

  pauseUntil(endpoint: Endpoint, until: number): void {
    const bucket = this.buckets.get(endpoint);
    if (bucket) bucket.pauseUntil(until);
    else this.pauses.set(endpoint, Math.max(this.pauses.get(endpoint) ?? 0, until));
  }
}
