import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_SANDBOX_KEY } from './config.ts';
import {
  CSRF,
  captureLog,
  request,
  startProxy,
  testConfig,
  type CallResult,
  type RunningProxy,
} from './helpers.test-support.ts';

const log = captureLog();
let proxy: RunningProxy;
let staticDir: string;
const responses: CallResult[] = [];

async function call(path: string, init?: Parameters<RunningProxy['call']>[1]) {
  const result = await proxy.call(path, init);
  responses.push(result);
  return result;
}

/** Arm fault rules on the embedded sandbox (its own test endpoint, with its key). */
async function arm(rules: Record<string, unknown>[]) {
  const sandbox = proxy.app.proxy.sandbox;
  if (!sandbox) throw new Error('no embedded sandbox');
  const armed = await request(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
    body: { rules },
  });
  expect(armed.status).toBe(200);
}

beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'proxy-spa-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(
    join(staticDir, 'index.html'),
    `<!doctype html><title>carrier-desk</title>${'<p>x</p>'.repeat(300)}`,
  );
  writeFileSync(join(staticDir, 'assets', 'index-AbC123.js'), `console.log(1);${' '.repeat(4000)}`);
  proxy = await startProxy(
    testConfig({
      mode: 'sandbox',
      embeddedSandbox: true,
      upstream: { baseUrl: '', apiKey: EMBEDDED_SANDBOX_KEY, legacy: false, timeoutMs: 1500 },
      staticDir,
      logLevel: 'info',
    }),
    { logStream: log },
  );
});

afterAll(async () => {
  await proxy.close();
  rmSync(staticDir, { recursive: true, force: true });
});

