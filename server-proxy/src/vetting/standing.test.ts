/**
 * Standing over real HTTP (docs/vetting.md, "Standing"): a proxy in front of its embedded sandbox,
 * on each engine (its SQLite file; a PostgreSQL database: sql/engines.test-support.ts). GET
 * /api/local/decisions/current answers each current decision's verdict now from held data only
 * (cached profile, else the record), POST /api/local/policy/preview lists the carriers whose
 * standing or verdict a proposed policy would change, and saving flags them until a newer
 * decision is recorded. No billed call is made by any of them (the spend ledger says so).
 */
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProxyApp } from '../app.ts';
import type { ProxyConfig } from '../context.ts';
import { forEachDatabase } from '../sql/engines.test-support.ts';
import {
  CSRF,
  embeddedSandboxConfig,
  makeTempDir,
  request,
  type CallInit,
} from '../helpers.test-support.ts';

interface Running {
  call(path: string, init?: CallInit): ReturnType<typeof request>;
  close(): Promise<void>;
  app: Awaited<ReturnType<typeof buildProxyApp>>;
}

async function start(config: ProxyConfig): Promise<Running> {
  const app = await buildProxyApp(config, { sandbox: { population: 300 } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { call: (path, init) => request(`${url}${path}`, init), close: () => app.close(), app };
}

let proxy: Running;
const headers = { ...CSRF, 'x-forwarded-user': 'alice', 'x-forwarded-role': 'admin' };

const get = (path: string) => proxy.call(path, { headers });
const send = (method: 'POST' | 'PUT', path: string, body: unknown) =>
  proxy.call(path, { method, headers, body });

interface Reason {
  rule: string;
  outcome: string;
}
interface Current {
  id: number;
  dot_number: string;
  decision: string;
  verdict: { verdict: string };
  now: {
    verdict: string;
    policy_version: number;
    reasons: Reason[];
    fetched_at: string;
    evaluated_at: string;
    source: string;
  } | null;
  standing: string;
  needs_revet: boolean;
  override: boolean;
  revet_due: string | null;
}
interface Entry {
  dot_number: string;
  legal_name: string | null;
  decision: string;
  decision_id: number;
  standing_before: string;
  standing_after: string;
  verdict_before: string;
  verdict_after: string;
  reasons: Reason[];
}
interface Preview {
  version_from: number;
  would_fail: Entry[];
  would_review: Entry[];
  would_pass: Entry[];
  unchanged: number;
}

async function preview(body: unknown): Promise<Preview> {
  const answer = await send('POST', '/api/local/policy/preview', body);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json as Preview;
}

async function policyVersion(): Promise<number> {
  return ((await get('/api/local/policy')).json as { version: number }).version;
}

/** Calls the service billed (the spend ledger's profile calls that were not cache hits). */
async function billedCalls(): Promise<number> {
  const usage = (await get('/api/local/usage')).json as {
    byCategory: { category: string; calls: number; cacheHits: number }[];
  };
  return usage.byCategory.reduce((sum, c) => sum + c.calls - c.cacheHits, 0);
}

async function current(dots: string): Promise<Map<string, Current>> {
  const answer = await get(`/api/local/decisions/current?dot_numbers=${dots}`);
  expect(answer.status).toBe(200);
  const items = (answer.json as { items: Current[] }).items;
  return new Map(items.map((item) => [item.dot_number, item]));
}

async function decide(dot: string, decision: string, extra: Record<string, string> = {}) {
  const answer = await send('POST', '/api/local/decisions', {
    dot_number: dot,
    decision,
    ...extra,
  });
  expect(answer.status, JSON.stringify(answer.json)).toBe(201);
  return answer.json as { id: number };
}

const DOTS = '4418207,2214589,568253,3187452';

forEachDatabase('standing', (database) => {
  const dataDir = makeTempDir();
  let config: ProxyConfig;

  beforeAll(async () => {
    config = embeddedSandboxConfig({
      dataDir,
      auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
      ...database.config,
    });
    proxy = await start(config);
    for (const dot of DOTS.split(',')) {
      expect((await get(`/api/v2/profile?dot_number=${dot}`)).status).toBe(200);
    }
    const override = { override_reason: 'Known partner; checked by phone' };
    await decide('4418207', 'approved', override);
    await decide('2214589', 'approved_with_conditions', {
      conditions: 'Team drivers only',
      ...override,
    });
    await decide('568253', 'approved');
    await decide('3187452', 'rejected');
  }, 60_000);

  afterAll(async () => {
    await proxy.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe('GET /api/local/decisions/current', () => {
    it('answers each decision with its verdict now from the cached profile, without a billed call', async () => {
      const billed = await billedCalls();
      const items = await current(`${DOTS},1893346`);
      expect([...items.keys()].sort()).toEqual(DOTS.split(',').sort());
      const swift = items.get('4418207');
      expect(swift).toMatchObject({
        decision: 'approved',
        now: { verdict: 'review', policy_version: 1, source: 'profile' },
        standing: 'holds',
        needs_revet: false,
        override: true,
        revet_due: null,
      });
      expect(swift?.now?.reasons.map((r) => r.rule)).toContain('shared_identifiers');
      expect(swift?.now?.reasons.every((r) => r.outcome !== 'pass')).toBe(true);
      expect(items.get('568253')).toMatchObject({
        now: { verdict: 'pass', reasons: [] },
        standing: 'holds',
        override: false,
      });
      expect(items.get('3187452')).toMatchObject({ now: { verdict: 'fail' }, standing: 'holds' });
      expect(items.get('568253')?.now).not.toHaveProperty('stale');
      // a copy a reported change outdated is still held data: judged, and said to be stale
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      expect(proxy.app.proxy.cache.markStale(new Map([['568253', tomorrow]]))).toBeGreaterThan(0);
      expect((await current('568253')).get('568253')?.now).toMatchObject({
        source: 'profile',
        verdict: 'pass',
        stale: true,
      });
      expect(await billedCalls()).toBe(billed);
    });

    it('lists every current decision with all=1, a page at a time', async () => {
      const page = (await get('/api/local/decisions/current?all=1&page_size=3')).json as {
        items: Current[];
        total: number;
        page: number;
        page_size: number;
      };
      expect(page).toMatchObject({ total: 4, page: 1, page_size: 3 });
      expect(page.items.map((item) => item.dot_number)).toEqual(['3187452', '568253', '2214589']);
      const second = (await get('/api/local/decisions/current?all=1&page=2&page_size=3')).json as {
        items: Current[];
      };
      expect(second.items.map((item) => item.dot_number)).toEqual(['4418207']);
      for (const bad of [
        'all=2',
        'all=1&page=0',
        'all=1&page_size=501',
        'all=1&dot_numbers=1',
        '',
      ]) {
        const answer = await get(`/api/local/decisions/current?${bad}`);
        expect(answer.status, bad).toBe(400);
        expect(answer.json).toMatchObject({ error: expect.any(String), hint: expect.any(String) });
      }
    });
  });

  const SHARED_FAIL = { rules: { shared_identifiers: { outcome: 'fail' } } };

  describe('POST /api/local/policy/preview, then PUT /api/local/policy', () => {
    it('lists exactly the carriers whose standing or verdict would change, storing nothing', async () => {
      const billed = await billedCalls();
      const chameleons = await preview(SHARED_FAIL);
      expect(chameleons).toMatchObject({
        version_from: 1,
        would_review: [],
        would_pass: [],
        unchanged: 3,
      });
      expect(chameleons.would_fail).toEqual([
        expect.objectContaining({
          dot_number: '4418207',
          legal_name: 'SWIFTPATH EXPRESS LLC',
          decision: 'approved',
          standing_before: 'holds',
          standing_after: 'now_fails',
          verdict_before: 'review',
          verdict_after: 'fail',
        }),
      ]);
      const reasons = chameleons.would_fail[0]?.reasons ?? [];
      expect(reasons[0]).toMatchObject({ rule: 'shared_identifiers', outcome: 'fail' });
      expect(reasons.every((r) => r.outcome !== 'pass')).toBe(true);

      // rules off: 2214589's verdict turns Pass; its approval still holds, so it is listed to pass
      const lenient = await preview({
        rules: {
          basic_alerts: { enabled: false },
          rating_conditional: { enabled: false },
          oos_rates: { enabled: false },
        },
      });
      expect(lenient.would_fail).toEqual([]);
      expect(lenient.would_review).toEqual([]);
      expect(lenient.would_pass).toEqual([
        expect.objectContaining({
          dot_number: '2214589',
          decision: 'approved_with_conditions',
          standing_before: 'holds',
          standing_after: 'holds',
          verdict_before: 'review',
          verdict_after: 'pass',
          reasons: [],
        }),
      ]);
      expect(lenient.unchanged).toBe(3);

      // the same checks as the save: a bad body is a 400, a write needs the CSRF header
      const bad = await send('POST', '/api/local/policy/preview', { rules: { nope: {} } });
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ code: 'unknown_rule', hint: expect.any(String) });
      const noCsrf = await proxy.call('/api/local/policy/preview', {
        method: 'POST',
        headers: { 'x-forwarded-user': 'alice', 'x-forwarded-role': 'admin' },
        body: SHARED_FAIL,
      });
      expect(noCsrf.status).toBe(403);
      expect(await policyVersion()).toBe(1);
      expect(await billedCalls()).toBe(billed);
    });

    it('saving flags the carriers whose standing changed until a newer decision', async () => {
      const billed = await billedCalls();
      const saved = await send('PUT', '/api/local/policy', SHARED_FAIL);
      expect(saved.status).toBe(201);
      const items = await current(DOTS);
      expect(items.get('4418207')).toMatchObject({
        standing: 'now_fails',
        needs_revet: true,
        now: { verdict: 'fail', policy_version: 2, source: 'profile' },
      });
      for (const dot of ['2214589', '568253', '3187452']) {
        expect(items.get(dot)).toMatchObject({ standing: 'holds', needs_revet: false });
      }
      const flagged = (await get('/api/local/decisions/current?all=1&needs_revet=1')).json as {
        items: Current[];
        total: number;
      };
      expect(flagged.total).toBe(1);
      expect(flagged.items.map((item) => item.dot_number)).toEqual(['4418207']);
      // a save that changes no standing flags nothing more
      const again = await send('PUT', '/api/local/policy', {
        rules: { new_entrant: { threshold: 400 } },
      });
      expect(again.status).toBe(201);
      expect(
        ((await get('/api/local/decisions/current?all=1&needs_revet=1')).json as { total: number })
          .total,
      ).toBe(1);
      expect(await billedCalls()).toBe(billed);

      await decide('4418207', 'rejected');
      expect((await current('4418207')).get('4418207')).toMatchObject({
        decision: 'rejected',
        standing: 'holds',
        needs_revet: false,
      });
      expect(
        ((await get('/api/local/decisions/current?all=1&needs_revet=1')).json as { total: number })
          .total,
      ).toBe(0);
    });

    it('after a restart (nothing cached) judges from the records, still without a billed call', async () => {
      await proxy.close();
      proxy = await start(config);
      const billed = await billedCalls();
      const items = await current(DOTS);
      expect(items.get('4418207')).toMatchObject({
        decision: 'rejected',
        now: { verdict: 'fail', policy_version: 3, source: 'record' },
        standing: 'holds',
      });
      expect(items.get('2214589')).toMatchObject({ now: { verdict: 'review', source: 'record' } });
      expect(items.get('568253')).toMatchObject({ now: { verdict: 'pass', source: 'record' } });
      // shared identifiers back to review: the rejected 4418207 would be Review again (from its record)
      const softer = await preview({ rules: { shared_identifiers: { outcome: 'review' } } });
      expect(softer.would_review.map((entry) => [entry.dot_number, entry.verdict_before])).toEqual([
        ['4418207', 'fail'],
      ]);
      expect(softer.would_fail).toEqual([]);
      expect(softer.would_pass).toEqual([]);
      expect(await billedCalls()).toBe(billed);
    });
  });
});
