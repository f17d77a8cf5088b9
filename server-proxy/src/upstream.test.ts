import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { EndpointBuckets } from './buckets.ts';
import { ProxyError } from './errors.ts';
import { freePort } from './team/services.test-support.ts';
import {
  CSRF,
  LIVE_KEY,
  SAMPLE_PROFILE,
  answerJson,
  startFakeOrigin,
  startProxy,
  testConfig,
  type FakeOrigin,
  type OriginHandler,
  type RunningProxy,
} from './helpers.test-support.ts';
import { UpstreamClient, backoffMs, parseRetryAfter, type UpstreamSettings } from './upstream.ts';
import type { ForwardRequest } from './validate.ts';

function clientSettings(baseUrl: string): UpstreamSettings {
  return {
    baseUrl,
    apiKey: LIVE_KEY,
    legacy: false,
    timeoutMs: 2000,
    retryDelayMs: 1,
    maxBackoffWaitMs: 0,
  };
}

const autocompleteRequest: ForwardRequest = {
  endpoint: 'autocomplete',
  method: 'GET',
  query: [['q', 'hansen']],
  searchKey: 'q',
  searchValue: 'hansen',
  dots: [],
};

const ctx = { requestId: 'test', clientHeaders: {} };

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

describe('retries never bill twice', () => {
  let origin: FakeOrigin | undefined;
  let proxy: RunningProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    await origin?.close();
    proxy = undefined;
    origin = undefined;
  });

  /** Answers 200 with half a body, then cuts the connection (after the service billed it). */
  const cutBody: OriginHandler = (_req, res) => {
    const body = JSON.stringify(SAMPLE_PROFILE);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.write(body.slice(0, body.length / 2));
    setTimeout(() => res.socket?.destroy(), 10);
  };

  async function viaProxy(handler: OriginHandler) {
    origin = await startFakeOrigin(handler);
    proxy = await startProxy(
      testConfig({
        upstream: { baseUrl: origin.url, apiKey: LIVE_KEY, legacy: false, timeoutMs: 2000 },
      }),
    );
    return { origin, proxy };
  }

  it.each([
    ['autocomplete (billed per query)', '/api/v2/autocomplete?q=hansen'],
    ['profile-fmcsa (billed per matched lookup)', '/api/v2/profile-fmcsa?dot_number=568253'],
    ['a profile search by company (pages may differ)', '/api/v2/profile?company=hansen'],
    ['a profile-lite search by docket', '/api/v2/profile-lite?docket_number=MC277621'],
  ])('does not repeat %s whose body was cut: one hit, a clear 502', async (_name, path) => {
    const { origin, proxy } = await viaProxy(cutBody);
    const result = await proxy.call(path, { headers: CSRF });
    expect(origin.requests).toHaveLength(1);
    expect(result.status).toBe(502);
    expect(result.json).toEqual({
      error: expect.stringContaining('broke'),
      code: 'upstream_interrupted',
      hint: expect.stringContaining('billed'),
    });
  });

  it('marks a cut body as possibly billed (reachedService)', async () => {
    origin = await startFakeOrigin(cutBody);
    const client = new UpstreamClient(
      { ...clientSettings(origin.url), retryDelayMs: 1 },
      new EndpointBuckets(undefined, 0),
    );
    try {
      const error = await client.send(autocompleteRequest, ctx).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(ProxyError);
      expect(error).toMatchObject({ status: 502, reachedService: true });
      expect(origin.requests).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('marks a timeout as possibly billed and does not repeat it', async () => {
    origin = await startFakeOrigin((_req, res) => {
      setTimeout(() => answerJson(res, 200, SAMPLE_PROFILE), 500);
    });
    const client = new UpstreamClient(
      { ...clientSettings(origin.url), timeoutMs: 100 },
      new EndpointBuckets(undefined, 0),
    );
    try {
      const error = await client.send(autocompleteRequest, ctx).catch((err: unknown) => err);
      expect(error).toMatchObject({ status: 504, code: 'upstream_timeout', reachedService: true });
      expect(origin.requests).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('repeats a DOT lookup whose body was cut: the same DOT is billed once a month', async () => {
    const { origin, proxy } = await viaProxy((req, res) => {
      if (origin.requests.length === 1) cutBody(req, res);
      else answerJson(res, 200, SAMPLE_PROFILE);
    });
    const result = await proxy.call('/api/v2/profile?dot_number=568253', { headers: CSRF });
    expect(result.status).toBe(200);
    expect(origin.requests).toHaveLength(2);
  });

  it('repeats monitoring/add after a reset (re-adding is free)', async () => {
    const { origin, proxy } = await viaProxy((_req, res) => {
      if (origin.requests.length === 1) res.socket?.destroy();
      else answerJson(res, 200, { status: 'ok', added: 1 });
    });
    const result = await proxy.call('/api/v2/monitoring/add', {
      method: 'POST',
      headers: CSRF,
      body: { profile_ids: ['568253-MC277621'] },
    });
    expect(result.status).toBe(200);
    expect(origin.requests).toHaveLength(2);
  });

  it('does not repeat a 502 of a non-idempotent call, but does repeat a 503 (not served)', async () => {
    const { origin, proxy } = await viaProxy((_req, res) =>
      answerJson(res, 502, { error: 'bad gateway', code: 'bad_gateway' }),
    );
    expect((await proxy.call('/api/v2/autocomplete?q=hansen', { headers: CSRF })).status).toBe(502);
    expect(origin.requests).toHaveLength(1);
    let calls = 0;
    origin.handle((_req, res) => {
      calls += 1;
      if (calls === 1) answerJson(res, 503, { error: 'down', code: 'service_unavailable' });
      else answerJson(res, 200, { items: [], total_count: 0 });
    });
    expect((await proxy.call('/api/v2/autocomplete?q=hanse', { headers: CSRF })).status).toBe(200);
    expect(calls).toBe(2);
  });

  it('always repeats a failure before sending (connection refused), even for autocomplete', async () => {
    const port = await freePort();
    const client = new UpstreamClient(
      { ...clientSettings(`http://127.0.0.1:${port}`), retryDelayMs: 300 },
      new EndpointBuckets(undefined, 0),
    );
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      answerJson(res, 200, { items: [], total_count: 0 });
    });
    try {
      const pending = client.send(autocompleteRequest, ctx);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      const answer = await pending;
      expect(answer.status).toBe(200);
      expect(seen).toEqual(['/v2/autocomplete?q=hansen']);
    } finally {
      server.close();
      await client.close();
    }
  });
});

describe('upstream 429 pauses are bounded', () => {
  let origin: FakeOrigin | undefined;
  let proxy: RunningProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    await origin?.close();
    proxy = undefined;
    origin = undefined;
  });

  it('caps Retry-After: 86400 at maxRetryAfterMs, for the pause and for the browser', async () => {
    origin = await startFakeOrigin((_req, res) =>
      answerJson(res, 429, { error: 'slow', code: 'rate_limited' }, { 'retry-after': '86400' }),
    );
    proxy = await startProxy(
      testConfig({
        upstream: {
          baseUrl: origin.url,
          apiKey: LIVE_KEY,
          legacy: false,
          timeoutMs: 2000,
          maxRetryAfterMs: 1500,
        },
        maxQueueWaitMs: 1000,
      }),
    );
    const first = await proxy.call('/api/v2/autocomplete?q=hansen', { headers: CSRF });
    expect(first.status).toBe(429);
    expect(Number(first.headers.get('retry-after'))).toBeLessThanOrEqual(2);
    expect(origin.requests).toHaveLength(1);
    // the endpoint is paused for 1.5 s at most: refused now, with a short Retry-After ...
    const second = await proxy.call('/api/v2/autocomplete?q=hanse', { headers: CSRF });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeLessThanOrEqual(2);
    // ... and open again once the capped pause is over
    origin.handle((_req, res) => answerJson(res, 200, { items: [], total_count: 0 }));
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect((await proxy.call('/api/v2/autocomplete?q=hans', { headers: CSRF })).status).toBe(200);
  });

  it('defaults the cap to 120 s', async () => {
    origin = await startFakeOrigin((_req, res) =>
      answerJson(res, 429, { error: 'slow', code: 'rate_limited' }, { 'retry-after': '86400' }),
    );
    const buckets = new EndpointBuckets(undefined, 0);
    const client = new UpstreamClient({ ...clientSettings(origin.url) }, buckets);
    try {
      const answer = await client.send(autocompleteRequest, ctx);
      expect(answer.status).toBe(429);
      expect(answer.headers['retry-after']).toBe('120');
      const refused = buckets.reserve('autocomplete');
      expect(refused.ok).toBe(false);
      expect(refused.ok ? 0 : refused.retryAfterSeconds).toBeLessThanOrEqual(120);
    } finally {
      await client.close();
    }
  });
});

