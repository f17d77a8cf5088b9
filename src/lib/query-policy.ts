/**
 * The one place that decides how server state is cached, and the SPA's parameters of the one retry
 * rule (src/lib/service/retry.ts), which the proxy follows too:
 *
 * - 4xx answers are final: retrying a bad request, a bad key or a missing carrier changes nothing.
 * - 429 is a state to show ("rate limited, try again in N s"), never a retry loop: live keys allow
 *   5 profile calls a minute, so automatic retries would only burn that budget.
 * - 5xx and network failures are retried a couple of times with back-off, honouring Retry-After
 *   (one over 30 s is shown instead), except 503 `upstream_unavailable`: the proxy's circuit
 *   breaker is open, so it already knows the service is down and says when to ask again. That is a
 *   state to show, with a countdown, like 429.
 * - Writes (mutations) are never retried automatically: monitoring changes are billed.
 * - No refetch on window focus or reconnect: views refetch when their data is stale and in use.
 * - When the proxy itself cannot be reached, the client polls `/healthz` (while it is mounted) and,
 *   once the proxy answers, refetches the queries in use that failed with a network error or a 5xx:
 *   a page left showing "Cannot reach the server" recovers without a click.
 *
 * Plain code (no React Query): the client itself, built from these defaults and rules, is
 * src/entities/query-client.ts.
 */
import { ApiError, retryFailureOf } from './api-client.ts';
import {
  retryDecision,
  retryDelayMs as retryDelay,
  SERVICE_BACKOFF,
  type RetryPolicy,
} from './service/retry.ts';

/** Retries after the first failure of a query, for 5xx and network failures only. */
export const MAX_QUERY_RETRIES = 2;

/**
 * The SPA's parameters of the one retry rule (src/lib/service/retry.ts): 429 is never retried (a
 * countdown is shown), the service's back-off without jitter (one tab, behind the proxy's queue, is
 * no herd), and a Retry-After over 30 s is shown to the user instead of waited out. Queries are
 * reads, so a repeat is safe: the proxy itself refuses to repeat a call that could bill twice.
 */
const QUERY_RETRY_POLICY: RetryPolicy = {
  maxRetries: MAX_QUERY_RETRIES,
  rateLimited: undefined,
  baseDelayMs: SERVICE_BACKOFF.baseDelayMs,
  maxDelayMs: SERVICE_BACKOFF.maxDelayMs,
  jitter: 0,
  maxWaitMs: SERVICE_BACKOFF.maxDelayMs,
  repeatSafe: true,
};

/** Carrier data is refreshed about four times a day upstream and profile calls cost money. */
const DEFAULT_STALE_TIME_MS = 5 * 60_000;
/** Keep unused results around so going back to a carrier does not bill or queue a second call. */
const DEFAULT_GC_TIME_MS = 30 * 60_000;

export function isRateLimited(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 429;
}

/** Seconds the server asked us to wait, when it said so. */
export function retryAfterSeconds(error: unknown): number | undefined {
  return error instanceof ApiError ? error.retryAfter : undefined;
}

/** The proxy's circuit breaker for the service is open (503 `upstream_unavailable`). */
export function isUpstreamUnavailable(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 503 && error.code === 'upstream_unavailable';
}

/** A network failure or a 5xx: what a recovered server fixes. */
export function isTransient(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.kind === 'network' || error.status >= 500);
}

export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  const failure = retryFailureOf(error, failureCount);
  return failure !== undefined && retryDecision(failure, QUERY_RETRY_POLICY).retry;
}

/** Retry-After when given, else 1 s, 2 s, 4 s … capped at 30 s. `failureCount` is 0 after the first failure. */
export function retryDelayMs(failureCount: number, error: unknown): number {
  const failure = retryFailureOf(error, failureCount) ?? { attempt: failureCount };
  return Math.min(retryDelay(failure, QUERY_RETRY_POLICY), QUERY_RETRY_POLICY.maxWaitMs);
}

/** The query client's defaults (src/entities/query-client.ts builds the client from them). */
export const QUERY_CLIENT_DEFAULTS = {
  queries: {
    staleTime: DEFAULT_STALE_TIME_MS,
    gcTime: DEFAULT_GC_TIME_MS,
    retry: shouldRetryQuery,
    retryDelay: retryDelayMs,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  },
  mutations: {
    retry: false,
  },
} as const;

/** First wait between liveness polls while the proxy is unreachable; doubles up to the cap. */
const HEALTH_POLL_BASE_MS = 2_000;
const HEALTH_POLL_MAX_MS = 10_000;

/** Delay before the `attempt`-th (0-based) liveness poll. */
export function healthPollDelayMs(attempt: number): number {
  return Math.min(HEALTH_POLL_BASE_MS * 2 ** attempt, HEALTH_POLL_MAX_MS);
}
