/**
 * What keeps an outage of the service from turning into a storm of upstream calls: a circuit
 * breaker and a retry budget per endpoint.
 *
 * - **Breaker.** After `failureThreshold` consecutive failed attempts (an upstream 5xx, a network
 *   failure, a timeout, an unreadable answer) the endpoint's circuit opens for `openMs`: requests
 *   fail at once with 503 `upstream_unavailable` and `Retry-After`, nothing is sent. When that time
 *   is up, one request goes through as a probe (half-open) while the others still fail fast; its
 *   success closes the circuit, its failure opens it again for another `openMs`.
 * - **Retry budget.** Every first attempt adds `retryRatio` of a token (up to `retryReserve`); every
 *   retry spends a whole one, and is not made when there is none. Over time retries stay at most
 *   `retryRatio` of first attempts (plus the reserve), however many requests fail at once.
 */

export interface CircuitSettings {
  /** consecutive failed attempts that open the circuit */
  failureThreshold: number;
  /** how long an open circuit refuses before letting one probe through */
  openMs: number;
  /** retry tokens earned per first attempt */
  retryRatio: number;
  /** retry tokens at start and at most */
  retryReserve: number;
}

export const DEFAULT_CIRCUIT_SETTINGS: CircuitSettings = {
  failureThreshold: 5,
  openMs: 30_000,
  retryRatio: 0.2,
  retryReserve: 10,
};

/** While a probe is out, the others are told to come back after this long. */
const PROBE_RETRY_AFTER_MS = 5_000;

export type Admission = { ok: true } | { ok: false; retryAfterMs: number };

/** One endpoint's breaker and retry budget. */
export class Circuit {
  private failures = 0;
  private openUntil = 0;
  private probeSince = 0;
  private state: 'closed' | 'open' | 'half-open' = 'closed';
  private tokens: number;

  constructor(
    private readonly settings: CircuitSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = settings.retryReserve;
  }

  /** May an attempt be sent now? Every admitted attempt must end in `succeeded` or `failed`. */
  admit(): Admission {
    if (this.state === 'closed') return { ok: true };
    // a probe that never reported back (it should not happen) holds the circuit for `openMs` at most
    const refusal = this.refusing();
    if (!refusal.ok) return refusal;
    this.state = 'half-open';
    this.probeSince = this.now();
    return { ok: true };
  }

  /** Would `admit` refuse at once? Does not change the state (checked before queueing). */
  refusing(): Admission {
    if (this.state === 'closed') return { ok: true };
    const now = this.now();
    if (this.state === 'half-open' && now - this.probeSince < this.settings.openMs) {
      return { ok: false, retryAfterMs: Math.min(PROBE_RETRY_AFTER_MS, this.settings.openMs) };
    }
    const left = this.openUntil - now;
    return this.state === 'open' && left > 0 ? { ok: false, retryAfterMs: left } : { ok: true };
  }

  /** The service answered (anything but a 5xx): close the circuit. */
  succeeded(): void {
    this.failures = 0;
    this.state = 'closed';
  }

  /** The attempt failed (5xx, network, timeout, unreadable answer). */
  failed(): void {
    this.failures += 1;
    if (this.state === 'half-open' || this.failures >= this.settings.failureThreshold) {
      this.state = 'open';
      this.openUntil = this.now() + this.settings.openMs;
    }
  }

  /** A first attempt earns part of a retry. */
  earn(): void {
    this.tokens = Math.min(this.settings.retryReserve, this.tokens + this.settings.retryRatio);
  }

  /** Take a retry token; false when the budget is spent. */
  spendRetry(): boolean {
    if (this.tokens < 1 - 1e-9) return false; // 5 × 0.2 is a whole token, rounding aside
    this.tokens -= 1;
    return true;
  }

  get isOpen(): boolean {
    return this.state !== 'closed';
  }
}

/** One circuit per key (the upstream client keys them by endpoint). */
export class Circuits<K> {
  private readonly circuits = new Map<K, Circuit>();

  constructor(
    private readonly settings: CircuitSettings = DEFAULT_CIRCUIT_SETTINGS,
    private readonly now: () => number = Date.now,
  ) {}

  of(key: K): Circuit {
    let circuit = this.circuits.get(key);
    if (!circuit) {
      circuit = new Circuit(this.settings, this.now);
      this.circuits.set(key, circuit);
    }
    return circuit;
  }
}