describe('circuit breaker and retry budget', () => {
  let origin: FakeOrigin | undefined;
  let proxy: RunningProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    await origin?.close();
    proxy = undefined;
    origin = undefined;
  });

  it('50 concurrent requests during an outage make far fewer than 150 attempts', async () => {
    origin = await startFakeOrigin((_req, res) =>
      answerJson(res, 503, { error: 'down', code: 'service_unavailable', hint: 'later' }),
    );
    proxy = await startProxy(
      testConfig({
        upstream: { baseUrl: origin.url, apiKey: LIVE_KEY, legacy: false, timeoutMs: 2000 },
      }),
    );
    const running = proxy;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        running.call(`/api/v2/monitoring/list?page=${i + 1}`, { headers: CSRF }),
      ),
    );
    expect(origin.requests.length).toBeLessThanOrEqual(60);
    for (const result of results) {
      expect(result.status).toBe(503);
      expect(result.json).toEqual({
        error: expect.any(String),
        code: expect.stringMatching(/^(service_unavailable|upstream_unavailable)$/),
        hint: expect.any(String),
      });
    }
    // the circuit is open: the next request fails fast with Retry-After and reaches nobody
    const before = origin.requests.length;
    const next = await proxy.call('/api/v2/monitoring/list?page=99', { headers: CSRF });
    expect(next.status).toBe(503);
    expect(next.json).toMatchObject({ code: 'upstream_unavailable' });
    expect(Number(next.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(origin.requests.length).toBe(before);
  });

  it('keeps retries within the budget when failures are not consecutive', async () => {
    let calls = 0;
    origin = await startFakeOrigin((_req, res) => {
      calls += 1;
      // every other attempt fails: the breaker never opens, the budget bounds the retries
      if (calls % 2 === 1) answerJson(res, 503, { error: 'flaky', code: 'down' });
      else answerJson(res, 200, { items: {}, total_count: 0 });
    });
    const client = new UpstreamClient(
      { ...clientSettings(origin.url), circuit: { retryReserve: 2, retryRatio: 0.1 } },
      new EndpointBuckets(undefined, 0),
    );
    const list: ForwardRequest = { ...autocompleteRequest, endpoint: 'monitoring/list', query: [] };
    try {
      for (let i = 0; i < 20; i += 1) await client.send(list, ctx);
      // 20 first attempts earn 2 retries; with the reserve of 2, at most 4 retries in all
      expect(calls).toBeLessThanOrEqual(24);
    } finally {
      await client.close();
    }
  });

  it('opens after repeated failures, lets one probe through after the cool-down, closes on success', async () => {
    origin = await startFakeOrigin((_req, res) => res.socket?.destroy());
    const client = new UpstreamClient(
      { ...clientSettings(origin.url), circuit: { failureThreshold: 3, openMs: 300 } },
      new EndpointBuckets(undefined, 0),
    );
    const list: ForwardRequest = { ...autocompleteRequest, endpoint: 'monitoring/list', query: [] };
    const outcome = (promise: Promise<unknown>) =>
      promise.then(
        () => 'ok',
        (err: unknown) => (err instanceof ProxyError ? err.code : 'other'),
      );
    try {
      expect(await outcome(client.send(list, ctx))).toBe('upstream_interrupted');
      const hits = origin.requests.length;
      expect(hits).toBe(3);
      const refused = await client.send(list, ctx).catch((err: unknown) => err);
      expect(refused).toMatchObject({
        status: 503,
        code: 'upstream_unavailable',
        reachedService: false,
      });
      expect(Number((refused as ProxyError).headers['retry-after'])).toBeGreaterThan(0);
      expect(origin.requests.length).toBe(hits);
      // cool-down over, still down: the one probe fails and the circuit opens again
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect(await outcome(client.send(list, ctx))).toBe('upstream_interrupted');
      expect(origin.requests.length).toBe(hits + 1);
      expect(await outcome(client.send(list, ctx))).toBe('upstream_unavailable');
      // the service recovers: after the cool-down one probe goes, the others wait for it
      origin.handle((_req, res) =>
        setTimeout(() => answerJson(res, 200, { items: {}, total_count: 0 }), 50),
      );
      await new Promise((resolve) => setTimeout(resolve, 350));
      const [probe, during] = await Promise.all([
        outcome(client.send(list, ctx)),
        new Promise((resolve) => setTimeout(resolve, 10)).then(() =>
          outcome(client.send(list, ctx)),
        ),
      ]);
      expect([probe, during]).toEqual(['ok', 'upstream_unavailable']);
      // closed again: everything goes through
      const after = await Promise.all([1, 2, 3].map(() => outcome(client.send(list, ctx))));
      expect(after).toEqual(['ok', 'ok', 'ok']);
    } finally {
      await client.close();
    }
  });
});
