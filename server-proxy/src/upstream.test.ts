import { describe, expect, it } from 'vitest';
import { EndpointBuckets } from './buckets.ts';
import { UpstreamClient, backoffMs, parseRetryAfter } from './upstream.ts';
import { startProxy, testConfig } from './test-helpers.ts';

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, ignores the rest', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('doubles from 1 s up to 30 s with at most 20 % jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, () => 0))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
    expect(backoffMs(0, () => 0.999)).toBe(1200);
  });
});

describe('UpstreamClient', () => {
  it('builds URLs for both deployments', () => {
    const settings = {
      baseUrl: 'https://api.example.com/base',
      apiKey: 'sk_live_x',
      timeoutMs: 1000,
      retryDelayMs: 0,
      maxBackoffWaitMs: 0,
    };
    const request = {
      endpoint: 'profile' as const,
      method: 'GET' as const,
      query: [['dot_number', '568253']] as [string, string][],
      dots: [],
    };
    const buckets = new EndpointBuckets(undefined, 0);
    const current = new UpstreamClient({ ...settings, legacy: false }, buckets);
    const legacy = new UpstreamClient({ ...settings, legacy: true }, buckets);
    expect(current.urlOf(request)).toBe(
      'https://api.example.com/base/v2/profile?dot_number=568253',
    );
    expect(legacy.urlOf(request)).toBe(
      'https://api.example.com/base/api/v2/profile?dot_number=568253',
    );
    return Promise.all([current.close(), legacy.close()]);
  });

  it('reports an unreachable upstream on /readyz and 502 on calls', async () => {
    const proxy = await startProxy(testConfig());
    try {
      const ready = await proxy.call('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.json).toMatchObject({
        code: 'not_ready',
        checks: { upstream: false, database: true },
      });
      const call = await proxy.call('/api/v2/profile?dot_number=568253');
      expect(call.status).toBe(502);
      expect(call.json).toMatchObject({ code: 'upstream_unreachable' });
    } finally {
      await proxy.close();
    }
  });
});
