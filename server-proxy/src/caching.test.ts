import { afterEach, describe, expect, it } from 'vitest';
import {
  CSRF,
  LIVE_KEY,
  SAMPLE_PROFILE,
  answerJson,
  startFakeOrigin,
  startProxy,
  testConfig,
  type FakeOrigin,
  type RunningProxy,
} from './helpers.test-support.ts';
import type { ProxyConfig } from './context.ts';

let origin: FakeOrigin;
let proxy: RunningProxy;

afterEach(async () => {
  await proxy?.close();
  await origin?.close();
});

async function setup(overrides: Partial<ProxyConfig> = {}, delayMs = 0) {
  origin = await startFakeOrigin((_req, res) =>
    setTimeout(() => answerJson(res, 200, SAMPLE_PROFILE), delayMs),
  );
  proxy = await startProxy(
    testConfig({
      upstream: { baseUrl: origin.url, apiKey: LIVE_KEY, legacy: false, timeoutMs: 2000 },
      ...overrides,
    }),
  );
}

const PROFILE = '/api/v2/profile?dot_number=568253';

/** An inspection history long enough (> 64 KiB as JSON) for the proxy to precompress. */
function bigHistory() {
  return Array.from({ length: 1500 }, (_, i) => ({
    inspection_id: String(1_000_000 + i),
    inspection_date: '20240105',
    report_state: 'TX',
  }));
}

describe('cache', () => {
  it('answers a repeat from memory with x-cache hit and the original fetch time', async () => {
    await setup();
    const first = await proxy.call(PROFILE);
    const second = await proxy.call('/api/v2/profile?dot_number=0568253');
    expect(first.headers.get('x-cache')).toBe('miss');
    expect(second.headers.get('x-cache')).toBe('hit');
    expect(second.headers.get('x-fetched-at')).toBe(first.headers.get('x-fetched-at'));
    expect(second.text).toBe(first.text);
    expect(origin.requests).toHaveLength(1);
  });

  it('serves a DOT search page, the profile page and the summary from one upstream call', async () => {
    await setup();
    // The search page asks with its page size, the profile page without one, the summary after.
    const search = await proxy.call('/api/v2/profile?dot_number=568253&page=1&pageSize=10');
    const profile = await proxy.call(PROFILE);
    const summary = await proxy.call('/api/local/profile-summary?dot_number=568253');
    expect(search.status).toBe(200);
    expect(profile.headers.get('x-cache')).toBe('hit');
    expect(summary.status).toBe(200);
    expect(origin.requests).toHaveLength(1);
    expect(origin.requests[0]?.url).toBe('/v2/profile?dot_number=568253');
  });

  it('keys autocomplete by the normalised query', async () => {
    await setup();
    await proxy.call('/api/v2/autocomplete?q=Hansen');
    const again = await proxy.call('/api/v2/autocomplete?q=%20hANSEN%20');
    expect(again.headers.get('x-cache')).toBe('hit');
    expect(origin.requests).toHaveLength(1);
  });

  it('fetches again after the TTL', async () => {
    await setup({ cache: { profileTtlMs: 150, autocompleteTtlMs: 150, maxBytes: 1024 * 1024 } });
    await proxy.call(PROFILE);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const later = await proxy.call(PROFILE);
    expect(later.headers.get('x-cache')).toBe('miss');
    expect(origin.requests).toHaveLength(2);
  });

  it('refreshes on Cache-Control: no-cache and keeps the fresh copy', async () => {
    await setup();
    await proxy.call(PROFILE);
    const forced = await proxy.call(PROFILE, { headers: { 'cache-control': 'no-cache' } });
    expect(forced.headers.get('x-cache')).toBe('miss');
    expect(origin.requests).toHaveLength(2);
    const after = await proxy.call(PROFILE);
    expect(after.headers.get('x-cache')).toBe('hit');
    expect(after.headers.get('x-fetched-at')).toBe(forced.headers.get('x-fetched-at'));
  });

  it('coalesces N concurrent identical requests into one upstream call', async () => {
    await setup({}, 150);
    const results = await Promise.all(Array.from({ length: 8 }, () => proxy.call(PROFILE)));
    expect(origin.requests).toHaveLength(1);
    expect(results.every((r) => r.status === 200 && r.text === results[0]!.text)).toBe(true);
    expect(results.filter((r) => r.headers.get('x-cache') === 'miss')).toHaveLength(1);
  });

  it('does not cache errors or the monitoring list', async () => {
    await setup();
    origin.handle((_req, res) =>
      answerJson(res, 404, { error: 'no', code: 'not_found', hint: '' }),
    );
    await proxy.call('/api/v2/profile-fmcsa?dot_number=1');
    await proxy.call('/api/v2/profile-fmcsa?dot_number=1');
    origin.handle((_req, res) => answerJson(res, 200, { total_count: 0, items: {} }));
    await proxy.call('/api/v2/monitoring/list');
    const list = await proxy.call('/api/v2/monitoring/list');
    expect(list.headers.get('x-cache')).toBe('miss');
    expect(origin.requests).toHaveLength(4);
  });

  it('drops cached entries of the DOTs a monitoring change names', async () => {
    await setup();
    await proxy.call(PROFILE);
    await proxy.call('/api/v2/profile-lite?dot_number=568253');
    origin.handle((_req, res) => answerJson(res, 200, { status: 'ok', removed: 1 }));
    const removed = await proxy.call('/api/v2/monitoring/remove', {
      method: 'POST',
      headers: CSRF,
      body: { profile_ids: ['568253-MC277621'] },
    });
    expect(removed.status).toBe(200);
    origin.handle((_req, res) => answerJson(res, 200, SAMPLE_PROFILE));
    expect((await proxy.call(PROFILE)).headers.get('x-cache')).toBe('miss');
    expect(proxy.app.proxy.cache.size).toBe(1);
  });

  it('sends a large cached body compressed, the same bytes on every hit', async () => {
    const big = {
      items: [{ ...SAMPLE_PROFILE.items[0], inspection_history: bigHistory() }],
      total_count: 1,
    };
    origin = await startFakeOrigin((_req, res) => answerJson(res, 200, big));
    proxy = await startProxy(
      testConfig({
        upstream: { baseUrl: origin.url, apiKey: LIVE_KEY, legacy: false, timeoutMs: 2000 },
      }),
    );
    const raw = async (encoding: string) => {
      const response = await fetch(`${proxy.url}${PROFILE}`, {
        headers: { ...CSRF, 'accept-encoding': encoding },
      });
      return { response, text: await response.text() };
    };
    const first = await raw('gzip, br');
    const second = await raw('gzip, br');
    const gzip = await raw('gzip');
    const plain = await raw('identity');
    expect(first.response.headers.get('content-encoding')).toBe('br');
    expect(second.response.headers.get('x-cache')).toBe('hit');
    expect(second.response.headers.get('content-encoding')).toBe('br');
    expect(gzip.response.headers.get('content-encoding')).toBe('gzip');
    expect(plain.response.headers.get('content-encoding')).toBeNull();
    // A ready-made copy goes out with its length (the plugin would stream it chunked).
    const length = Number(second.response.headers.get('content-length'));
    expect(length).toBeGreaterThan(0);
    expect(length).toBeLessThan(plain.text.length / 5);
    for (const { text } of [first, second, gzip, plain]) expect(JSON.parse(text)).toEqual(big);
    expect(origin.requests).toHaveLength(1);
  });

  it('keeps the cached profile when the monitoring list is read for that carrier', async () => {
    await setup();
    await proxy.call(PROFILE);
    origin.handle((_req, res) => answerJson(res, 200, { total_count: 0, items: [] }));
    const list = await proxy.call('/api/v2/monitoring/list?profile_id=568253-MC277621');
    expect(list.status).toBe(200);
    const again = await proxy.call(PROFILE);
    expect(again.headers.get('x-cache')).toBe('hit');
    expect(origin.requests.filter((r) => r.url.includes('/profile?'))).toHaveLength(1);
  });
});

