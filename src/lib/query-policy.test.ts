import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import {
  isRateLimited,
  MAX_QUERY_RETRIES,
  retryAfterSeconds,
  retryDelayMs,
  shouldRetryQuery,
} from './query-policy.ts';

function httpError(status: number, retryAfter?: number): ApiError {
  return new ApiError({ kind: 'http', status, message: `status ${status}`, retryAfter });
}

const networkError = new ApiError({ kind: 'network', status: 0, message: 'offline' });

describe('shouldRetryQuery', () => {
  it.each([400, 401, 402, 403, 404, 422])('never retries a %i', (status) => {
    expect(shouldRetryQuery(0, httpError(status))).toBe(false);
  });

  it('never retries a 429, even when the server names a short wait', () => {
    expect(shouldRetryQuery(0, httpError(429, 1))).toBe(false);
  });

  it.each([500, 502, 503])('retries a %i a limited number of times', (status) => {
    const error = httpError(status);
    const decisions = [0, 1, 2, 3].map((failureCount) => shouldRetryQuery(failureCount, error));
    expect(decisions).toEqual([true, true, false, false]);
    expect(decisions.filter(Boolean)).toHaveLength(MAX_QUERY_RETRIES);
  });

  it('retries network failures like 5xx', () => {
    expect(shouldRetryQuery(0, networkError)).toBe(true);
    expect(shouldRetryQuery(MAX_QUERY_RETRIES, networkError)).toBe(false);
  });

  it("does not retry the proxy's open circuit (503 upstream_unavailable): the view counts down", () => {
    const open = new ApiError({
      kind: 'http',
      status: 503,
      code: 'upstream_unavailable',
      message: 'circuit open',
      retryAfter: 5,
    });
    expect(shouldRetryQuery(0, open)).toBe(false);
    expect(shouldRetryQuery(0, httpError(503, 5))).toBe(true);
  });

  it('gives up at once when Retry-After asks for longer than the back-off cap', () => {
    expect(shouldRetryQuery(0, httpError(503, 5))).toBe(true);
    expect(shouldRetryQuery(0, httpError(503, 120))).toBe(false);
  });

  it('does not retry errors that are not transient server answers', () => {
    expect(shouldRetryQuery(0, new TypeError('cannot read x of undefined'))).toBe(false);
    expect(
      shouldRetryQuery(0, new ApiError({ kind: 'invalid-body', status: 200, message: 'x' })),
    ).toBe(false);
  });
});

describe('retryDelayMs', () => {
  it('doubles from one second without Retry-After, capped at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, httpError(503)))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });

  it('waits as long as Retry-After says', () => {
    expect(retryDelayMs(0, httpError(503, 5))).toBe(5_000);
    expect(retryDelayMs(3, httpError(503, 0))).toBe(0);
  });
});

describe('rate-limit helpers', () => {
  it('recognise a 429 and expose its wait', () => {
    const limited = httpError(429, 12);
    expect(isRateLimited(limited)).toBe(true);
    expect(retryAfterSeconds(limited)).toBe(12);
    expect(isRateLimited(httpError(503, 12))).toBe(false);
    expect(isRateLimited(new Error('429'))).toBe(false);
    expect(retryAfterSeconds(new Error('x'))).toBeUndefined();
  });
});
