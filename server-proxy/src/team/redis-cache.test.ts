/**
 * The response cache and lock shared through Redis, against a real Redis on loopback: first the
 * store with two clients standing for two replicas, then two proxies over HTTP in front of the
 * sandbox, with a pass-through that counts what reaches the service. Where redis-server is not
 * installed each test is skipped by the runner with the reason (team/replicas.test-support.ts).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredResponse } from '../cache.ts';
import type { ProxyConfig } from '../context.ts';
import { buildSandboxApp, type SandboxApp } from '../sandbox/index.ts';
import {
  CSRF,
  makeTempDir,
  startProxy,
  testConfig,
  type CallResult,
  type RunningProxy,
} from '../helpers.test-support.ts';
import { createRedisClient } from './redis-buckets.ts';
import { SharedResponseCache, type SharedCacheOptions } from './redis-cache.ts';
import { beforeFirstTest, useRedis } from './replicas.test-support.ts';
import { startRedis } from './services.test-support.ts';
import { recordingFront, type RecordingFront } from './two-proxies.test-support.ts';

const redis = useRedis();
const clients: Redis[] = [];

function client(url = redis.url): Redis {
  const made = createRedisClient(url);
  made.on('error', () => {}); // outages are what some tests cause on purpose
  clients.push(made);
  return made;
}

afterAll(async () => {
  for (const made of clients) made.disconnect();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function answer(body: string, dots: string[] = ['568253'], status = 200): StoredResponse {
  return { status, body, headers: { 'x-test': 'yes' }, fetchedAt: new Date(), dots };
}

/**
 * A call that counts its runs and answers after `ms`. `holding` settles when the first run starts,
 * that is once the first replica holds the lock: the second replica starts then, not after a guessed
 * delay that a loaded machine can outrun (a fixed 20 ms once let both replicas call).
 */
function slowCall(ms: number, make: (run: number) => StoredResponse | Error) {
  const counter = { runs: 0 };
  let started!: () => void;
  const holding = new Promise<void>((resolve) => (started = resolve));
  const call = async () => {
    counter.runs += 1;
    started();
    const run = counter.runs;
    await sleep(ms);
    const made = make(run);
    if (made instanceof Error) throw made;
    return made;
  };
  return { counter, call, holding };
}

