/**
 * The Redis-held buckets against a real Redis on loopback: two clients stand for two replicas of the
 * proxy holding one key. Where redis-server is not installed each test is skipped by the runner
 * with the reason (team/replicas.test-support.ts).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ENDPOINT_NAMES } from '../../../src/lib/service/endpoints.ts';
import type { Reservation } from '../buckets.ts';
import type { Endpoint } from '../context.ts';
import { buildSandboxApp, type SandboxApp } from '../sandbox/index.ts';
import {
  makeTempDir,
  request,
  startProxy,
  testConfig,
  type RunningProxy,
} from '../helpers.test-support.ts';
import { createRedisClient, RedisBuckets, watchRedis } from './redis-buckets.ts';
import { beforeFirstTest, useRedis } from './replicas.test-support.ts';
import { startRedis } from './services.test-support.ts';
import { recordingFront, type RecordingFront } from './two-proxies.test-support.ts';

const redis = useRedis();
const clients: Redis[] = [];

function client(): Redis {
  const made = createRedisClient(redis.url);
  made.on('error', () => {}); // outages are what some tests cause on purpose
  clients.push(made);
  return made;
}

/** Limits with `profile` at `perMinute` and no bucket for the other endpoints. */
function profileLimit(perMinute: number): Record<Endpoint, number> {
  const limits = Object.fromEntries(ENDPOINT_NAMES.map((name) => [name, 0]));
  return { ...limits, profile: perMinute } as Record<Endpoint, number>;
}

/** Two replicas of one key: same key, separate clients. */
function replicas(apiKey: string, maxWaitMs: number): [RedisBuckets, RedisBuckets] {
  return [
    new RedisBuckets(client(), apiKey, profileLimit(5), maxWaitMs),
    new RedisBuckets(client(), apiKey, profileLimit(5), maxWaitMs),
  ];
}

const freshKey = () => `sk_test_${randomUUID()}`;

/** Reserve again while the client is still reconnecting (within 5 s), and give the first real answer. */
async function firstAnswer(buckets: RedisBuckets, endpoint: Endpoint): Promise<Reservation> {
  const deadline = Date.now() + 5000;
  let answer = await buckets.reserve(endpoint);
  while (!answer.ok && answer.unavailable && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await buckets.reserve(endpoint);
  }
  return answer;
}

/** FLUSHALL through a new client, once it is connected (it queues nothing before that). */
async function flushAll(): Promise<void> {
  const admin = client();
  if (admin.status !== 'ready') await new Promise((resolve) => admin.once('ready', resolve));
  await admin.flushall();
}

/** Asserts a refusal whose Retry-After reaches past a full window from now. */
function expectRefusedForAMinute(answer: Reservation): void {
  if (answer.ok) expect.fail(`a slot was granted ${answer.waitMs} ms ahead`);
  expect(answer.unavailable).toBeUndefined();
  expect(answer.retryAfterSeconds).toBeGreaterThanOrEqual(61);
}
/** the sandbox's key for the proxies of the HTTP tests */
const SANDBOX_KEY = 'sk_test_team_replicas';

afterAll(async () => {
  for (const made of clients) made.disconnect();
});

