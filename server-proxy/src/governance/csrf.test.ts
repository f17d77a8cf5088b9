import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RegisterGovernance } from '../context.ts';
import {
  CSRF,
  LIVE_KEY,
  startFakeOrigin,
  startProxy,
  testConfig,
  type FakeOrigin,
  type RunningProxy,
} from '../helpers.test-support.ts';
import { registerGovernance } from './index.ts';

/** A valid query for each route, so a refusal is the check's and not validation's. */
const QUERIES: Record<string, string> = {
  '/api/v2/autocomplete': 'q=hansen',
  '/api/v2/monitoring/list': 'page=1',
  '/api/local/monitoring-view': 'page=1',
  '/api/local/monitoring-badge': '', // takes no parameters
  '/api/local/triage': 'ids=a',
};
const withQuery = (path: string, dot = '568253') =>
  `${path}?${QUERIES[path] ?? `dot_number=${dot}`}`;

let origin: FakeOrigin;
let proxy: RunningProxy;
let dataDir: string;
/** Every GET route the proxy has under /api, as the router registered it. */
const apiGets: string[] = [];

/** Governance as the app registers it, plus a note of every route registered after it. */
const recordingGovernance: RegisterGovernance = (app, deps) => {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (methods.includes('GET') && route.url.startsWith('/api/')) apiGets.push(route.url);
  });
  return registerGovernance(app, deps);
};

/** Rows written to the spend ledger and the audit log so far. */
async function rows(): Promise<{ ledger: number; audit: number }> {
  await proxy.app.proxy.governance.flush();
  const db = new Database(join(dataDir, 'proxy.sqlite'), { readonly: true });
  try {
    const count = (table: string) =>
      (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { ledger: count('spend_ledger'), audit: count('audit_log') };
  } finally {
    db.close();
  }
}

/** A GET with exactly these headers (no CSRF header unless given). */
async function bareGet(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${proxy.url}${path}`, { headers });
  const text = await response.text();
  // a page (GET /api/docs) is HTML
  const json = response.headers.get('content-type')?.startsWith('application/json');
  return { status: response.status, json: json ? (JSON.parse(text) as unknown) : text };
}

beforeAll(async () => {
  origin = await startFakeOrigin();
  const config = testConfig({
    upstream: { baseUrl: origin.url, apiKey: LIVE_KEY, legacy: false, timeoutMs: 2000 },
  });
  dataDir = config.dataDir;
  proxy = await startProxy(config, { registerGovernance: recordingGovernance });
});

afterAll(async () => {
  await proxy.close();
  await origin.close();
});

beforeEach(() => {
  origin.requests.length = 0;
});

const BILLABLE = [
  '/api/v2/profile',
  '/api/v2/profile-lite',
  '/api/v2/profile-fmcsa',
  '/api/v2/autocomplete',
  '/api/v2/monitoring/list',
  '/api/local/profile-summary',
  '/api/local/verdict',
  '/api/local/monitoring-view',
  '/api/local/monitoring-badge',
];

describe('another site cannot spend the key with a GET', () => {
  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['Origin: null', { origin: 'null' }],
  ])('refuses %s on every /api route, header or not, with no upstream call', async (_, headers) => {
    const before = await rows();
    for (const path of [...BILLABLE, '/api/local/usage', '/api/local/audit']) {
      for (const extra of [{}, CSRF]) {
        const reply = await bareGet(withQuery(path), { ...headers, ...extra });
        expect(reply.status, path).toBe(403);
        expect(reply.json, path).toMatchObject({
          code: 'csrf',
          hint: expect.any(String) as unknown,
        });
      }
    }
    expect(origin.requests).toHaveLength(0);
    expect(await rows()).toEqual(before);
  });

  it('refuses a billable GET without the custom header (an <img src> or no-cors fetch)', async () => {
    const before = await rows();
    for (const path of BILLABLE) {
      const variants: Record<string, string>[] = [
        {},
        { 'sec-fetch-site': 'none' },
        { 'x-requested-with': 'other' },
      ];
      for (const headers of variants) {
        const reply = await bareGet(withQuery(path), headers);
        expect(reply.status, path).toBe(403);
        expect(reply.json, path).toMatchObject({
          code: 'csrf',
          error: expect.stringMatching(/x-requested-with/) as unknown,
        });
      }
    }
    // However the path is spelled, the router's route decides.
    for (const path of ['//api/v2/profile', '/api/v2/profile/', '/api//v2/profile']) {
      expect((await bareGet(withQuery(path))).status, path).toBe(403);
    }
    expect(origin.requests).toHaveLength(0);
    expect(await rows()).toEqual(before);
  });

  it('serves the same GETs from the dashboard (the header, same-origin or no fetch metadata)', async () => {
    for (const path of BILLABLE) {
      const reply = await bareGet(withQuery(path), { ...CSRF, 'sec-fetch-site': 'same-origin' });
      expect(reply.status, path).toBe(200);
    }
    // One call for each of the five mirror routes, the monitoring view and the badge (the list is
    // never cached); the summary and the verdict reuse the profile.
    expect(origin.requests).toHaveLength(7);
    expect((await bareGet(`/api/v2/autocomplete?q=other`, CSRF)).status).toBe(200);
  });

  it('leaves GETs that never reach the service open without the header', async () => {
    for (const path of ['/api/local/config', '/api/local/usage', '/api/local/session']) {
      expect((await bareGet(path)).status, path).toBe(200);
    }
  });

  it('has no GET route under /api that calls the service without the header', async () => {
    expect(apiGets).toEqual(expect.arrayContaining(BILLABLE));
    // A DOT of its own for each route, so no answer comes from the cache.
    for (const [index, route] of apiGets.entries()) {
      origin.requests.length = 0;
      await bareGet(withQuery(route, String(700_000 + index)), { 'sec-fetch-site': 'same-origin' });
      expect(origin.requests, route).toHaveLength(0);
    }
  });
});