describe('embedded sandbox mode', () => {
  it('serves the example carrier end to end', async () => {
    const result = await call('/api/v2/profile?dot_number=568253');
    expect(result.status).toBe(200);
    const body = result.json as { items: { doc_id: string }[]; total_count: number };
    expect(body.items[0]?.doc_id).toBe('568253-MC277621');
    expect(result.headers.get('x-cache')).toBe('miss');
    expect(result.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('mirrors monitoring add, list and remove', async () => {
    const added = await call('/api/v2/monitoring/add', {
      method: 'POST',
      headers: CSRF,
      body: { profile_ids: ['568253-MC277621'] },
    });
    expect(added.status).toBe(200);
    expect(added.json).toMatchObject({ added: 1 });
    const list = await call('/api/v2/monitoring/list?profile_id=568253-MC277621');
    expect(list.status).toBe(200);
    expect(Object.keys((list.json as { items: object }).items)).toEqual(['568253-MC277621']);
  });

  it('records every call in the audit and meters spend', async () => {
    await call('/api/v2/profile-lite?dot_number=568253');
    await call('/api/v2/profile-lite?dot_number=568253');
    await call('/api/v2/profile-lite?dot_number=x');
    const audit = await call('/api/local/audit?dot=568253');
    const items = (audit.json as { items: Record<string, unknown>[] }).items;
    const lite = items.filter((item) => item.endpoint === 'profile-lite');
    expect(lite.map((item) => [item.cacheHit, item.billable, item.status])).toEqual([
      [true, false, 200],
      [false, true, 200],
    ]);
    expect(lite[0]).toMatchObject({
      searchKey: 'dot_number',
      searchValue: '568253',
      user: 'local',
    });
    const refused = await call('/api/local/audit?pageSize=50');
    const statuses = (refused.json as { items: { status: number }[] }).items.map((i) => i.status);
    expect(statuses).toContain(400);
  });

  it('answers 404 JSON for unknown /api paths and 405 with Allow for wrong methods', async () => {
    const unknown = await call('/api/v2/carriers');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'not_found' });
    const wrong = await call('/api/v2/profile', { method: 'POST', headers: CSRF, body: {} });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    const head = await call('/api/v2/profile?dot_number=568253', { method: 'HEAD' });
    expect(head.status).toBe(405);
    const getAdd = await call('/api/v2/monitoring/add');
    expect(getAdd.status).toBe(405);
    expect(getAdd.headers.get('allow')).toBe('POST');
  });

  it('reports health and readiness', async () => {
    expect((await call('/healthz')).json).toEqual({ status: 'ok' });
    expect((await call('/readyz')).json).toEqual({
      status: 'ready',
      checks: { upstream: true, database: true },
    });
  });
});

describe('upstream faults through the real sandbox', () => {
  it('retries a 503 and returns the success', async () => {
    await arm([{ path: '/v2/profile-fmcsa', status: 503, retry_after: 0, count: 2 }]);
    const result = await call('/api/v2/profile-fmcsa?dot_number=568253');
    expect(result.status).toBe(200);
    expect((result.json as { dot_number: string }).dot_number).toBe('568253');
  });

  it('waits out a 429 Retry-After: 1 and succeeds', async () => {
    await arm([{ path: '/v2/autocomplete', status: 429, retry_after: 1 }]);
    const result = await call('/api/v2/autocomplete?q=hansen');
    expect(result.status).toBe(200);
  });

  it('passes a long 429 on with Retry-After', async () => {
    await arm([{ path: '/v2/profile', status: 429, retry_after: 120 }]);
    const result = await call('/api/v2/profile?dot_number=1000001');
    expect(result.status).toBe(429);
    expect(result.headers.get('retry-after')).toBe('120');
    expect(result.json).toMatchObject({ code: 'rate_limited' });
  });

  it('turns a truncated body into 502 bad_upstream', async () => {
    await arm([{ path: '/v2/profile-lite', body: 'malformed' }]);
    const result = await call('/api/v2/profile-lite?docket_number=MC277621');
    expect(result.status).toBe(502);
    expect(result.json).toMatchObject({ code: 'bad_upstream' });
  });

  it('retries a reset connection', async () => {
    await arm([{ path: '/v2/monitoring/list', reset_connection: true }]);
    const result = await call('/api/v2/monitoring/list');
    expect(result.status).toBe(200);
  });

  it('answers 504 when the sandbox is slower than the timeout', async () => {
    await arm([{ path: '/v2/monitoring/list', delay_ms: 2500 }]);
    const result = await call('/api/v2/monitoring/list?page=2');
    expect(result.status).toBe(504);
    expect(result.json).toMatchObject({ code: 'upstream_timeout' });
  });

  it('property: what the proxy forwards, the sandbox accepts', async () => {
    const names = [
      'dot_number',
      'docket_number',
      'ein',
      'vin',
      'phone',
      'email',
      'company',
      'plate_number',
      'plate_state',
      'page',
      'pageSize',
      'q',
      'limit',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('profile-lite', 'profile-fmcsa', 'autocomplete'),
        fc.array(fc.tuple(fc.constantFrom(...names), fc.string({ maxLength: 18 })), {
          maxLength: 3,
        }),
        async (path, pairs) => {
          const result = await proxy.call(`/api/v2/${path}?${new URLSearchParams(pairs)}`);
          expect(result.status).toBeLessThan(500);
          // a forwarded answer carries x-cache; a 400 must be the proxy's own
          if (result.status === 400) expect(result.headers.get('x-cache')).toBeNull();
        },
      ),
      { numRuns: 120 },
    );
  });
});

describe('static SPA', () => {
  it('serves hashed assets as immutable and compressed', async () => {
    const asset = await call('/assets/index-AbC123.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-encoding')).toBe('gzip');
  });

  it('answers client routes with index.html (no-cache), but not /api or missing files', async () => {
    const route = await call('/carriers/568253', { headers: { accept: 'text/html' } });
    expect(route.status).toBe(200);
    expect(route.headers.get('cache-control')).toBe('no-cache');
    expect(route.text).toContain('<title>carrier-desk</title>');
    expect((await call('/')).text).toContain('<title>carrier-desk</title>');
    expect((await call('/assets/missing-123.js')).status).toBe(404);
    expect((await call('/api/v2/nothing')).headers.get('content-type')).toMatch(/json/);
  });
});

describe('the key', () => {
  it('never appears in any response or log line', () => {
    expect(responses.length).toBeGreaterThan(20);
    for (const result of responses) {
      expect(result.text).not.toContain(EMBEDDED_SANDBOX_KEY);
      expect(JSON.stringify([...result.headers])).not.toContain(EMBEDDED_SANDBOX_KEY);
    }
    expect(log.lines.length).toBeGreaterThan(20);
    expect(log.lines.join('')).not.toContain(EMBEDDED_SANDBOX_KEY);
  });
});
