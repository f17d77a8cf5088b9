import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT_LOCK_POLICY, createLoginLimiter } from './login-limit.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from './csrf.ts';
import { startGovernedApp, testConfig, type GovernedApp } from './helpers.test-support.ts';

const MINUTE = 60_000;
const PASSWORD = 'a long enough password';

describe('the login limiter', () => {
  it('locks a name after 10 failures from any addresses, whatever each address did', () => {
    const limiter = createLoginLimiter();
    const t0 = Date.UTC(2026, 4, 1);
    for (let i = 0; i < 10; i += 1) {
      expect(limiter.check(`10.0.0.${i}`, 'admin', t0 + i)).toBeUndefined();
      limiter.attempt(`10.0.0.${i}`, 'admin', t0 + i);
    }
    expect(limiter.check('10.9.9.9', 'admin', t0 + 10)).toEqual({
      scope: 'account',
      retryAfterSeconds: 300,
    });
    expect(limiter.check('10.9.9.9', 'ADMIN', t0 + 10)?.scope).toBe('account');
    expect(limiter.check('10.9.9.9', 'alice', t0 + 10)).toBeUndefined();
  });

  it('doubles the lock on continued failures, up to an hour, and forgets after a quiet day', () => {
    const limiter = createLoginLimiter();
    let now = Date.UTC(2026, 4, 1);
    const locks: number[] = [];
    for (let round = 0; round < 6; round += 1) {
      for (let i = 0; i < ACCOUNT_LOCK_POLICY.maxFailures; i += 1) {
        limiter.attempt(`10.0.${round}.${i}`, 'admin', now);
      }
      const refusal = limiter.check('10.1.1.1', 'admin', now);
      locks.push((refusal?.retryAfterSeconds ?? 0) / 60);
      now += (refusal?.retryAfterSeconds ?? 0) * 1000;
      expect(limiter.check('10.1.1.1', 'admin', now)).toBeUndefined();
    }
    expect(locks).toEqual([5, 10, 20, 40, 60, 60]);
    now += 24 * 60 * MINUTE;
    for (let i = 0; i < 10; i += 1) limiter.attempt(`10.2.0.${i}`, 'admin', now);
    expect(limiter.check('10.1.1.1', 'admin', now)?.retryAfterSeconds).toBe(300);
  });

  it('counts only failures within 15 minutes toward a lock', () => {
    const limiter = createLoginLimiter();
    const t0 = Date.UTC(2026, 4, 1);
    for (let i = 0; i < 9; i += 1) limiter.attempt(`10.0.0.${i}`, 'admin', t0);
    limiter.attempt('10.0.1.1', 'admin', t0 + 16 * MINUTE);
    expect(limiter.check('10.0.2.2', 'admin', t0 + 16 * MINUTE)).toBeUndefined();
  });

  it('clears the name on a successful sign-in', () => {
    const limiter = createLoginLimiter();
    const t0 = Date.UTC(2026, 4, 1);
    for (let i = 0; i < 9; i += 1) limiter.attempt(`10.0.0.${i}`, 'admin', t0);
    limiter.succeed('10.0.0.1', 'admin');
    limiter.attempt('10.0.0.2', 'admin', t0);
    expect(limiter.check('10.0.0.3', 'admin', t0)).toBeUndefined();
  });

  it('still limits one address to 5 failures per name within 15 minutes', () => {
    const limiter = createLoginLimiter();
    const t0 = Date.UTC(2026, 4, 1);
    for (let i = 0; i < 5; i += 1) limiter.attempt('10.0.0.1', 'admin', t0);
    expect(limiter.check('10.0.0.1', 'admin', t0)).toEqual({
      scope: 'address',
      retryAfterSeconds: 900,
    });
    expect(limiter.check('10.0.0.2', 'admin', t0)).toBeUndefined();
  });

  it('limits one address to 20 failures over all names (spraying 60 names × 1 guess)', () => {
    const limiter = createLoginLimiter();
    const t0 = Date.UTC(2026, 4, 1);
    const refusals = Array.from({ length: 60 }, (_, i) => {
      const refusal = limiter.check('10.0.0.1', `user${i}`, t0 + i);
      if (refusal === undefined) limiter.attempt('10.0.0.1', `user${i}`, t0 + i);
      return refusal;
    });
    expect(refusals.slice(0, 20).every((refusal) => refusal === undefined)).toBe(true);
    expect(refusals[20]).toEqual({ scope: 'address', retryAfterSeconds: 900 });
    expect(refusals.slice(20).every((refusal) => refusal?.scope === 'address')).toBe(true);
    // a name it never guessed is refused from there too; another address is not
    expect(limiter.check('10.0.0.1', 'admin', t0 + 60)?.scope).toBe('address');
    expect(limiter.check('10.0.0.2', 'user0', t0 + 60)).toBeUndefined();
    // the window slides: once the first failure is 15 minutes old, one more guess is allowed
    expect(limiter.check('10.0.0.1', 'user60', t0 + 15 * MINUTE + 1)).toBeUndefined();
  });

  it('takes a successful sign-in back out of the address count, never the failures before it', () => {
    const limiter = createLoginLimiter();
    const t0 = Date.UTC(2026, 4, 1);
    for (let i = 0; i < 19; i += 1) limiter.attempt('10.0.0.1', `user${i}`, t0);
    // a team behind one address signing in, many times: each right password is taken back out
    for (let i = 0; i < 30; i += 1) {
      expect(limiter.check('10.0.0.1', 'alice', t0)).toBeUndefined();
      limiter.attempt('10.0.0.1', 'alice', t0);
      limiter.succeed('10.0.0.1', 'alice');
    }
    limiter.attempt('10.0.0.1', 'user19', t0);
    expect(limiter.check('10.0.0.1', 'alice', t0)?.scope).toBe('address');
  });
});

