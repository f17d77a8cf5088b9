import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from './passwords.ts';
import {
  SECRET_KEY,
  cookieOf,
  makeTempDir,
  startGovernedApp,
  testConfig,
  type GovernedApp,
} from './helpers.test-support.ts';

const running: GovernedApp[] = [];
async function start(...args: Parameters<typeof startGovernedApp>) {
  const app = await startGovernedApp(...args);
  running.push(app);
  return app;
}
const dirs: string[] = [];
afterEach(async () => {
  for (const app of running.splice(0)) await app.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('DASHBOARD_AUTH=none', () => {
  it('runs every request as user local, an admin, and keeps probes open', async () => {
    const app = await start(testConfig());
    expect((await app.call('/api/v2/profile')).json).toEqual({
      user: { id: 'local', name: 'local', role: 'admin' },
    });
    expect((await app.call('/api/local/session')).json).toMatchObject({ user: { id: 'local' } });
    expect((await app.call('/healthz')).status).toBe(200);
  });

  it('serves /api/local/config without the key or the upstream address', async () => {
    const app = await start(
      testConfig({ monthlyBudgetUsd: 25, orgName: 'Northwind Freight Brokerage' }),
    );
    const reply = await app.call('/api/local/config');
    expect(reply.status).toBe(200);
    expect(reply.text).not.toContain(SECRET_KEY);
    expect(reply.text).not.toContain('sk_');
    expect(reply.text).not.toContain('127.0.0.1:9');
    expect(reply.json).toMatchObject({
      mode: 'live',
      legacy: false,
      budgetUsd: 25,
      orgName: 'Northwind Freight Brokerage',
      auth: 'none',
      user: { id: 'local' },
      billing: { billed: true },
      csrfHeader: { name: 'x-requested-with', value: 'carrier-desk' },
    });
    const prices = (reply.json as { prices: { endpoint: string; usd: number }[] }).prices;
    expect(prices.find((price) => price.endpoint === 'profile')?.usd).toBe(3);
  });

  it('says whether profile summaries are cut (the profile cache is on)', async () => {
    const on = await start(testConfig());
    expect((await on.call('/api/local/config')).json).toMatchObject({ profileSummaries: true });
    const base = testConfig();
    const off = await start({ ...base, cache: { ...base.cache, profileTtlMs: 0 } });
    expect((await off.call('/api/local/config')).json).toMatchObject({ profileSummaries: false });
  });

  it('says nothing is billed in sandbox mode', async () => {
    const app = await start(testConfig({ mode: 'sandbox' }));
    const usage = await app.call('/api/local/usage');
    expect(usage.json).toMatchObject({ mode: 'sandbox', billing: { billed: false } });
    expect(JSON.stringify(usage.json)).toContain('Nothing is billed in sandbox/test');
  });
});

describe('usage, estimate and audit routes', () => {
  it('estimates 37 monitoring ids of which 30 are new at 15.00 USD', async () => {
    const app = await start(testConfig({ monthlyBudgetUsd: 12 }));
    const ids = Array.from({ length: 37 }, (_, i) => `${500 + i}-MC${900 + i}`);
    const known = ids.slice(0, 7).map((id) => id.split('-')[0] ?? '');
    app.parts.spend.record({
      endpoint: 'monitoring/add',
      dots: known,
      at: new Date(),
      user: 'local',
      cacheHit: false,
    });
    const reply = await app.call('/api/local/estimate', {
      method: 'POST',
      browser: true,
      body: { action: 'monitoring/add', profile_ids: ids },
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      units: 37,
      billableUnits: 30,
      costUsd: 15,
      withinBudget: false,
    });
    const usage = await app.call('/api/local/usage');
    expect(usage.json).toMatchObject({ spentUsd: 3.5, budgetUsd: 12, remainingUsd: 8.5 });
  });

  it.each([
    [{ action: 'profile' }, 'missing_dots'],
    [{ action: 'refund' }, 'invalid_action'],
    [{ action: 'profile', profile_ids: ['568253'] }, 'invalid_profile_ids'],
    [{ action: 'profile', dots: ['12a'] }, 'invalid_dots'],
    [{ action: 'autocomplete' }, 'missing_count'],
    [{ action: 'autocomplete', count: 0 }, 'invalid_count'],
    [{ action: 'profile', dots: ['1'], extra: 1 }, 'unknown_field'],
    [['profile'], 'invalid_body'],
  ])('refuses estimate body %j with 400 %s', async (body, code) => {
    const app = await start(testConfig());
    const reply = await app.call('/api/local/estimate', { method: 'POST', browser: true, body });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code });
    expect(reply.json).toHaveProperty('hint');
  });

  it('pages and filters the audit, and validates its query', async () => {
    const app = await start(testConfig());
    for (const [user, dot] of [
      ['ann', '1'],
      ['bo', '2'],
      ['ann', '2'],
    ] as const) {
      app.parts.audit.record({
        at: new Date(),
        user,
        method: 'GET',
        endpoint: 'profile',
        dot,
        cacheHit: false,
        billable: true,
        status: 200,
      });
    }
    const reply = await app.call('/api/local/audit?user=ann&pageSize=1&page=2');
    expect(reply.json).toMatchObject({
      total_count: 2,
      page: 2,
      pageSize: 1,
      items: [{ dot: '1' }],
    });
    const byDot = (await app.call('/api/local/audit?dot=2')).json as { items: { user: string }[] };
    expect(byDot.items.map((item) => item.user)).toEqual(['ann', 'bo']);
    for (const [query, code] of [
      ['pageSize=201', 'invalid_pageSize'],
      ['page=0', 'invalid_page'],
      ['dot=abc', 'invalid_dot'],
      ['sort=asc', 'unknown_parameter'],
    ]) {
      const bad = await app.call(`/api/local/audit?${query}`);
      expect([bad.status, (bad.json as { code: string }).code]).toEqual([400, code]);
    }
  });
});