describe('Redis-held upstream buckets', () => {
  it('two replicas share one budget of 5 a minute, in FIFO slots a minute apart', async () => {
    const [a, b] = replicas(freshKey(), 200_000);
    const reservations = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).reserve('profile')),
    );
    const waits = reservations.map((r) => (r.ok ? r.waitMs : Number.NaN)).sort((x, y) => x - y);
    expect(waits.every(Number.isFinite)).toBe(true);
    expect(waits.filter((wait) => wait < 1000)).toHaveLength(5);
    // never more than 5 departures in any 60 s: the 6th after any slot is a full minute later
    // (less the few milliseconds between the calls' own clocks)
    for (let i = 0; i + 5 < waits.length; i += 1) {
      expect((waits[i + 5] ?? 0) - (waits[i] ?? 0)).toBeGreaterThanOrEqual(60_000);
    }
    expect(waits.slice(5).every((wait) => wait >= 60_000)).toBe(true);
  });

  it('refuses what would wait past maxWaitMs, with the seconds until a slot frees', async () => {
    const [a, b] = replicas(freshKey(), 1000);
    const reservations = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).reserve('profile')),
    );
    expect(reservations.filter((r) => r.ok)).toHaveLength(5);
    const refused = reservations.filter((r) => !r.ok);
    expect(refused).toHaveLength(7);
    for (const refusal of refused) {
      expect(refusal).toEqual({ ok: false, retryAfterSeconds: expect.any(Number) });
      if (!refusal.ok) expect(refusal.retryAfterSeconds).toBeGreaterThanOrEqual(60);
    }
  });

  it('keeps the budgets of different API keys apart', async () => {
    const [first] = replicas(freshKey(), 1000);
    const [other] = replicas(freshKey(), 1000);
    for (let i = 0; i < 5; i += 1) expect((await first.reserve('profile')).ok).toBe(true);
    expect((await first.reserve('profile')).ok).toBe(false);
    expect(await other.reserve('profile')).toEqual({ ok: true, waitMs: 0 });
  });

  it('shares a pause after a 429, on limited and unlimited endpoints alike', async () => {
    const [a, b] = replicas(freshKey(), 1000);
    expect((await b.reserve('profile')).ok).toBe(true);
    await a.pauseUntil('profile', Date.now() + 30_000);
    await a.pauseUntil('autocomplete', Date.now() + 20_000);
    const profile = await b.reserve('profile');
    const autocomplete = await b.reserve('autocomplete');
    expect(profile).toEqual({ ok: false, retryAfterSeconds: expect.any(Number) });
    expect(autocomplete).toEqual({ ok: false, retryAfterSeconds: expect.any(Number) });
    if (!profile.ok) expect(profile.retryAfterSeconds).toBeGreaterThanOrEqual(29);
    if (!autocomplete.ok) expect(autocomplete.retryAfterSeconds).toBeGreaterThanOrEqual(19);
    // a shorter pause never shortens a longer one
    await b.pauseUntil('profile', Date.now() + 1000);
    const still = await a.reserve('profile');
    if (still.ok) expect.fail('the 30 s pause was shortened');
    expect(still.retryAfterSeconds).toBeGreaterThanOrEqual(29);
  });

  it('refuses quickly while Redis is down and works again once it is back', async () => {
    const [a] = replicas(freshKey(), 1000);
    expect((await a.reserve('profile')).ok).toBe(true);
    await redis.stop();
    const before = Date.now();
    const refused = await a.reserve('profile');
    expect(Date.now() - before).toBeLessThan(2000);
    expect(refused).toEqual({ ok: false, retryAfterSeconds: 5, unavailable: true });
    await redis.restart();
    // an endpoint without a limit has nothing to forget and goes through at once; the limited one
    // is answered again, with the pause that covers the slots the empty Redis forgot
    expect(await firstAnswer(a, 'autocomplete')).toEqual({ ok: true, waitMs: 0 });
    expectRefusedForAMinute(await a.reserve('profile'));
  });

  it('after Redis restarts empty, no replica takes a sixth slot within the minute of the first five', async () => {
    const apiKey = freshKey();
    const warnings: string[] = [];
    const log = { warn: (line: string) => warnings.push(line), info: () => {} };
    const [clientA, clientB] = [client(), client()];
    watchRedis(clientA, log);
    watchRedis(clientB, log);
    const a = new RedisBuckets(clientA, apiKey, profileLimit(5), 1000);
    const b = new RedisBuckets(clientB, apiKey, profileLimit(5), 1000);
    const firstFive = await Promise.all([a, b, a, b, a].map((r) => r.reserve('profile')));
    expect(firstFive.every((r) => r.ok)).toBe(true);
    await redis.restart(); // empty: no persistence in tests
    expectRefusedForAMinute(await firstAnswer(a, 'profile'));
    expectRefusedForAMinute(await firstAnswer(b, 'profile'));
    // one replica noticed, paused for everyone, and said so once
    const lossLines = warnings.filter((line) => line.includes('lost its rate-limit state'));
    expect(lossLines).toHaveLength(1);
    expect(lossLines[0]).toContain("paused for a minute so the key's limit holds");
    // a replica that may wait long gets its slot only after the full window
    const patient = new RedisBuckets(client(), apiKey, profileLimit(5), 200_000);
    const slot = await patient.reserve('profile');
    if (!slot.ok) expect.fail('the patient replica was refused');
    expect(slot.waitMs).toBeGreaterThanOrEqual(60_000);
  });

  it('gives a fresh deployment its first slots at once, and a replica joining it too', async () => {
    const apiKey = freshKey();
    const [a, b] = replicas(apiKey, 1000);
    expect(await a.reserve('profile')).toEqual({ ok: true, waitMs: 0 });
    expect(await b.reserve('profile')).toEqual({ ok: true, waitMs: 0 });
    const [joining] = replicas(apiKey, 1000);
    expect(await joining.reserve('profile')).toEqual({ ok: true, waitMs: 0 });
    expect(await a.reserve('profile')).toEqual({ ok: true, waitMs: 0 });
  });

  it('detects a FLUSHALL the same way', async () => {
    const [a, b] = replicas(freshKey(), 1000);
    expect((await a.reserve('profile')).ok).toBe(true);
    expect((await b.reserve('profile')).ok).toBe(true);
    await flushAll();
    expectRefusedForAMinute(await b.reserve('profile'));
    expectRefusedForAMinute(await a.reserve('profile'));
  });

  it('pauses when an older replica finds the epoch a newly started one made after a loss', async () => {
    const apiKey = freshKey();
    const [a] = replicas(apiKey, 1000);
    expect((await a.reserve('profile')).ok).toBe(true);
    await flushAll();
    // the documented race: a first-time replica cannot tell the empty Redis from a new deployment
    const [newcomer] = replicas(apiKey, 1000);
    expect(await newcomer.reserve('profile')).toEqual({ ok: true, waitMs: 0 });
    // the older replica can, and pauses the endpoint for both
    expectRefusedForAMinute(await a.reserve('profile'));
    expectRefusedForAMinute(await newcomer.reserve('profile'));
  });
});