interface Answer {
  status: number;
  retryAfter: string | undefined;
  code: string | undefined;
}

/** POST /api/local/session from a given loopback source address (127.0.0.0/8 all reach us). */
function loginFrom(
  app: GovernedApp,
  source: string,
  password: string,
  username = 'admin',
): Promise<Answer> {
  const { hostname, port } = new URL(app.url);
  const body = JSON.stringify({ username, password });
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
          origin: app.url,
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
            code: (JSON.parse(text) as { code?: string }).code,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('password sign-in against many addresses', () => {
  let app: GovernedApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('locks the name after 10 failures when 20 addresses guess 5 times each', async () => {
    let now = new Date('2026-05-01T08:00:00Z');
    app = await startGovernedApp(testConfig({ auth: { kind: 'password', password: PASSWORD } }), {
      now: () => now,
    });
    const answers: Answer[] = [];
    for (let address = 0; address < 20; address += 1) {
      for (let guess = 0; guess < 5; guess += 1) {
        answers.push(await loginFrom(app, `127.0.${address}.2`, `guess ${address}-${guess}`));
      }
    }
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(10);
    expect(answers.slice(10).every((answer) => answer.status === 429)).toBe(true);
    expect(answers[10]).toMatchObject({ code: 'login_locked', retryAfter: '300' });
    // The right password from a fresh address is refused too while the lock lasts.
    expect(await loginFrom(app, '127.0.99.2', PASSWORD)).toMatchObject({
      status: 429,
      code: 'login_locked',
    });
    now = new Date('2026-05-01T08:05:01Z');
    expect((await loginFrom(app, '127.0.99.2', PASSWORD)).status).toBe(200);
  });

  it('counts parallel guesses before checking them, so a burst cannot outrun the limits', async () => {
    app = await startGovernedApp(testConfig({ auth: { kind: 'password', password: PASSWORD } }));
    const running = app;
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) => loginFrom(running, `127.1.${i % 3}.2`, `guess ${i}`)),
    );
    expect(burst.filter((answer) => answer.status === 401).length).toBeLessThanOrEqual(10);
    expect(burst.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(20);
  });

  it('limits one address guessing one password at each of 60 names (spraying)', async () => {
    const now = new Date('2026-05-01T08:00:00Z');
    app = await startGovernedApp(testConfig({ auth: { kind: 'password', password: PASSWORD } }), {
      now: () => now,
    });
    const answers: Answer[] = [];
    for (let i = 0; i < 60; i += 1) {
      answers.push(await loginFrom(app, '127.0.3.2', 'Winter2026!!', `user${i}`));
    }
    expect(answers.slice(0, 20).every((answer) => answer.code === 'bad_credentials')).toBe(true);
    expect(answers[20]).toMatchObject({
      status: 429,
      code: 'login_rate_limited',
      retryAfter: '900',
    });
    expect(answers.slice(20).every((answer) => answer.status === 429)).toBe(true);
    // the right password of a name never guessed waits too from there, not from elsewhere
    expect(await loginFrom(app, '127.0.3.2', PASSWORD)).toMatchObject({ status: 429 });
    expect((await loginFrom(app, '127.0.3.3', PASSWORD)).status).toBe(200);
  });
});
