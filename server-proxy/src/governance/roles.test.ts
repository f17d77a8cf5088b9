/**
 * Roles over the whole router, on both engines (SQLite, and PostgreSQL as team mode runs it): every
 * route under /api is collected while the real proxy registers it (an onRoute hook); the routes and
 * ROUTE_ROLES must name the same routes, and each route is called as a viewer, an analyst and an
 * admin (a trusted-header proxy asserting the role): refused with 403 forbidden_role exactly when
 * the role is below the route's. A route without a rule stops the proxy at registration (last
 * test). Then ownership (bulk jobs, alert subscriptions), reserved names and the session's role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteOptions } from 'fastify';
import { roleAllows, ROLES, type Role } from '../../../src/lib/roles.ts';
import {
  CSRF,
  startFakeOrigin,
  startProxy,
  testConfig,
  type FakeOrigin,
  type RunningProxy,
} from '../helpers.test-support.ts';
import { forEachDatabase } from '../sql/engines.test-support.ts';
import { registerGovernance } from './index.ts';
import { ROUTE_ROLES, type RouteRole } from './roles.ts';

let origin: FakeOrigin;
beforeAll(async () => {
  origin = await startFakeOrigin();
});
afterAll(async () => {
  await origin.close();
});

function as(user: string, role?: string): Record<string, string> {
  return { ...CSRF, 'x-forwarded-user': user, ...(role === undefined ? {} : { 'x-role': role }) };
}

interface Started {
  proxy: RunningProxy;
  routes: { method: string; url: string; role: RouteRole | undefined }[];
}

/** The real proxy in trusted-header mode (role header x-role), its /api routes collected. */
async function startRoleProxy(databaseUrl: string | undefined): Promise<Started> {
  const routes: Started['routes'] = [];
  const config = testConfig({
    mode: 'test',
    upstream: { baseUrl: origin.url, apiKey: 'sk_test_roles', timeoutMs: 2000 },
    auth: {
      kind: 'trusted-header',
      header: 'x-forwarded-user',
      roleHeader: 'x-role',
      trustedProxies: ['127.0.0.1'],
    },
    alerts: {
      pollIntervalSeconds: 0,
      smtpUrl: 'smtp://127.0.0.1:9',
      from: 'desk@corp.example',
      emailTo: [],
      webhookHosts: [],
    },
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
  });
  const proxy = await startProxy(config, {
    registerGovernance: async (app, deps) => {
      app.addHook('onRoute', (route: RouteOptions) => {
        if (!route.url.startsWith('/api/')) return;
        // read after registration: governance's own onRoute hook (added after this one) sets it
        for (const method of [route.method].flat()) {
          routes.push({
            method,
            url: route.url,
            get role() {
              return route.config?.role;
            },
          });
        }
      });
      return registerGovernance(app, deps);
    },
  });
  return { proxy, routes };
}

function concrete(url: string): string {
  return url.replace(/:[a-z]+/g, '1');
}

interface Refusal {
  code?: string;
  error?: string;
  hint?: string;
}

