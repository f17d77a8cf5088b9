/**
 * The one retry rule of carrier-desk, used by the SPA (queries, bulk watch) and the proxy (its
 * calls to the service). Runtime-neutral: no Node built-ins, no DOM, no React.
 *
 * The service says: on 429 honour Retry-After, otherwise back off from 1 s, doubling, up to 30 s;
 * on 5xx retry after about 5 s. Every caller follows the same rule and differs only in the
 * parameters of its `RetryPolicy`:
 *
 * 1. Any 4xx but 429 is final: sending the same request again changes nothing.
 * 2. 429 is retried only when the policy waits out rate limits (`rateLimited` set), at most
 *    `rateLimited.maxRetries` times and while all its waits stay within `maxTotalWaitMs`;
 *    otherwise it is a state to show, with its Retry-After.
 * 3. 503 `upstream_unavailable` is final: it is the proxy's circuit breaker, which already knows
 *    the service is down and says when to ask again.
 * 4. Any other 503, and a network failure before the request left, were not served: retried.
 *    Another 5xx, or a network failure after sending, may have been served (and billed): retried
 *    only when `repeatSafe`.
 * 5. Failures (rules 4) are retried at most `maxRetries` times.
 * 6. The wait is Retry-After when given (never jittered: the server named it), else the back-off
 *    `baseDelayMs · 2^attempt` (or the fixed `failureDelayMs` for rule 4) capped at `maxDelayMs`,
 *    plus up to `jitter` of itself so clients do not retry in step. A wait longer than
 *    `maxWaitMs` is not waited out: the answer is passed on or shown.
 */

export interface RetryPolicy {
  /** retries of 5xx and network failures after the first attempt */
  maxRetries: number;
  /** 429 handling: undefined = never retried automatically (shown with its Retry-After) */
  rateLimited?: { maxRetries: number; maxTotalWaitMs: number } | undefined;
  /** first back-off step; doubles per attempt */
  baseDelayMs: number;
  /** cap of the back-off */
  maxDelayMs: number;
  /** fixed wait before retrying a 5xx or network failure without Retry-After (else the back-off) */
  failureDelayMs?: number | undefined;
  /** share of a computed wait added at random (0.2 → up to +20 %); 0 = none */
  jitter: number;
  /** longest single wait (Retry-After included) worth waiting for */
  maxWaitMs: number;
  /** may a request that may already have been served be sent again (no second bill, no effect)? */
  repeatSafe: boolean;
}

/** What went wrong with one attempt. */
export interface RetryFailure {
  /** HTTP status; undefined for a network failure (no answer) */
  status?: number | undefined;
  /** the error body's `code`, when there is one */
  code?: string | undefined;
  /** Retry-After in milliseconds, when the answer carried one */
  retryAfterMs?: number | undefined;
  /** for a network failure: may the request have reached the server? (default true) */
  sent?: boolean | undefined;
  /** retries of this kind (429 or failure) already made; 0 after the first attempt */
  attempt: number;
  /** total already waited on 429s for this request */
  waitedMs?: number | undefined;
}

export type RetryDecision = { retry: false } | { retry: true; delayMs: number };

/** The service's schedule: 1 s, doubling, up to 30 s; 5xx after about 5 s. */
export const SERVICE_BACKOFF = { baseDelayMs: 1_000, maxDelayMs: 30_000, failureDelayMs: 5_000 };

/**
 * `Retry-After` (delta-seconds or an HTTP date) as milliseconds from `now`; a date in the past is
 * 0. Undefined when absent or unreadable ("soon", "-5", "1.5").
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // an HTTP date names a weekday and a month; a bare number with a sign or a dot is not valid
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The back-off before retry number `attempt + 1`: doubling from the base, capped, jittered. */
export function backoffDelayMs(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'jitter'>,
  random: () => number = Math.random,
): number {
  const base = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(base * (1 + policy.jitter * random()));
}

/** How long to wait before sending again (whether or not the rule allows it). */
export function retryDelayMs(
  failure: RetryFailure,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (failure.retryAfterMs !== undefined) return failure.retryAfterMs;
  if (failure.status !== 429 && policy.failureDelayMs !== undefined) {
    const fixed = Math.min(policy.failureDelayMs, policy.maxDelayMs);
    return Math.round(fixed * (1 + policy.jitter * random()));
  }
  return backoffDelayMs(failure.attempt, policy, random);
}

/** Rules 1-4: may this failure be sent again at all (attempts and waits aside)? */
export function retryable(failure: RetryFailure, policy: RetryPolicy): boolean {
  const { status } = failure;
  if (status === undefined) return failure.sent === false || policy.repeatSafe;
  if (status === 429) return policy.rateLimited !== undefined;
  if (status === 503) return failure.code !== 'upstream_unavailable';
  if (status >= 500) return policy.repeatSafe;
  return false;
}

/** The rule above, for one failed attempt. */
export function retryDecision(
  failure: RetryFailure,
  policy: RetryPolicy,
  random: () => number = Math.random,
): RetryDecision {
  if (!retryable(failure, policy)) return { retry: false };
  const limited = failure.status === 429 ? policy.rateLimited : undefined;
  if (failure.attempt >= (limited ? limited.maxRetries : policy.maxRetries))
    return { retry: false };
  const delayMs = retryDelayMs(failure, policy, random);
  if (delayMs > policy.maxWaitMs) return { retry: false };
  if (limited && (failure.waitedMs ?? 0) + delayMs > limited.maxTotalWaitMs)
    return { retry: false };
  return { retry: true, delayMs };
}
