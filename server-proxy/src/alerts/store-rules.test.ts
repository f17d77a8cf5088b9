/** The alert store's decisions, with no database (store-rules.ts). */
import { describe, expect, it } from 'vitest';
import {
  admitDeliveries,
  giveUpAt,
  stateAfterFailure,
  subscriptionIdsOf,
  testRetryAfterMs,
  type NewDelivery,
} from './store-rules.ts';

const delivery = (subscription_id: number | null, n = 0): NewDelivery => ({
  subscription_id,
  source: subscription_id === null ? 'env' : 'subscription',
  kind: 'webhook',
  target: `https://example.test/${n}`,
  payload: { type: 'changes', carriers: [] },
});

describe('the bound on waiting deliveries', () => {
  it('locks each subscription once, in ascending order', () => {
    const list = [delivery(9), delivery(null), delivery(2), delivery(9), delivery(5)];
    expect(subscriptionIdsOf(list)).toEqual([2, 5, 9]);
  });

  it('queues a subscription’s deliveries only up to the bound, counting those it admits', () => {
    const list = [
      delivery(1, 1),
      delivery(1, 2),
      delivery(1, 3),
      delivery(2, 4),
      delivery(null, 5),
    ];
    const { admitted, notQueued } = admitDeliveries(list, new Map([[1, 1]]), 2);
    expect(admitted.map((d) => d.target)).toEqual([
      'https://example.test/1',
      'https://example.test/4',
      'https://example.test/5',
    ]);
    expect([...notQueued]).toEqual([[1, 2]]);
  });

  it('never bounds the team destinations (no subscription)', () => {
    const list = Array.from({ length: 5 }, (_, n) => delivery(null, n));
    expect(admitDeliveries(list, new Map(), 0)).toEqual({ admitted: list, notQueued: new Map() });
  });

  it('leaves the counts it was given as they were', () => {
    const waiting = new Map([[1, 0]]);
    admitDeliveries([delivery(1)], waiting, 5);
    expect(waiting.get(1)).toBe(0);
  });
});

describe('retries and turns', () => {
  const at = new Date('2026-11-20T10:00:00Z');

  it('gives a delivery 24 hours, then marks a failed attempt failed for good', () => {
    const giveUp = giveUpAt(at);
    expect(giveUp).toBe('2026-11-21T10:00:00.000Z');
    expect(stateAfterFailure(new Date('2026-11-21T09:59:00Z'), giveUp)).toBe('pending');
    expect(stateAfterFailure(new Date('2026-11-21T10:00:00Z'), giveUp)).toBe('pending');
    expect(stateAfterFailure(new Date('2026-11-21T10:01:00Z'), giveUp)).toBe('failed');
    expect(stateAfterFailure(at, undefined)).toBe('failed');
  });

  it('says how long until the next "send test", at least a second', () => {
    expect(testRetryAfterMs('2026-11-20T09:59:30.000Z', at, 60_000)).toBe(30_000);
    expect(testRetryAfterMs('2026-11-20T09:59:59.900Z', at, 60_000)).toBe(59_900);
    expect(testRetryAfterMs('2026-11-20T09:59:00.500Z', at, 60_000)).toBe(1000);
    expect(testRetryAfterMs(undefined, at, 60_000)).toBe(60_000);
    expect(testRetryAfterMs('not a time', at, 60_000)).toBe(60_000);
  });
});
