import { describe, expect, it } from 'vitest';
import { EndpointBuckets, RateBucket } from './buckets.ts';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('RateBucket', () => {
  it('lets a burst of the per-minute limit go at once, then queues one slot per freed token', () => {
    const time = clock();
    const bucket = new RateBucket(5, 120_000, time.now);
    const waits = Array.from({ length: 7 }, () => bucket.reserve());
    expect(waits.slice(0, 5)).toEqual(Array(5).fill({ ok: true, waitMs: 0 }));
    // the 6th and 7th wait until the 1st and 2nd tokens come back a minute (plus slack) later
    expect(waits[5]).toEqual({ ok: true, waitMs: 60_250 });
    expect(waits[6]).toEqual({ ok: true, waitMs: 60_250 });
  });

  it('never lets more than the limit depart in any 60 s window', () => {
    const time = clock();
    const bucket = new RateBucket(3, 1_000_000, time.now);
    const departures: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const r = bucket.reserve();
      if (!r.ok) throw new Error('refused');
      departures.push(time.now() + r.waitMs);
      time.advance(7_000);
    }
    for (const start of departures) {
      const inWindow = departures.filter((t) => t >= start && t < start + 60_000);
      expect(inWindow.length).toBeLessThanOrEqual(3);
    }
  });

  it('refuses at once, with Retry-After seconds, when the wait would pass the bound', () => {
    const time = clock();
    const bucket = new RateBucket(2, 10_000, time.now);
    bucket.reserve();
    bucket.reserve();
    expect(bucket.reserve()).toEqual({ ok: false, retryAfterSeconds: 61 });
    time.advance(55_000);
    expect(bucket.reserve()).toEqual({ ok: true, waitMs: 5_250 });
  });

  it('holds every request after an upstream 429 until the pause ends', () => {
    const time = clock();
    const bucket = new RateBucket(100, 60_000, time.now);
    bucket.pauseUntil(time.now() + 3_000);
    expect(bucket.reserve()).toEqual({ ok: true, waitMs: 3_000 });
  });
});

describe('EndpointBuckets', () => {
  it('limits only endpoints with a positive limit', () => {
    const buckets = new EndpointBuckets(
      {
        profile: 1,
        'profile-lite': 30,
        'profile-fmcsa': 0,
        autocomplete: 2000,
        'monitoring/add': 60,
        'monitoring/remove': 60,
        'monitoring/list': 120,
      },
      0,
    );
    expect(buckets.reserve('profile')).toEqual({ ok: true, waitMs: 0 });
    expect(buckets.reserve('profile').ok).toBe(false);
    for (let i = 0; i < 5; i += 1) expect(buckets.reserve('profile-fmcsa').ok).toBe(true);
    expect(new EndpointBuckets(undefined, 0).reserve('profile')).toEqual({ ok: true, waitMs: 0 });
  });

  it('pauses an endpoint without a bucket after an upstream 429', () => {
    let now = 0;
    const buckets = new EndpointBuckets(undefined, 5_000, () => now);
    buckets.pauseUntil('autocomplete', 3_000);
    expect(buckets.reserve('autocomplete')).toEqual({ ok: true, waitMs: 3_000 });
    buckets.pauseUntil('autocomplete', 9_000);
    expect(buckets.reserve('autocomplete')).toEqual({ ok: false, retryAfterSeconds: 9 });
    now = 9_000;
    expect(buckets.reserve('autocomplete')).toEqual({ ok: true, waitMs: 0 });
    expect(buckets.reserve('profile')).toEqual({ ok: true, waitMs: 0 });
  });
});
