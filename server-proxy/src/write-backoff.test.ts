import { describe, expect, it } from 'vitest';
import { WriteBackoff, writeRetryDelayMs } from './write-backoff.ts';

describe('writeRetryDelayMs', () => {
  it('starts at 250 ms, doubles per failure and stops at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => writeRetryDelayMs(n))).toEqual([
      250, 500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
    // very long outages do not overflow
    expect(writeRetryDelayMs(10_000)).toBe(30_000);
  });
});

describe('WriteBackoff', () => {
  it('refuses writes until the delay has passed, and a success ends it', () => {
    let now = 1_000;
    const backoff = new WriteBackoff(() => undefined, { now: () => now });
    try {
      expect(backoff.writable).toBe(true);
      expect(backoff.failed()).toBe(250);
      expect(backoff).toMatchObject({ failing: true, failures: 1, writable: false, waitMs: 250 });
      now += 249;
      expect(backoff.writable).toBe(false);
      now += 1;
      expect(backoff.writable).toBe(true);
      // the second failure in a row waits twice as long
      expect(backoff.failed()).toBe(500);
      expect(backoff.waitMs).toBe(500);
      // a failure no early retry can mend waits what the caller says
      expect(backoff.failed(30_000)).toBe(30_000);
      expect(backoff.failures).toBe(3);
      expect(backoff.succeeded()).toBe(true);
      expect(backoff).toMatchObject({ failing: false, failures: 0, writable: true, waitMs: 0 });
      expect(backoff.retryScheduled).toBe(false);
      expect(backoff.succeeded()).toBe(false);
      // the count starts again
      expect(backoff.failed()).toBe(250);
    } finally {
      backoff.stop();
    }
  });

  it('calls the writer back once the delay has passed, and not after a success', async () => {
    const calls: number[] = [];
    const started = Date.now();
    const backoff = new WriteBackoff(() => calls.push(Date.now() - started), {
      startMs: 30,
      maxMs: 1000,
    });
    backoff.failed();
    expect(backoff.retryScheduled).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toBeGreaterThanOrEqual(25);
    expect(backoff.retryScheduled).toBe(false);
    // a success before the timer cancels the retry
    backoff.failed();
    backoff.succeeded();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(calls).toHaveLength(1);
    // retryIn replaces the pending retry; stop cancels it
    backoff.retryIn(10);
    backoff.retryIn(20);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(calls).toHaveLength(2);
    backoff.retryIn(10);
    backoff.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toHaveLength(2);
  });
});
