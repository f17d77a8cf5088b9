/**
 * The failed sign-in limits and the per-user /api limit shared through Redis: two proxies on one
 * real Redis, over HTTP, stand for two replicas of one key. Where redis-server is not installed
 * each test is skipped by the runner with the reason (team/replicas.test-support.ts).
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProxyConfig } from '../context.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../governance/csrf.ts';
import { startProxy, testConfig, type RunningProxy } from '../helpers.test-support.ts';
import { usePostgres } from '../sql/engines.test-support.ts';
import { useRedis } from './replicas.test-support.ts';
import { startRedis, type TestService } from './services.test-support.ts';

const redis = useRedis();

const PASSWORD = 'a long enough password';
const proxies: RunningProxy[] = [];
const services: TestService[] = [];

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  for (const service of services) await service.stop();
});

/** Two replicas of one (fresh) key on the Redis at `url`, with password sign-in unless overridden. */
async function replicas(
  url: string,
  overrides: Partial<ProxyConfig> = {},
): Promise<[RunningProxy, RunningProxy]> {
  const upstream = {
    baseUrl: 'http://127.0.0.1:9',
    apiKey: `sk_live_${randomUUID()}`,
    legacy: false,
    timeoutMs: 2000,
  };
  const config = () =>
    testConfig({
      auth: { kind: 'password', password: PASSWORD },
      upstream,
      redisUrl: url,
      ...overrides,
    });
  const pair: [RunningProxy, RunningProxy] = [
    await startProxy(config()),
    await startProxy(config()),
  ];
  proxies.push(...pair);
  return pair;
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: { error?: string; code?: string; hint?: string };
  cookie: string | undefined;
}

/** POST /api/local/session as `username` from a given loopback source address (127.0.0.0/8 all reach us). */
function signIn(
  proxy: RunningProxy,
  source: string,
  password: string,
  username = 'admin',
): Promise<Answer> {
  const { hostname, port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname,
        port,
        path: '/api/local/session',
        method: 'POST',
        localAddress: source,
        headers: {
          'content-type': 'application/json',
          origin: proxy.url,
          [CSRF_HEADER]: CSRF_HEADER_VALUE,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => {
          const header = res.headers['retry-after'];
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: typeof header === 'string' ? header : undefined,
            body: JSON.parse(text) as Answer['body'],
            cookie: res.headers['set-cookie']?.[0]?.split(';')[0],
          });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ username, password }));
  });
}

describe('sign-in limits shared by two proxies on one Redis', () => {
  it('locks the name on both after 10 failures spread over both', async () => {
    const pair = await replicas(redis.url);
    for (let i = 0; i < 10; i += 1) {
      const answer = await signIn(pair[i % 2] as RunningProxy, `127.0.${i}.3`, `guess ${i}`);
      expect(answer).toMatchObject({ status: 401, body: { code: 'bad_credentials' } });
    }
    for (const [i, proxy] of pair.entries()) {
      // the right password, from an address that never failed, on either replica
      const answer = await signIn(proxy, `127.0.9${i}.3`, PASSWORD);
      expect(answer).toMatchObject({ status: 429, body: { code: 'login_locked' } });
      expect(Number(answer.retryAfter)).toBeGreaterThan(290);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(300);
    }
  });

  it('limits one address to 5 failures per name over both', async () => {
    const pair = await replicas(redis.url);
    for (let i = 0; i < 5; i += 1) {
      const answer = await signIn(pair[i % 2] as RunningProxy, '127.0.0.4', `guess ${i}`);
      expect(answer.status).toBe(401);
    }
    for (const proxy of pair) {
      const answer = await signIn(proxy, '127.0.0.4', PASSWORD);
      expect(answer).toMatchObject({ status: 429, body: { code: 'login_rate_limited' } });
      expect(Number(answer.retryAfter)).toBeGreaterThan(890);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(900);
    }
    // Another address may still sign in: five failures do not lock the name.
    expect((await signIn(pair[1], '127.0.0.5', PASSWORD)).status).toBe(200);
  });

  it('limits one address spraying 60 names over both, and takes a right password back out', async () => {
    const pair = await replicas(redis.url);
    // a right password from the address first: it is not counted against the address
    expect((await signIn(pair[0], '127.0.4.3', PASSWORD)).status).toBe(200);
    const answers: Answer[] = [];
    for (let i = 0; i < 60; i += 1) {
      const proxy = pair[i % 2] as RunningProxy;
      answers.push(await signIn(proxy, '127.0.4.3', 'Winter2026!!', `user${i}`));
    }
    expect(answers.slice(0, 20).every((answer) => answer.status === 401)).toBe(true);
    expect(answers.slice(20).every((answer) => answer.status === 429)).toBe(true);
    expect(answers[20]?.body.code).toBe('login_rate_limited');
    expect(Number(answers[20]?.retryAfter)).toBeGreaterThan(850);
    expect(Number(answers[20]?.retryAfter)).toBeLessThanOrEqual(900);
    for (const proxy of pair) {
      expect((await signIn(proxy, '127.0.4.3', PASSWORD)).status).toBe(429);
    }
    expect((await signIn(pair[1], '127.0.4.4', PASSWORD)).status).toBe(200);
  });

  it('counts a burst of parallel guesses on both replicas before checking any', async () => {
    const pair = await replicas(redis.url);
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        signIn(pair[i % 2] as RunningProxy, `127.1.${i % 3}.3`, `guess ${i}`),
      ),
    );
    expect(burst.filter((answer) => answer.status === 401).length).toBeLessThanOrEqual(10);
    expect(burst.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(20);
  });

  it('keeps no user name in Redis keys', async () => {
    const pair = await replicas(redis.url);
    await signIn(pair[0], '127.0.0.6', 'wrong');
    const { Redis } = await import('ioredis');
    const reader = new Redis(redis.url);
    try {
      const keys = await reader.keys('carrier-desk:login:*');
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.filter((key) => /admin|127\.0\.0\.6/.test(key))).toEqual([]);
      for (const key of keys) expect(await reader.pttl(key)).toBeGreaterThan(0);
    } finally {
      reader.disconnect();
    }
  });
});