/** A users file: `name: password` or `name: [password, role]` (no role: analyst). */
async function usersFile(lines: Record<string, string | [string, string]>): Promise<string> {
  const dir = makeTempDir();
  dirs.push(dir);
  const file = join(dir, 'users');
  const text = await Promise.all(
    Object.entries(lines).map(async ([name, entry]) => {
      const [pw, role] = typeof entry === 'string' ? [entry] : entry;
      return `${name}:${await hashPassword(pw)}${role === undefined ? '' : `:${role}`}`;
    }),
  );
  writeFileSync(file, text.join('\n'));
  return file;
}

function login(app: GovernedApp, username: string, password: string) {
  return app.call('/api/local/session', {
    method: 'POST',
    browser: true,
    body: { username, password },
  });
}

describe('DASHBOARD_AUTH=password', () => {
  it('refuses the API with 401 and redirects pages to /login until signed in', async () => {
    const app = await start(testConfig({ auth: { kind: 'password', password: 'hunter22' } }));
    const api = await app.call('/api/v2/profile');
    expect(api.status).toBe(401);
    expect(api.json).toMatchObject({ code: 'unauthenticated' });
    const page = await app.call('/?tab=watch');
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/login?next=%2F%3Ftab%3Dwatch');
    const form = await app.call('/login?next=%2Fwatch');
    expect(form.status).toBe(200);
    expect(form.text).toContain('<label for="username">');
    expect(form.text).toContain('<label for="password">');
    expect(form.text).toContain('value="/watch"');
    expect((await app.call('/healthz')).status).toBe(200);
  });

  it('signs in the single admin password with a hardened cookie, then logs out', async () => {
    const app = await start(
      testConfig({ auth: { kind: 'password', password: 'hunter22' }, secureCookies: true }),
    );
    expect((await login(app, 'admin', 'wrong')).json).toMatchObject({ code: 'bad_credentials' });
    const ok = await login(app, 'admin', 'hunter22');
    expect(ok.status).toBe(200);
    const setCookie = ok.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^cd_session=[\w-]{43};/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Secure/);
    const cookie = cookieOf(ok);
    const me = await app.call('/api/local/session', { headers: { cookie } });
    expect(me.json).toMatchObject({ user: { id: 'admin' }, auth: 'password' });
    const out = await app.call('/api/local/session', {
      method: 'DELETE',
      browser: true,
      headers: { cookie },
    });
    expect(out.status).toBe(204);
    expect((await app.call('/api/v2/profile', { headers: { cookie } })).status).toBe(401);
  });

  it('signs in users from a users file through the HTML form', async () => {
    const file = await usersFile({ alice: 'alice-pw', bob: ['bob-pw', 'admin'] });
    const app = await start(testConfig({ auth: { kind: 'password', usersFile: file } }));
    const form = { username: 'bob', password: 'bob-pw', next: '/watch?x=1' };
    const reply = await app.call('/api/local/session', {
      method: 'POST',
      form,
      headers: { origin: app.url },
    });
    expect(reply.status).toBe(303);
    expect(reply.headers.get('location')).toBe('/watch?x=1');
    const who = await app.call('/api/v2/profile', { headers: { cookie: cookieOf(reply) } });
    expect(who.json).toEqual({ user: { id: 'bob', name: 'bob', role: 'admin' } });
    const wrong = await app.call('/api/local/session', {
      method: 'POST',
      form: { ...form, password: 'nope', next: '//evil.example' },
      headers: { origin: app.url },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('role="alert"');
    expect(wrong.text).toContain('value="/"');
    const audit = await app.call('/api/local/audit', { headers: { cookie: cookieOf(reply) } });
    const statuses = (audit.json as { items: { user: string; status: number }[] }).items;
    expect(statuses.map((item) => `${item.user}:${item.status}`)).toEqual(['bob:401', 'bob:303']);
  });

  it('expires sessions after their lifetime', async () => {
    let now = new Date('2026-05-01T08:00:00Z');
    const app = await start(testConfig({ auth: { kind: 'password', password: 'pw-long-1' } }), {
      now: () => now,
      sessionTtlMs: 60_000,
    });
    const cookie = cookieOf(await login(app, 'admin', 'pw-long-1'));
    expect((await app.call('/api/v2/profile', { headers: { cookie } })).status).toBe(200);
    now = new Date('2026-05-01T08:01:01Z');
    expect((await app.call('/api/v2/profile', { headers: { cookie } })).status).toBe(401);
  });

  it('rate-limits failed sign-ins per address and user name', async () => {
    const app = await start(testConfig({ auth: { kind: 'password', password: 'pw-long-2' } }));
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await login(app, 'admin', `guess-${attempt}`)).status).toBe(401);
    }
    const blocked = await login(app, 'admin', 'pw-long-2');
    expect(blocked.status).toBe(429);
    expect(blocked.json).toMatchObject({ code: 'login_rate_limited' });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(800);
    expect((await login(app, 'other', 'x')).status).toBe(401);
  });
});