describe('two proxies on one Redis, over HTTP', () => {
  let sandbox: SandboxApp;
  const sandboxDir = makeTempDir();
  let front: RecordingFront;
  const proxies: RunningProxy[] = [];

  // in the first test's hooks, after the skip where Redis is missing
  beforeFirstTest(async () => {
    sandbox = await buildSandboxApp({
      dataDir: sandboxDir,
      apiKeys: [SANDBOX_KEY],
      population: 2000,
      rateLimits: 'live',
    });
    await sandbox.listen({ host: '127.0.0.1', port: 0 });
    front = await recordingFront(
      `http://127.0.0.1:${(sandbox.server.address() as AddressInfo).port}`,
    );
  });

  afterAll(async () => {
    for (const proxy of proxies) await proxy.close();
    await front?.close();
    await sandbox?.close();
    rmSync(sandboxDir, { recursive: true, force: true });
  });

  it('send the sandbox at most its 5 profile calls a minute; the rest are refused at once', async () => {
    for (let i = 0; i < 2; i += 1) {
      const config = testConfig({
        mode: 'test',
        upstream: { baseUrl: front.url, apiKey: SANDBOX_KEY, legacy: false, timeoutMs: 5000 },
        rateLimits: profileLimit(5),
        maxQueueWaitMs: 1000,
        redisUrl: redis.url,
      });
      proxies.push(await startProxy(config));
    }
    const dots = Array.from({ length: 10 }, (_, i) => String(1_000_001 + i));
    const answers = await Promise.all(
      dots.map((dot, i) => request(`${proxies[i % 2]?.url}/api/v2/profile?dot_number=${dot}`)),
    );
    // one budget for both: the first 5 reservations leave at once, the 6th slot is a minute away
    const profileCalls = front.seen.filter((call) => call.path === '/v2/profile');
    expect(profileCalls).toHaveLength(5);
    expect(front.seen.filter((call) => call.status === 429)).toEqual([]);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(5);
    for (const answer of refused) {
      expect(answer.json).toMatchObject({ code: 'rate_limited' });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    }
  });

  it('answers 503 coordination_unavailable and calls nothing while Redis cannot be reached', async () => {
    const nobody = await startRedis();
    if (typeof nobody === 'string') throw new Error(nobody);
    await nobody.stop(); // a port where nothing listens any more
    const proxy = await startProxy(
      testConfig({
        mode: 'test',
        upstream: { baseUrl: front.url, apiKey: SANDBOX_KEY, legacy: false, timeoutMs: 5000 },
        rateLimits: profileLimit(5),
        redisUrl: nobody.url,
      }),
    );
    proxies.push(proxy);
    const callsBefore = front.seen.length;
    const answer = await proxy.call('/api/v2/profile?dot_number=2000001');
    expect(answer.status).toBe(503);
    expect(answer.json).toEqual({
      error: expect.any(String),
      code: 'coordination_unavailable',
      hint: expect.any(String),
    });
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(front.seen.length).toBe(callsBefore);
  });
});