describe('the per-user /api limit on one Redis', () => {
  it('refuses with 429 once the requests over both replicas pass the limit', async () => {
    const pair = await replicas(redis.url, {
      auth: { kind: 'none' },
      userRateLimitPerMinute: 6,
    });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const answer = await (pair[i % 2] as RunningProxy).call('/api/local/session');
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(answer.json).toEqual({
          error: 'More than 6 requests a minute',
          code: 'rate_limited',
          hint: expect.any(String),
        });
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429]);
  });
});

describe('the per-token /api limit on one Redis', () => {
  const postgres = usePostgres();

  it("counts an API token's requests over both replicas against TOKEN_RATE_LIMIT_PER_MINUTE", async () => {
    // the token lives in the database both replicas share; its count in Redis
    const pair = await replicas(redis.url, {
      auth: { kind: 'none' },
      databaseUrl: await postgres.migratedDatabase(),
      userRateLimitPerMinute: 1000,
      tokenRateLimitPerMinute: 4,
    });
    const made = await pair[0].call('/api/local/tokens', {
      method: 'POST',
      headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE },
      body: { name: 'tms', role: 'viewer', expires_in_days: 1 },
    });
    expect(made.status).toBe(201);
    const { token } = made.json as { token: string };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const answer = await fetch(`${(pair[i % 2] as RunningProxy).url}/api/local/session`, {
        headers: { authorization: `Bearer ${token}` },
      });
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await answer.json()).toMatchObject({ code: 'rate_limited' });
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    // the local admin (no token) is counted apart, at the per-user limit
    expect((await pair[1].call('/api/local/session')).status).toBe(200);
  });
});

describe('Redis stopped', () => {
  it('refuses every sign-in with 503, lets /api through uncounted, and recovers', async () => {
    const breakable = await startRedis();
    if (typeof breakable === 'string') throw new Error(breakable);
    services.push(breakable);
    const pair = await replicas(breakable.url, { userRateLimitPerMinute: 3 });
    const signedIn = await signIn(pair[0], '127.0.0.7', PASSWORD);
    expect(signedIn.status).toBe(200);
    const cookie = { cookie: signedIn.cookie ?? '' };

    await breakable.stop();
    for (const proxy of pair) {
      const answer = await signIn(proxy, '127.0.0.7', PASSWORD);
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({
        error: expect.any(String),
        code: 'coordination_unavailable',
        hint: expect.any(String),
      });
      expect(answer.retryAfter).toBe('5');
    }
    // fail open: more than the limit of 3 a minute, all answered
    for (let i = 0; i < 5; i += 1) {
      expect((await pair[0].call('/api/local/session', { headers: cookie })).status).toBe(200);
    }

    const back = await startRedis({ port: breakable.port });
    if (typeof back === 'string') throw new Error(back);
    services.push(back);
    // each replica's client reconnects by itself within about a second
    for (const proxy of pair) {
      let answer = await signIn(proxy, '127.0.0.7', PASSWORD);
      const deadline = Date.now() + 5000;
      while (answer.status === 503 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        answer = await signIn(proxy, '127.0.0.7', PASSWORD);
      }
      expect(answer.status).toBe(200);
    }
    // counted again: the 4th request of the minute is refused
    const after: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      after.push((await pair[0].call('/api/local/session', { headers: cookie })).status);
    }
    expect(after).toEqual([200, 200, 200, 429]);
  });
});