describe('DASHBOARD_AUTH=trusted-header', () => {
  const header = 'x-forwarded-user';

  it('takes the user from the header when the peer is a trusted proxy', async () => {
    const app = await start(
      testConfig({ auth: { kind: 'trusted-header', header, trustedProxies: ['127.0.0.0/8'] } }),
    );
    const reply = await app.call('/api/v2/profile', { headers: { [header]: 'jane@corp.example' } });
    expect(reply.json).toEqual({
      user: { id: 'jane@corp.example', name: 'jane@corp.example', role: 'viewer' },
    });
    expect((await app.call('/api/v2/profile')).status).toBe(401);
  });

  it('ignores the header from an untrusted address', async () => {
    const app = await start(
      testConfig({ auth: { kind: 'trusted-header', header, trustedProxies: ['10.1.2.3'] } }),
    );
    const reply = await app.call('/api/v2/profile', { headers: { [header]: 'jane' } });
    expect(reply.status).toBe(401);
    expect(reply.json).toMatchObject({ code: 'unauthenticated' });
  });

  it('refuses a malformed trusted-proxy list at start', async () => {
    await expect(
      start(
        testConfig({ auth: { kind: 'trusted-header', header, trustedProxies: ['proxy.lan'] } }),
      ),
    ).rejects.toThrow(/not an IP address/);
  });
});