describe('the shared store and lock (two clients)', () => {
  const options: SharedCacheOptions = { lockMs: 2000, maxWaitMs: 5000, pollMs: 25 };
  const replicas = (apiKey: string, opts = options) => [
    new SharedResponseCache(client(), apiKey, opts),
    new SharedResponseCache(client(), apiKey, opts),
  ];

  it('lets one replica call while the other waits and replays its answer, with the TTL left', async () => {
    const [a, b] = replicas(`sk_test_${randomUUID()}`);
    const { counter, call, holding } = slowCall(200, (run) => answer(`{"run":${run}}`));
    const [first, second] = await Promise.all([
      a!.fetch('profile?dot_number=568253', 60_000, false, call),
      holding.then(() => b!.fetch('profile?dot_number=568253', 60_000, false, call)),
    ]);
    expect(counter.runs).toBe(1);
    expect(first).toMatchObject({ hit: false, stored: { body: '{"run":1}' } });
    expect(second).toMatchObject({ hit: true, stored: { body: '{"run":1}', dots: ['568253'] } });
    if (!second.hit) throw new Error('expected a hit');
    expect(second.stored.fetchedAt).toEqual(first.stored.fetchedAt);
    expect(second.stored.headers).toEqual({ 'x-test': 'yes' });
    expect(second.ttlMs).toBeGreaterThan(59_000);
    expect(second.ttlMs).toBeLessThanOrEqual(60_000);
  });

  it('does not share another key’s answers', async () => {
    const [a] = replicas(`sk_test_${randomUUID()}`);
    const [other] = replicas(`sk_test_${randomUUID()}`);
    const { counter, call } = slowCall(0, () => answer('{}'));
    await a!.fetch('autocomplete?q=abc', 60_000, false, call);
    expect((await other!.fetch('autocomplete?q=abc', 60_000, false, call)).hit).toBe(false);
    expect(counter.runs).toBe(2);
  });

  it('calls once itself when the holder fails or gets no 200, without an answer to replay', async () => {
    for (const outcome of [new Error('upstream cut off'), answer('{"error":"x"}', [], 502)]) {
      const [a, b] = replicas(`sk_test_${randomUUID()}`);
      const { counter, call, holding } = slowCall(150, (run) =>
        run === 1 ? outcome : answer('{"ok":1}'),
      );
      const [first, second] = await Promise.allSettled([
        a!.fetch('profile?dot_number=1', 60_000, false, call),
        holding.then(() => b!.fetch('profile?dot_number=1', 60_000, false, call)),
      ]);
      expect(counter.runs).toBe(2);
      if (outcome instanceof Error) expect(first.status).toBe('rejected');
      else expect(first).toMatchObject({ value: { hit: false, stored: { status: 502 } } });
      expect(second).toMatchObject({ value: { hit: false, stored: { body: '{"ok":1}' } } });
    }
  });

  it('renews the lock while a slow holder is still calling', async () => {
    const short = { lockMs: 200, maxWaitMs: 5000, pollMs: 25 };
    const [a, b] = replicas(`sk_test_${randomUUID()}`, short);
    const { counter, call, holding } = slowCall(800, () => answer('{"slow":true}'));
    const [, second] = await Promise.all([
      a!.fetch('profile?dot_number=2', 60_000, false, call),
      holding.then(() => b!.fetch('profile?dot_number=2', 60_000, false, call)),
    ]);
    expect(counter.runs).toBe(1);
    expect(second.hit).toBe(true);
  });

  it('refresh calls even when an answer is held, and overwrites it', async () => {
    const [a, b] = replicas(`sk_test_${randomUUID()}`);
    const { counter, call } = slowCall(0, (run) => answer(`{"run":${run}}`));
    await a!.fetch('profile?dot_number=3', 60_000, false, call);
    const refreshed = await b!.fetch('profile?dot_number=3', 60_000, true, call);
    expect(refreshed).toMatchObject({ hit: false, stored: { body: '{"run":2}' } });
    const after = await a!.get('profile?dot_number=3');
    expect(after?.stored.body).toBe('{"run":2}');
    expect(counter.runs).toBe(2);
  });

  it('drops the answers of invalidated DOTs, and only those', async () => {
    const [a, b] = replicas(`sk_test_${randomUUID()}`);
    const { call: callOne } = slowCall(0, () => answer('{"one":1}', ['11', '12']));
    const { call: callTwo } = slowCall(0, () => answer('{"two":2}', ['12']));
    const { call: callThree } = slowCall(0, () => answer('{"three":3}', ['13']));
    await a!.fetch('profile?dot_number=11', 60_000, false, callOne);
    await a!.fetch('profile?dot_number=12', 60_000, false, callTwo);
    await a!.fetch('profile?dot_number=13', 60_000, false, callThree);
    expect(await b!.invalidateDots(['12'])).toBe(2);
    expect(await b!.get('profile?dot_number=11')).toBeUndefined();
    expect(await b!.get('profile?dot_number=12')).toBeUndefined();
    expect((await b!.get('profile?dot_number=13'))?.stored.body).toBe('{"three":3}');
  });

  it('refuses with 503 coordination_unavailable, calling nothing, while Redis is away', async () => {
    const gone = await startRedis();
    if (typeof gone === 'string') throw new Error(gone);
    await gone.stop();
    const store = new SharedResponseCache(client(gone.url), 'sk_test_x', options);
    const { counter, call } = slowCall(0, () => answer('{}'));
    await expect(store.fetch('profile?dot_number=4', 60_000, false, call)).rejects.toMatchObject({
      status: 503,
      code: 'coordination_unavailable',
    });
    await expect(store.fetch('profile?dot_number=4', 60_000, true, call)).rejects.toMatchObject({
      status: 503,
    });
    await expect(store.get('profile?dot_number=4')).rejects.toMatchObject({ status: 503 });
    expect(counter.runs).toBe(0);
  });
});

