import { describe, expect, it } from 'vitest';
import { LIVE_LIMITS_PER_MINUTE, RateLimiter } from './rate-limit.ts';

describe('RateLimiter', () => {
  it('allows the published limit per minute, then asks to wait until the oldest hit expires', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(LIVE_LIMITS_PER_MINUTE, () => now);
    for (let i = 0; i < 5; i += 1) {
      expect(limiter.hit('k', '/v2/profile?dot_number=1')).toBeUndefined();
      now += 1000;
    }
    expect(limiter.hit('k', '/api/v2/profile')).toBe(55);
    expect(limiter.hit('other', '/v2/profile')).toBeUndefined();
    expect(limiter.hit('k', '/v2/profile-lite')).toBeUndefined();
    now += 55_000;
    expect(limiter.hit('k', '/v2/profile')).toBeUndefined();
  });

  it('does not limit endpoints without a published limit', () => {
    const limiter = new RateLimiter({ '/v2/profile': 1 });
    expect(limiter.hit('k', '/v2/profile-fmcsa')).toBeUndefined();
    expect(limiter.hit('k', '/v2/profile-fmcsa')).toBeUndefined();
    expect(limiter.limitFor('/v2/profile-fmcsa')).toBeUndefined();
  });

  it('reset forgets all hits', () => {
    const limiter = new RateLimiter({ '/v2/profile': 1 });
    limiter.hit('k', '/v2/profile');
    expect(limiter.hit('k', '/v2/profile')).toBe(60);
    limiter.reset();
    expect(limiter.hit('k', '/v2/profile')).toBeUndefined();
  });
});