describe('CSRF', () => {
  const add = { method: 'POST', body: { profile_ids: ['1-MC1'] } };

  it('allows a same-origin request with the custom header', async () => {
    const app = await start(testConfig());
    expect((await app.call('/api/v2/monitoring/add', { ...add, browser: true })).status).toBe(200);
    const viaFetchMetadata = await app.call('/api/v2/monitoring/add', {
      ...add,
      headers: { 'sec-fetch-site': 'same-origin', 'x-requested-with': 'carrier-desk' },
    });
    expect(viaFetchMetadata.status).toBe(200);
  });

  it.each([
    ['no custom header', { origin: 'SELF' }],
    ['a foreign origin', { origin: 'https://evil.example', 'x-requested-with': 'carrier-desk' }],
    ['a cross-site fetch', { 'sec-fetch-site': 'cross-site', 'x-requested-with': 'carrier-desk' }],
    ['a same-site fetch', { 'sec-fetch-site': 'same-site', 'x-requested-with': 'carrier-desk' }],
    ['origin null', { origin: 'null', 'x-requested-with': 'carrier-desk' }],
    ['a wrong header value', { origin: 'SELF', 'x-requested-with': 'XMLHttpRequest' }],
  ])('refuses a state-changing request with %s', async (_name, raw) => {
    const app = await start(testConfig());
    const headers = Object.fromEntries(
      Object.entries(raw).map(([key, value]) => [key, value === 'SELF' ? app.url : value]),
    );
    const reply = await app.call('/api/v2/monitoring/add', { ...add, headers });
    expect(reply.status).toBe(403);
    expect(reply.json).toMatchObject({ code: 'csrf' });
    expect(reply.json).toHaveProperty('hint');
  });

  it('refuses a login form posted without proof of origin', async () => {
    const app = await start(testConfig({ auth: { kind: 'password', password: 'pw-long-3' } }));
    const reply = await app.call('/api/local/session', {
      method: 'POST',
      form: { username: 'admin', password: 'pw-long-3' },
    });
    expect(reply.status).toBe(403);
  });
});

describe('per-user rate limit on /api', () => {
  it('limits each user separately with 429, Retry-After and the error shape', async () => {
    const app = await start(
      testConfig({
        userRateLimitPerMinute: 3,
        auth: { kind: 'trusted-header', header: 'x-user', trustedProxies: ['127.0.0.1'] },
      }),
    );
    const as = (user: string) => app.call('/api/v2/profile', { headers: { 'x-user': user } });
    for (let i = 0; i < 3; i += 1) expect((await as('ann')).status).toBe(200);
    const limited = await as('ann');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.json).toMatchObject({ code: 'rate_limited' });
    expect(limited.json).toHaveProperty('hint');
    expect((await as('bo')).status).toBe(200);
    expect((await app.call('/', { headers: { 'x-user': 'ann' } })).status).toBe(200);
  });
});

describe('security headers', () => {
  it('sends a strict CSP that MapLibre works under, nosniff and a referrer policy', async () => {
    const app = await start(testConfig({ auth: { kind: 'password', password: 'pw-long-4' } }));
    for (const path of ['/login', '/api/v2/profile']) {
      const reply = await app.call(path);
      const csp = reply.headers.get('content-security-policy') ?? '';
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "worker-src 'self' blob:",
        'child-src blob:',
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
      ]) {
        expect(csp).toContain(directive);
      }
      expect(csp).not.toContain('unsafe');
      expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
      expect(reply.headers.get('x-frame-options')).toBe('DENY');
      expect(reply.headers.get('referrer-policy')).toBe('same-origin');
      expect(reply.headers.get('strict-transport-security')).toBeNull();
    }
  });
});
