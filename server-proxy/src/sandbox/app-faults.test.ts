import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  TEST_KEY,
  expectError,
  itemsOf,
  startSandbox,
  type RunningSandbox,
} from './helpers.test-support.ts';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  await sandbox.call('/__sandbox/faults', { method: 'DELETE' });
});

async function arm(...rules: Record<string, unknown>[]): Promise<void> {
  const result = await sandbox.call('/__sandbox/faults', { method: 'POST', body: { rules } });
  expect(result.status).toBe(200);
}

const profile = (prefix = '/v2') => sandbox.call(`${prefix}/profile?dot_number=568253`);

describe('fault rules', () => {
  it('429 carries Retry-After (default 1 s) and the error body, then the rule is used up', async () => {
    await arm({ path: '/v2/profile', status: 429, count: 1 });
    const limited = await profile();
    expectError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(itemsOf(await profile())).toHaveLength(1);
  });

  it('503 with a chosen retry_after applies on either deployment until count is exhausted', async () => {
    await arm({ path: '/v2/profile', status: 503, count: 2, retry_after: 7 });
    const first = await profile('/api/v2');
    expectError(first, 503, 'service_unavailable');
    expect(first.headers.get('retry-after')).toBe('7');
    expectError(await profile('/v2'), 503, 'service_unavailable');
    expect((await profile('/v2')).status).toBe(200);
  });

  it('500 with a malformed body is not parseable JSON', async () => {
    await arm({ path: '/v2/autocomplete', status: 500, body: 'malformed' });
    const result = await sandbox.call('/v2/autocomplete?q=ha');
    expect(result.status).toBe(500);
    expect(result.json).toBeUndefined();
    expect(result.text.length).toBeGreaterThan(0);
  });

  it('a rule without status mangles the normal answer (empty body, still 200)', async () => {
    await arm({ path: '/v2/profile', body: 'empty' });
    const result = await profile();
    expect(result.status).toBe(200);
    expect(result.text).toBe('');
    expect(itemsOf(await profile())).toHaveLength(1);
  });

  it('a malformed 200 body is cut short', async () => {
    await arm({ path: '/v2/profile', body: 'malformed' });
    const result = await profile();
    expect(result.status).toBe(200);
    expect(result.json).toBeUndefined();
    expect(result.text.startsWith('{"items":[')).toBe(true);
  });

  it('delay_ms delays the answer', async () => {
    await arm({ path: '/v2/profile', delay_ms: 300 });
    const started = performance.now();
    expect((await profile()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('matches the method when given', async () => {
    await arm({ path: '/v2/profile', method: 'POST', status: 503 });
    expect((await profile()).status).toBe(200);
    expect((await sandbox.call('/__sandbox/faults')).json).toMatchObject({ rules: [{ count: 1 }] });
  });

  it('reset_connection drops the socket without an answer', async () => {
    await arm({ path: '/v2/profile', reset_connection: true });
    const url = new URL(`${sandbox.url}/v2/profile?dot_number=568253`);
    const outcome = await new Promise<string>((resolve) => {
      const req = httpRequest(url, { headers: { authorization: `Bearer ${TEST_KEY}` } }, (res) =>
        resolve(`status ${res.statusCode}`),
      );
      req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      req.end();
    });
    expect(outcome).toMatch(/ECONNRESET|socket hang up/);
    expect((await profile()).status).toBe(200);
  });

  it('does not apply to requests without a valid key', async () => {
    await arm({ path: '/v2/profile', status: 503 });
    const anonymous = await sandbox.call('/v2/profile?dot_number=1', {
      headers: { authorization: 'Bearer sk_test_nope' },
    });
    expect(anonymous.status).toBe(401);
    expect((await profile()).status).toBe(503);
  });

  it('a 207 rule on monitoring/add is served by the monitoring module', async () => {
    await arm({ path: '/api/v2/monitoring/add', status: 207, count: 1 });
    const body = { profile_ids: ['568253-MC277621'] };
    const partial = await sandbox.call('/v2/monitoring/add', { method: 'POST', body });
    expect(partial.status).toBe(207);
    expect(partial.json).toMatchObject({ error: expect.any(String) as unknown });
    const retried = await sandbox.call('/v2/monitoring/add', { method: 'POST', body });
    expect(retried.status).toBe(200);
  });

  it('rejects invalid rules with 400 invalid_fault_rule', async () => {
    const result = await sandbox.call('/__sandbox/faults', {
      method: 'POST',
      body: { rules: [{ path: '/v2/profile', status: 418 }] },
    });
    expectError(result, 400, 'invalid_fault_rule');
  });

  it('reset clears armed rules', async () => {
    await arm({ path: '/v2/profile', status: 503, count: 5 });
    await sandbox.call('/__sandbox/reset', { method: 'POST' });
    expect((await profile()).status).toBe(200);
  });
});

describe('live rate limits (SANDBOX_RATE_LIMITS=live)', () => {
  it('allows 5 profile calls a minute per key, then 429 with Retry-After; off by default', async () => {
    const live = await startSandbox({ rateLimits: 'live' });
    try {
      for (let i = 0; i < 5; i += 1) {
        const prefix = i % 2 === 0 ? '/v2' : '/api/v2';
        expect((await live.call(`${prefix}/profile?dot_number=568253`)).status).toBe(200);
      }
      const limited = await live.call('/v2/profile?dot_number=568253');
      expectError(limited, 429, 'rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(50);
      expect((await live.call('/v2/profile-lite?dot_number=568253')).status).toBe(200);
      expect((await live.call('/v2/profile-fmcsa?dot_number=568253')).status).toBe(200);
      await live.call('/__sandbox/reset', { method: 'POST' });
      expect((await live.call('/v2/profile?dot_number=568253')).status).toBe(200);
    } finally {
      await live.close();
    }
    for (let i = 0; i < 7; i += 1) expect((await profile()).status).toBe(200);
  });

  it('limits monitoring/list at 120 a minute', async () => {
    const live = await startSandbox({ rateLimits: 'live' });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 121 }, () => live.call('/v2/monitoring/list')),
      );
      expect(statuses.filter((r) => r.status === 200)).toHaveLength(120);
      expect(statuses.filter((r) => r.status === 429)).toHaveLength(1);
    } finally {
      await live.close();
    }
  });
});