forEachDatabase('roles', (database) => {
  let running: Started;
  beforeAll(async () => {
    running = await startRoleProxy(database.config.databaseUrl);
  });
  afterAll(async () => {
    await running?.proxy.close();
  });

  it('every route under /api has the role ROUTE_ROLES gives it, and the table names no other route', () => {
    const declared = Object.fromEntries(
      running.routes.map((route) => [`${route.method} ${route.url}`, route.role]),
    );
    expect(declared).toEqual(ROUTE_ROLES);
    // the words, spelled out: what each role may not do
    expect(declared).toMatchObject({
      'PUT /api/local/policy': 'admin',
      'GET /api/local/audit': 'admin',
      'POST /api/local/decisions': 'analyst',
      'PUT /api/local/triage': 'analyst',
      'POST /api/v2/monitoring/add': 'analyst',
      'POST /api/local/bulk-jobs': 'analyst',
      'POST /api/local/alerts/subscriptions': 'analyst',
      'GET /api/local/decisions': 'viewer',
      'GET /api/local/verdict': 'viewer',
      'GET /api/v2/autocomplete': 'viewer',
    });
  });

  it('each role is refused exactly the routes above it, with 403 forbidden_role naming the role', async () => {
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const role of ROLES) {
      for (const route of running.routes) {
        const needed = route.role ?? 'admin';
        const method = route.method;
        const answer = await running.proxy.call(concrete(route.url), {
          method,
          headers: as(`user-${role}`, role),
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
        });
        const body = (answer.json ?? {}) as Refusal;
        const refused = answer.status === 403 && body.code === 'forbidden_role';
        outcomes.push(`${role} ${method} ${route.url} ${refused ? 'refused' : 'allowed'}`);
        const allowed = needed === 'open' || roleAllows(role, needed);
        expected.push(`${role} ${method} ${route.url} ${allowed ? 'allowed' : 'refused'}`);
        if (refused) {
          expect(body.error).toContain(`needs the ${needed} role`);
          expect(body.hint).toContain(needed);
          expect(body.error).toMatch(/\(you are (a viewer|an analyst)\)$/);
        }
      }
    }
    expect(outcomes).toEqual(expected);
  });

  it('a bulk job is controlled by its owner and admins only', async () => {
    const { proxy } = running;
    const created = await proxy.call('/api/local/bulk-jobs', {
      method: 'POST',
      headers: as('al', 'analyst'),
      body: { identifiers: ['568253', '44110'] },
    });
    expect(created.status, created.text).toBe(202);
    const { id } = created.json as { id: string };
    const other = await proxy.call(`/api/local/bulk-jobs/${id}/cancel`, {
      method: 'POST',
      headers: as('bo', 'analyst'),
    });
    expect(other.status).toBe(403);
    expect(other.json).toMatchObject({ code: 'forbidden_role' });
    expect((other.json as Refusal).error).toMatch(
      /al's; acting on another user's bulk job needs the admin role/,
    );
    for (const [user, role] of [
      ['al', 'analyst'],
      ['ann', 'admin'],
    ] as const) {
      const own = await proxy.call(`/api/local/bulk-jobs/${id}/cancel`, {
        method: 'POST',
        headers: as(user, role),
      });
      // cancelled (200), or already cancelled/finished (409): never refused for its role
      expect([200, 409], own.text).toContain(own.status);
    }
  });

  it('an alert subscription is changed by its owner and admins only', async () => {
    const { proxy } = running;
    const subscription = {
      kind: 'email',
      target: 'al@corp.example',
      channels: ['authority'],
      severity: 'all',
      schedule: 'immediate',
    };
    const created = await proxy.call('/api/local/alerts/subscriptions', {
      method: 'POST',
      headers: as('al', 'analyst'),
      body: subscription,
    });
    expect(created.status, created.text).toBe(201);
    const { id } = created.json as { id: number };
    const change = (user: string, role: Role) =>
      proxy.call(`/api/local/alerts/subscriptions/${id}`, {
        method: 'PUT',
        headers: as(user, role),
        body: { ...subscription, severity: 'fails' },
      });
    expect((await change('bo', 'analyst')).status).toBe(404);
    expect((await change('al', 'analyst')).status).toBe(200);
    expect((await change('ann', 'admin')).status).toBe(200);
    const removed = await proxy.call(`/api/local/alerts/subscriptions/${id}/remove`, {
      method: 'POST',
      headers: as('ann', 'admin'),
    });
    expect(removed.json).toEqual({ removed: id });
  });

  it('the role header: absent or unknown is a viewer; the session says the role', async () => {
    const { proxy } = running;
    const session = async (headers: Record<string, string>) =>
      (await proxy.call('/api/local/session', { headers })).json;
    expect(await session(as('vi'))).toEqual({
      user: { id: 'vi', name: 'vi', role: 'viewer' },
      auth: 'trusted-header',
    });
    expect(await session(as('vi', 'root'))).toMatchObject({ user: { role: 'viewer' } });
    expect(await session(as('an', ' Analyst '))).toMatchObject({ user: { role: 'analyst' } });
    expect(await session(as('ad', 'admin'))).toMatchObject({ user: { role: 'admin' } });
    const noRole = await proxy.call('/api/local/decisions', {
      method: 'POST',
      headers: as('vi'),
      body: { dot_number: '568253', decision: 'approved' },
    });
    expect(noRole.status).toBe(403);
    expect(noRole.json).toMatchObject({ code: 'forbidden_role' });
  });

  it('refuses as users the names the proxy writes itself, and any name in parentheses', async () => {
    for (const name of [
      'alerts',
      'Alerts',
      'local',
      '(monthly rollover)',
      '(invalid name)',
      '(x)',
    ]) {
      const answer = await running.proxy.call('/api/local/session', {
        headers: as(name, 'admin'),
      });
      expect([name, answer.status]).toEqual([name, 401]);
    }
  });
});

describe('a route under /api without a role', () => {
  it('stops the proxy at registration', async () => {
    const config = testConfig({ upstream: { baseUrl: 'http://127.0.0.1:9' } });
    await expect(
      startProxy(config, {
        registerGovernance: async (app, deps) => {
          const parts = await registerGovernance(app, deps);
          app.get('/api/local/forgotten', async () => ({ ok: true }));
          return parts;
        },
      }),
    ).rejects.toThrow(/GET \/api\/local\/forgotten has no role: add it to ROUTE_ROLES/);
  });
});