describe('limits and budget', () => {
  it('refuses at once with 429 and Retry-After when the bucket wait passes the bound', async () => {
    await setup({
      rateLimits: {
        profile: 2,
        'profile-lite': 30,
        'profile-fmcsa': 0,
        autocomplete: 2000,
        'monitoring/add': 60,
        'monitoring/remove': 60,
        'monitoring/list': 120,
      },
      maxQueueWaitMs: 1000,
    });
    expect((await proxy.call('/api/v2/profile?dot_number=1')).status).toBe(200);
    expect((await proxy.call('/api/v2/profile?dot_number=2')).status).toBe(200);
    const third = await proxy.call('/api/v2/profile?dot_number=3');
    expect(third.status).toBe(429);
    expect(third.json).toMatchObject({ code: 'rate_limited' });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    // cache hits never spend a token
    expect((await proxy.call('/api/v2/profile?dot_number=1')).headers.get('x-cache')).toBe('hit');
    expect(origin.requests).toHaveLength(2);
  });

  it('answers 402 budget_exceeded before a billable call would cross the budget', async () => {
    await setup({ monthlyBudgetUsd: 5 });
    expect((await proxy.call(PROFILE)).status).toBe(200);
    const refused = await proxy.call('/api/v2/profile?dot_number=2');
    expect(refused.status).toBe(402);
    expect(refused.json).toEqual({
      error: expect.stringContaining('budget'),
      code: 'budget_exceeded',
      hint: expect.any(String),
    });
    expect(origin.requests).toHaveLength(1);
    // free calls and repeats of a DOT already paid this month still work
    const repeat = await proxy.call(PROFILE, { headers: { 'cache-control': 'no-cache' } });
    expect(repeat.status).toBe(200);
    expect((await proxy.call('/api/v2/monitoring/list')).status).toBe(200);
    expect(origin.requests).toHaveLength(3);
  });
});