const SANDBOX_KEY = 'sk_test_shared_cache';
const PROFILE = '/api/v2/profile?dot_number=568253';
const OTHER_PROFILE = '/api/v2/profile?dot_number=3187452';

interface EndpointLine {
  endpoint: string;
  calls: number;
  cacheHits: number;
  billedUnits: number;
  usd: number;
}

async function profileSpend(proxy: RunningProxy): Promise<EndpointLine | undefined> {
  const usage = await proxy.call('/api/local/usage');
  expect(usage.status).toBe(200);
  const lines = (usage.json as { byEndpoint: EndpointLine[] }).byEndpoint;
  return lines.find((line) => line.endpoint === 'profile');
}

const noCache = { 'cache-control': 'no-cache' };

describe('two proxies sharing one cache, over HTTP', () => {
  let sandbox: SandboxApp;
  const sandboxDir = makeTempDir();
  let front: RecordingFront;
  let proxies: RunningProxy[] = [];
  let admin: Redis | undefined;
  /** made in the first test's hooks too */
  const adminClient = (): Redis => {
    if (admin === undefined) {
      admin = new Redis(redis.url); // queues commands until it is connected
      clients.push(admin);
    }
    return admin;
  };
  const profileCalls = () => front.callsTo('/v2/profile').length;

  function config(redisUrl: string): ProxyConfig {
    return testConfig({
      mode: 'test',
      upstream: { baseUrl: front.url, apiKey: SANDBOX_KEY, legacy: false, timeoutMs: 5000 },
      redisUrl,
    });
  }

  async function replica(redisUrl = redis.url): Promise<RunningProxy> {
    const proxy = await startProxy(config(redisUrl));
    proxies.push(proxy);
    return proxy;
  }

  // in the first test's hooks, after the skip where Redis is missing
  beforeFirstTest(async () => {
    sandbox = await buildSandboxApp({ dataDir: sandboxDir, apiKeys: [SANDBOX_KEY] });
    await sandbox.listen({ host: '127.0.0.1', port: 0 });
    const port = (sandbox.server.address() as AddressInfo).port;
    // each answer held 300 ms, so that requests on both replicas overlap
    front = await recordingFront(`http://127.0.0.1:${port}`, 300);
  });

  beforeEach(async () => {
    await adminClient().flushall();
  });

  afterEach(async () => {
    for (const proxy of proxies) await proxy.close();
    proxies = [];
  });

  afterAll(async () => {
    await front?.close();
    await sandbox?.close();
    rmSync(sandboxDir, { recursive: true, force: true });
  });

  it('bills a profile once: the second replica answers it as a free cache hit', async () => {
    const [a, b] = [await replica(), await replica()];
    const calls = profileCalls();
    const first = await a.call(PROFILE);
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('x-cache')).toBe('miss');
    const second = await b.call(PROFILE);
    expect(second.status).toBe(200);
    expect(second.headers.get('x-cache')).toBe('hit');
    expect(second.text).toBe(first.text);
    expect(second.headers.get('x-fetched-at')).toBe(first.headers.get('x-fetched-at'));
    expect(profileCalls() - calls).toBe(1);
    expect(await profileSpend(a)).toMatchObject({ cacheHits: 0, billedUnits: 1 });
    expect(await profileSpend(b)).toMatchObject({ cacheHits: 1, billedUnits: 0, usd: 0 });
    // B kept the answer in its own cache too: served without Redis's copy.
    await adminClient().flushall();
    expect((await b.call(PROFILE)).headers.get('x-cache')).toBe('hit');
    expect(profileCalls() - calls).toBe(1);
  });

  it('sends one call for the same profile asked at once on both replicas', async () => {
    const [a, b] = [await replica(), await replica()];
    const calls = profileCalls();
    const answers: CallResult[] = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).call(PROFILE)),
    );
    expect(profileCalls() - calls).toBe(1);
    for (const got of answers) {
      expect(got.status).toBe(200);
      expect(got.text).toBe(answers[0]?.text);
    }
    expect(answers.filter((got) => got.headers.get('x-cache') === 'miss')).toHaveLength(1);
    const spent = [await profileSpend(a), await profileSpend(b)];
    expect(spent.reduce((sum, line) => sum + (line?.billedUnits ?? 0), 0)).toBe(1);
    expect(spent.reduce((sum, line) => sum + (line?.cacheHits ?? 0), 0)).toBe(7);
  });

  it('answers only-if-cached from the shared cache, and not_cached when nobody holds it', async () => {
    const [a, b] = [await replica(), await replica()];
    const onlyIfCached = { 'cache-control': 'only-if-cached' };
    expect((await b.call(PROFILE, { headers: onlyIfCached })).status).toBe(504);
    expect((await a.call(PROFILE)).status).toBe(200);
    const calls = profileCalls();
    const held = await b.call(PROFILE, { headers: onlyIfCached });
    expect(held.status).toBe(200);
    expect(held.headers.get('x-cache')).toBe('hit');
    expect(profileCalls()).toBe(calls);
  });

  it('drops the shared answer when the carrier is added to monitoring on another replica', async () => {
    const [a, b] = [await replica(), await replica()];
    const calls = profileCalls();
    expect((await a.call(PROFILE)).status).toBe(200);
    const added = await a.call('/api/v2/monitoring/add', {
      method: 'POST',
      headers: CSRF,
      body: { profile_ids: ['568253-MC277621'] },
    });
    expect(added.status, added.text).toBe(200);
    const after = await b.call(PROFILE);
    expect(after.status).toBe(200);
    expect(after.headers.get('x-cache')).toBe('miss');
    expect(profileCalls() - calls).toBe(2);
  });

  it('refreshes on request: no-cache calls the service although another replica holds it', async () => {
    const [a, b] = [await replica(), await replica()];
    const calls = profileCalls();
    const first = await a.call(PROFILE);
    const refreshed = await b.call(PROFILE, { headers: noCache });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get('x-cache')).toBe('miss');
    expect(profileCalls() - calls).toBe(2);
    expect(refreshed.headers.get('x-fetched-at')).not.toBe(first.headers.get('x-fetched-at'));
    // the refreshed answer replaced the shared one
    const c = await replica();
    const third = await c.call(PROFILE);
    expect(third.headers.get('x-cache')).toBe('hit');
    expect(third.headers.get('x-fetched-at')).toBe(refreshed.headers.get('x-fetched-at'));
    expect(profileCalls() - calls).toBe(2);
  });

  it('while Redis is away: 503 and no call for what is not held, local hits still served', async () => {
    const own = await startRedis();
    if (typeof own === 'string') throw new Error(own);
    const a = await replica(own.url);
    const held = await a.call(PROFILE);
    expect(held.status).toBe(200);
    await own.stop();
    const calls = profileCalls();
    const cached = await a.call(PROFILE);
    expect(cached.status).toBe(200);
    expect(cached.headers.get('x-cache')).toBe('hit');
    const refused = await a.call(OTHER_PROFILE);
    expect(refused.status).toBe(503);
    expect(refused.json).toEqual({
      error: expect.any(String),
      code: 'coordination_unavailable',
      hint: expect.any(String),
    });
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(profileCalls()).toBe(calls);
    expect(await profileSpend(a)).toMatchObject({ billedUnits: 1, usd: expect.any(Number) });
  });
});
