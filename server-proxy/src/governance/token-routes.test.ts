/**
 * API tokens over real HTTP on both engines (docs/api.md): an admin makes tokens; a request with
 * only `Authorization: Bearer` (no cookie, no x-requested-with) reads a verdict and, as an analyst,
 * records a decision; a viewer token is refused the decision; the audit log names the token; a
 * revoked, expired or unknown token gets 401 invalid_token (on PostgreSQL on a second replica at
 * once). Then the modes: with DASHBOARD_AUTH=none a token keeps its own role, and in password mode
 * a bearer opens the API only, never the pages or a request without it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProxyDb } from '../db.ts';
import type { ProxyConfig } from '../context.ts';
import {
  CSRF,
  embeddedSandboxConfig,
  startProxy,
  type RunningProxy,
} from '../helpers.test-support.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { forEachDatabase } from '../sql/engines.test-support.ts';
import { createPostgresEngine } from '../sql/postgres.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { createTokenStore } from './tokens.ts';

const ADMIN = { ...CSRF, 'x-forwarded-user': 'ada', 'x-forwarded-role': 'admin' };
const DOT = '568253';

interface Answer {
  status: number;
  json: Record<string, unknown>;
}

/** A request as another system sends it: its own headers only (no cookie, no CSRF header). */
async function bearer(
  proxy: RunningProxy,
  token: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Answer> {
  const response = await fetch(`${proxy.url}${path}`, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // a page or a redirect
  }
  return { status: response.status, json };
}

async function makeToken(
  proxy: RunningProxy,
  body: unknown,
  headers: Record<string, string> = ADMIN,
): Promise<{ id: number; token: string; name: string; role: string; expires_at: string }> {
  const made = await proxy.call('/api/local/tokens', { method: 'POST', headers, body });
  expect(made.status).toBe(201);
  return made.json as { id: number; token: string; name: string; role: string; expires_at: string };
}

/** The proxy's own database, as a store test would open it (another connection / pool). */
function databaseOf(config: ProxyConfig): SqlEngine {
  return config.databaseUrl === undefined
    ? createSqliteEngine(openProxyDb(join(config.dataDir, 'proxy.sqlite')), { ownsDatabase: true })
    : createPostgresEngine(config.databaseUrl);
}

const trusted = (overrides: Partial<ProxyConfig>) =>
  embeddedSandboxConfig({
    auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
    ...overrides,
  });

forEachDatabase('api tokens over http', (database) => {
  let a: RunningProxy;
  let b: RunningProxy | undefined;
  let configA: ProxyConfig;
  let analyst: Awaited<ReturnType<typeof makeToken>>;
  let viewer: Awaited<ReturnType<typeof makeToken>>;

  beforeAll(async () => {
    configA = trusted(database.config);
    a = await startProxy(configA);
    // PostgreSQL: a second replica on the same database
    if (database.config.databaseUrl !== undefined) b = await startProxy(trusted(database.config));
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('an admin makes a token: answered once as cdk_…, listed without it, with its last use', async () => {
    const before = Date.now();
    analyst = await makeToken(a, { name: 'McLeod TMS', role: 'analyst', expires_in_days: 90 });
    expect(analyst).toMatchObject({ name: 'McLeod TMS', role: 'analyst' });
    expect(analyst.token).toMatch(/^cdk_[A-Za-z0-9_-]{43}$/);
    const expires = Date.parse(analyst.expires_at) - before;
    expect(Math.round(expires / 86_400_000)).toBe(90);
    viewer = await makeToken(a, { name: 'ERP reader', role: 'viewer', expires_in_days: 1 });

    const listed = await a.call('/api/local/tokens', { headers: ADMIN });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(analyst.token.slice(12));
    expect(listed.text).not.toContain('hash');
    const rows = (listed.json as { tokens: Record<string, unknown>[] }).tokens;
    expect(rows.map((row) => row.name)).toEqual(['ERP reader', 'McLeod TMS']);
    expect(rows[1]).toMatchObject({
      id: analyst.id,
      prefix: `${analyst.token.slice(0, 12)}…`,
      created_by: 'ada',
      last_used_at: null,
      revoked_at: null,
    });
  });

  it('refuses a bad token request with {error, code, hint}, and non-admins', async () => {
    const bad = async (body: unknown) => {
      const answer = await a.call('/api/local/tokens', { method: 'POST', headers: ADMIN, body });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ hint: expect.any(String), error: expect.any(String) });
      return (answer.json as { code: string }).code;
    };
    expect(await bad({ name: '', role: 'viewer', expires_in_days: 1 })).toBe('invalid_name');
    expect(await bad({ name: 'x'.repeat(81), role: 'viewer', expires_in_days: 1 })).toBe(
      'invalid_name',
    );
    expect(await bad({ name: 'x', role: 'admin', expires_in_days: 1 })).toBe('invalid_role');
    expect(await bad({ name: 'x', role: 'viewer', expires_in_days: 366 })).toBe(
      'invalid_expires_in_days',
    );
    expect(await bad({ name: 'x', role: 'viewer', expires_in_days: 0 })).toBe(
      'invalid_expires_in_days',
    );
    // a token (even an analyst's) may not make or list tokens
    expect((await bearer(a, analyst.token, '/api/local/tokens')).json.code).toBe('forbidden_role');
  });

  it('a bearer alone reads a verdict and, as an analyst, records a decision', async () => {
    const verdict = await bearer(a, analyst.token, `/api/local/verdict?dot_number=${DOT}`);
    expect(verdict.status).toBe(200);
    expect(verdict.json).toMatchObject({ dot_number: DOT });
    const recorded = await bearer(a, analyst.token, '/api/local/decisions', {
      method: 'POST',
      body: { dot_number: DOT, decision: 'approved', note: 'booked from the TMS' },
    });
    expect(recorded.status).toBe(201);
    const listed = await a.call('/api/local/tokens', { headers: ADMIN });
    const row = (
      listed.json as { tokens: { id: number; last_used_at: string | null }[] }
    ).tokens.find((token) => token.id === analyst.id);
    expect(row?.last_used_at).not.toBeNull();
  });

  it("the Usage report puts the token's billed calls under its name", async () => {
    const usage = await a.call('/api/local/usage', { headers: ADMIN });
    expect(usage.status).toBe(200);
    const body = usage.json as {
      byUser: { user: string; usd: number }[];
      byToken: { id: number; name: string; calls: number; usd: number }[];
    };
    const spent = body.byUser.find((line) => line.user === `token:${analyst.id}:McLeod TMS`);
    expect(spent?.usd).toBeGreaterThan(0);
    expect(body.byToken).toEqual([
      { id: analyst.id, name: 'McLeod TMS', calls: expect.any(Number), usd: spent?.usd },
    ]);
  });

  it('a viewer token reads but may not record a decision (403 forbidden_role)', async () => {
    expect((await bearer(a, viewer.token, `/api/local/verdict?dot_number=${DOT}`)).status).toBe(
      200,
    );
    const refused = await bearer(a, viewer.token, '/api/local/decisions', {
      method: 'POST',
      body: { dot_number: DOT, decision: 'approved' },
    });
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('forbidden_role');
    // nothing recorded under the viewer's name
    const decisions = await a.call(`/api/local/decisions?dot_number=${DOT}`, { headers: ADMIN });
    expect(decisions.status).toBe(200);
    expect(decisions.text).not.toContain('ERP reader');
  });

  it('the audit log and the decision record name the token', async () => {
    const audit = await a.call('/api/local/audit', { headers: ADMIN });
    expect(audit.status).toBe(200);
    const items = (
      audit.json as {
        items: {
          user: string;
          method: string;
          endpoint: string;
          searchKey: string | null;
          searchValue: string | null;
          status: number;
        }[];
      }
    ).items;
    const users = items.map((row) => row.user);
    expect(users).toContain(`token:${analyst.id}:McLeod TMS`);
    expect(users).toContain(`token:${viewer.id}:ERP reader`);
    // who made which token
    const made = items.filter((row) => row.endpoint === '/api/local/tokens');
    expect(
      made.map(({ user, method, searchKey, searchValue, status }) => ({
        user,
        method,
        searchKey,
        searchValue,
        status,
      })),
    ).toEqual([
      {
        user: 'ada',
        method: 'POST',
        searchKey: 'token',
        searchValue: `token:${viewer.id}:ERP reader`,
        status: 201,
      },
      {
        user: 'ada',
        method: 'POST',
        searchKey: 'token',
        searchValue: `token:${analyst.id}:McLeod TMS`,
        status: 201,
      },
    ]);
    const decisions = await a.call(`/api/local/decisions?dot_number=${DOT}`, { headers: ADMIN });
    expect(decisions.text).toContain('McLeod TMS');
  });

  it("no person may take a token's name: a sign-in proxy asserting token:… is not signed in", async () => {
    const posing = await a.call('/api/local/decisions', {
      headers: { ...CSRF, 'x-forwarded-user': `token:${analyst.id}:McLeod TMS` },
    });
    expect(posing.status).toBe(401);
    expect(posing.json).toMatchObject({ code: 'unauthenticated' });
  });

  it('a revoked token gets 401 invalid_token at once, on every replica; an unknown id 404', async () => {
    const revoked = await a.call(`/api/local/tokens/${analyst.id}/revoke`, {
      method: 'POST',
      headers: ADMIN,
    });
    expect(revoked.status).toBe(200);
    // PostgreSQL: the second replica is there to be asked
    expect(b === undefined).toBe(database.name === 'sqlite');
    expect(revoked.json).toMatchObject({ token: { id: analyst.id, revoked_by: 'ada' } });
    // the audit log says who revoked which token
    const audit = await a.call(`/api/local/audit?user=ada`, { headers: ADMIN });
    const rows = (audit.json as { items: Record<string, unknown>[] }).items;
    expect(
      rows.find((row) => row.endpoint === `/api/local/tokens/${analyst.id}/revoke`),
    ).toMatchObject({
      user: 'ada',
      method: 'POST',
      searchKey: 'token',
      searchValue: `token:${analyst.id}:McLeod TMS`,
      status: 200,
    });
    for (const proxy of [a, b]) {
      if (proxy === undefined) continue;
      const refused = await bearer(proxy, analyst.token, `/api/local/verdict?dot_number=${DOT}`);
      expect(refused.status).toBe(401);
      expect(refused.json).toMatchObject({ code: 'invalid_token', hint: expect.any(String) });
    }
    const unknown = await a.call('/api/local/tokens/99999/revoke', {
      method: 'POST',
      headers: ADMIN,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'token_not_found' });
  });

  it('an expired or unknown cdk_ token gets 401 invalid_token (also on the mirror); another Bearer is no token', async () => {
    const sql = databaseOf(configA);
    try {
      const expired = await createTokenStore(sql).create(
        { name: 'old', role: 'viewer', createdBy: 'ada', expiresAt: new Date(Date.now() - 1000) },
        new Date(Date.now() - 86_400_000),
      );
      for (const token of [expired.token, 'cdk_nothing', 'cdk_']) {
        const answer = await bearer(a, token, `/api/v2/profile?dot_number=${DOT}`);
        expect(answer.status).toBe(401);
        expect(answer.json.code).toBe('invalid_token');
      }
      // PostgreSQL: the second replica refuses the expired token too (local API and mirror)
      for (const proxy of [a, b]) {
        if (proxy === undefined) continue;
        for (const path of [`/api/local/verdict?dot_number=${DOT}`, '/api/local/decisions']) {
          const answer = await bearer(proxy, expired.token, path);
          expect(answer.status).toBe(401);
          expect(answer.json).toMatchObject({ code: 'invalid_token', hint: expect.any(String) });
        }
      }
      // another Bearer is not ours: ignored (and never forwarded), so the request has no user
      const other = await bearer(a, 'sk_live_someone_elses', `/api/v2/profile?dot_number=${DOT}`);
      expect(other.status).toBe(401);
      expect(other.json.code).toBe('unauthenticated');
    } finally {
      await sql.close();
    }
  });
});

describe('api tokens in the other sign-in modes', () => {
  it('DASHBOARD_AUTH=none: a token keeps its own role, not the local admin', async () => {
    const proxy = await startProxy(embeddedSandboxConfig({ auth: { kind: 'none' } }));
    try {
      const token = await makeToken(
        proxy,
        { name: 'reader', role: 'viewer', expires_in_days: 7 },
        CSRF,
      );
      const refused = await bearer(proxy, token.token, '/api/local/decisions', {
        method: 'POST',
        body: { dot_number: DOT, decision: 'approved' },
      });
      expect(refused.status).toBe(403);
      expect(refused.json.code).toBe('forbidden_role');
      expect((await bearer(proxy, 'cdk_unknown', '/api/local/decisions')).status).toBe(401);
    } finally {
      await proxy.close();
    }
  }, 30_000);

  it('password mode: a bearer opens the API, not the pages; without one the API still asks to sign in', async () => {
    const config = embeddedSandboxConfig({
      auth: { kind: 'password', password: 'a long test password' },
    });
    const proxy = await startProxy(config);
    const sql = databaseOf(config);
    try {
      const { token } = await createTokenStore(sql).create(
        {
          name: 'tms',
          role: 'analyst',
          createdBy: 'ada',
          expiresAt: new Date(Date.now() + 86_400_000),
        },
        new Date(),
      );
      expect((await bearer(proxy, token, '/api/local/decisions')).status).toBe(200);
      const none = await fetch(`${proxy.url}/api/local/decisions`);
      expect(none.status).toBe(401);
      expect(((await none.json()) as { code: string }).code).toBe('unauthenticated');
      // the SPA's pages still go to the sign-in: a token is for the API only
      const page = await bearer(proxy, token, '/');
      expect(page.status).toBe(302);
      // a Basic or malformed Authorization header is no token: not signed in
      const basic = await fetch(`${proxy.url}/api/local/decisions`, {
        headers: { authorization: `Basic ${Buffer.from('ada:x').toString('base64')}` },
      });
      expect(basic.status).toBe(401);
    } finally {
      await sql.close();
      await proxy.close();
    }
  }, 30_000);
});

describe('the per-token rate limit (TOKEN_RATE_LIMIT_PER_MINUTE)', () => {
  it("counts each token's requests against its own limit, apart from the people's", async () => {
    const proxy = await startProxy(
      embeddedSandboxConfig({
        auth: { kind: 'none' },
        userRateLimitPerMinute: 1000,
        tokenRateLimitPerMinute: 3,
      }),
    );
    try {
      const one = await makeToken(proxy, { name: 'tms', role: 'viewer', expires_in_days: 7 }, CSRF);
      const two = await makeToken(proxy, { name: 'erp', role: 'viewer', expires_in_days: 7 }, CSRF);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        statuses.push((await bearer(proxy, one.token, '/api/local/decisions')).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await fetch(`${proxy.url}/api/local/decisions`, {
        headers: { authorization: `Bearer ${one.token}` },
      });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await limited.json()).toEqual({
        error: 'More than 3 requests a minute with this API token',
        code: 'rate_limited',
        hint: expect.stringContaining('TOKEN_RATE_LIMIT_PER_MINUTE'),
      });
      // another token has its own count, and the people theirs (the local admin: 1000 a minute)
      expect((await bearer(proxy, two.token, '/api/local/decisions')).status).toBe(200);
      for (let i = 0; i < 5; i += 1) {
        expect((await proxy.call('/api/local/decisions', { headers: CSRF })).status).toBe(200);
      }
    } finally {
      await proxy.close();
    }
  }, 30_000);
});
