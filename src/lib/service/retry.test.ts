import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  parseRetryAfter,
  retryDecision,
  retryDelayMs,
  SERVICE_BACKOFF,
  type RetryPolicy,
} from './retry.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');

/** A policy with every switch on, as the proxy's for a call that cannot bill twice. */
const policy: RetryPolicy = {
  maxRetries: 2,
  rateLimited: { maxRetries: 5, maxTotalWaitMs: 10_000 },
  baseDelayMs: SERVICE_BACKOFF.baseDelayMs,
  maxDelayMs: SERVICE_BACKOFF.maxDelayMs,
  jitter: 0.2,
  maxWaitMs: 30_000,
  repeatSafe: true,
};
const noJitter = () => 0;

describe('parseRetryAfter', () => {
  it('reads delta-seconds as milliseconds', () => {
    expect(parseRetryAfter('7', NOW)).toBe(7_000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
  });

  it('reads an HTTP date as the time left until it', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 12:00:30 GMT', NOW)).toBe(30_000);
  });

  it('reads a date in the past as no wait', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 11:00:00 GMT', NOW)).toBe(0);
  });

  it.each([undefined, null, '', '  ', 'soon', '-5', '1.5', '+3', 'Someday, 99 Foo'])(
    'ignores %j',
    (value) => {
      expect(parseRetryAfter(value, NOW)).toBeUndefined();
    },
  );
});

describe('backoffDelayMs', () => {
  it('doubles from 1 s and stops at the 30 s cap', () => {
    const schedule = [0, 1, 2, 3, 4, 5, 6, 20].map((n) => backoffDelayMs(n, policy, noJitter));
    expect(schedule).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('adds at most the jitter share, never less than the base', () => {
    for (const draw of [0, 0.25, 0.5, 0.999]) {
      const delay = backoffDelayMs(2, policy, () => draw);
      expect(delay).toBeGreaterThanOrEqual(4_000);
      expect(delay).toBeLessThanOrEqual(4_800);
    }
    expect(backoffDelayMs(2, policy, () => 0.999)).toBe(4_799);
    expect(backoffDelayMs(9, policy, () => 0.999)).toBeLessThanOrEqual(36_000);
    expect(backoffDelayMs(2, { ...policy, jitter: 0 }, () => 0.999)).toBe(4_000);
  });
});

describe('retryDelayMs', () => {
  it('waits exactly what Retry-After says, without jitter', () => {
    expect(retryDelayMs({ status: 429, retryAfterMs: 3_000, attempt: 4 }, policy, () => 0.9)).toBe(
      3_000,
    );
  });

  it('uses the fixed failure delay for a 5xx, the back-off for a 429', () => {
    const fixed = { ...policy, failureDelayMs: 5_000 };
    expect(retryDelayMs({ status: 503, attempt: 3 }, fixed, noJitter)).toBe(5_000);
    expect(retryDelayMs({ status: 429, attempt: 3 }, fixed, noJitter)).toBe(8_000);
    expect(retryDelayMs({ status: 503, attempt: 3 }, policy, noJitter)).toBe(8_000);
  });
});

describe('retryDecision: the 429 and 503 rule', () => {
  it('never retries a 4xx other than 429', () => {
    for (const status of [400, 401, 402, 403, 404, 409, 422]) {
      expect(retryDecision({ status, attempt: 0 }, policy)).toEqual({ retry: false });
    }
  });

  it('waits out a 429 only when the policy says so, honouring Retry-After', () => {
    expect(retryDecision({ status: 429, retryAfterMs: 2_000, attempt: 0 }, policy)).toEqual({
      retry: true,
      delayMs: 2_000,
    });
    const shows = { ...policy, rateLimited: undefined };
    expect(retryDecision({ status: 429, retryAfterMs: 1_000, attempt: 0 }, shows)).toEqual({
      retry: false,
    });
  });

  it('stops waiting out 429s at their own count and total wait', () => {
    expect(retryDecision({ status: 429, attempt: 5 }, policy).retry).toBe(false);
    expect(retryDecision({ status: 429, attempt: 3 }, policy, noJitter).retry).toBe(true);
    const at = { status: 429, retryAfterMs: 3_000, attempt: 1 };
    expect(retryDecision({ ...at, waitedMs: 7_000 }, policy).retry).toBe(true);
    expect(retryDecision({ ...at, waitedMs: 7_001 }, policy).retry).toBe(false);
  });

  it('retries a 503 for every request: the service did not serve it', () => {
    const unsafe = { ...policy, repeatSafe: false };
    expect(retryDecision({ status: 503, attempt: 0 }, unsafe, noJitter)).toEqual({
      retry: true,
      delayMs: 1_000,
    });
    expect(retryDecision({ status: 503, attempt: 2 }, unsafe).retry).toBe(false);
  });

  it("never retries the proxy's open circuit (503 upstream_unavailable)", () => {
    const open = { status: 503, code: 'upstream_unavailable', retryAfterMs: 5_000, attempt: 0 };
    expect(retryDecision(open, policy)).toEqual({ retry: false });
  });

  it('repeats another 5xx, or a failure after sending, only when a repeat is safe', () => {
    const unsafe = { ...policy, repeatSafe: false };
    for (const failure of [{ status: 502 }, { status: 500 }, { status: undefined }, {}]) {
      expect(retryDecision({ ...failure, attempt: 0 }, policy).retry).toBe(true);
      expect(retryDecision({ ...failure, attempt: 0 }, unsafe).retry).toBe(false);
    }
    expect(retryDecision({ sent: false, attempt: 0 }, unsafe).retry).toBe(true);
  });

  it('does not wait out a Retry-After longer than the longest wait', () => {
    expect(retryDecision({ status: 503, retryAfterMs: 30_000, attempt: 0 }, policy).retry).toBe(
      true,
    );
    expect(retryDecision({ status: 503, retryAfterMs: 30_001, attempt: 0 }, policy).retry).toBe(
      false,
    );
  });
});
