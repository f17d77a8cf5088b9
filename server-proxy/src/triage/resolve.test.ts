import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyConfig } from '../context.ts';
import { dotOfRow } from '../sandbox/index.ts';
import {
  CSRF,
  startProxy,
  embeddedSandboxConfig,
  type RunningProxy,
} from '../helpers.test-support.ts';
import { classifyEntry } from '../../../src/lib/service/rules/entries.ts';

function sandboxConfig(overrides: Partial<ProxyConfig> = {}): ProxyConfig {
  return embeddedSandboxConfig(overrides);
}

interface Resolution {
  resolved: { input: string; profile_id: string; via: string }[];
  unresolved: { input: string; reason: string; message: string }[];
  profile_ids: string[];
  costUsd: number;
  lookups: { autocomplete: number; 'profile-fmcsa': number };
}

function resolve(proxy: RunningProxy, body: unknown) {
  return proxy.call('/api/local/watchlist/resolve', { method: 'POST', headers: CSRF, body });
}

interface CategoryUsage {
  category: string;
  calls: number;
  billedUnits: number;
  usd: number;
}

async function usage(proxy: RunningProxy): Promise<Map<string, CategoryUsage>> {
  const reply = await proxy.call('/api/local/usage');
  const body = reply.json as { byCategory: CategoryUsage[] };
  return new Map(body.byCategory.map((c) => [c.category, c]));
}

describe('classifyEntry', () => {
  it.each([
    ['568253', 'dot', 'dot:568253'],
    [' USDOT 0568253 ', 'dot', 'dot:568253'],
    ['dot#568253', 'dot', 'dot:568253'],
    ['MC277621', 'docket', 'docket:MC277621'],
    ['mc-0277621', 'docket', 'docket:MC277621'],
    ['FF 12', 'docket', 'docket:FF12'],
    ['568253-mc277621', 'profile_id', '568253-MC277621'],
    ['568253 - MC 277621', 'profile_id', '568253-MC277621'],
    ['0', 'invalid', 'invalid:0'],
    ['123456789', 'invalid', 'invalid:123456789'],
    ['hansen', 'invalid', 'invalid:HANSEN'],
    ['568253_MC277621', 'invalid', 'invalid:568253_MC277621'],
  ])('%j is a %s (%s)', (input, kind, key) => {
    expect(classifyEntry(input)).toMatchObject({ kind, key });
  });
});

describe('POST /api/local/watchlist/resolve', () => {
  let proxy: RunningProxy;
  let docketless: string;

  beforeAll(async () => {
    proxy = await startProxy(sandboxConfig());
    const dataset = proxy.app.proxy.sandbox?.app.sandbox.dataset;
    const row = Array.from({ length: 300 }, (_, i) => i).find(
      (i) => dataset?.getIdentity(dotOfRow(i))?.docket === undefined,
    );
    expect(row).toBeDefined();
    docketless = dotOfRow(row ?? 0);
  });

  afterAll(async () => {
    await proxy.close();
  });

  it.each([
    [[], 'invalid_body'],
    [{ entries: [] }, 'invalid_entries'],
    [{ entries: ['1', 2] }, 'invalid_entries'],
    [{ entries: ['  '] }, 'invalid_entries'],
    [{ entries: ['x'.repeat(101)] }, 'invalid_entries'],
    [{ entries: Array.from({ length: 10_001 }, () => '1') }, 'invalid_entries'],
    [{ entries: ['1'], dryRun: 'yes' }, 'invalid_dry_run'],
    [{ entries: ['1'], force: true }, 'unknown_field'],
  ])('refuses body #%# with 400 %s', async (body, code) => {
    const reply = await resolve(proxy, body);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code, hint: expect.any(String) });
  });

  it('quotes the most the lookups can cost without calling anything (dryRun)', async () => {
    const reply = await resolve(proxy, {
      entries: ['568253', '0568253', '7', 'MC277621', '568253-MC277621', 'hello'],
      dryRun: true,
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      plan: {
        entries: 6,
        profileIds: 1,
        dots: 2,
        dockets: 1,
        invalid: 1,
        // 568253: autocomplete + FMCSA fallback; 7: FMCSA only; MC277621: FMCSA
        maxCostUsd: 0.303,
      },
    });
    expect((await usage(proxy)).get('autocomplete')?.calls).toBe(0);
  });

  it('resolves DOTs, dockets and ids, reports the rest, and meters what it cost', async () => {
    const entries = [
      '568253',
      'MC277621',
      '568253-mc277621',
      'hello',
      '99999999',
      'MC99999999',
      docketless,
      'usdot 568253',
    ];
    const reply = await resolve(proxy, { entries });
    expect(reply.status).toBe(200);
    const body = reply.json as Resolution;
    expect(body.resolved).toEqual([
      { input: '568253', profile_id: '568253-MC277621', via: 'autocomplete' },
      { input: 'MC277621', profile_id: '568253-MC277621', via: 'profile-fmcsa' },
      { input: '568253-mc277621', profile_id: '568253-MC277621', via: 'given' },
      { input: docketless, profile_id: docketless, via: 'autocomplete' },
      { input: 'usdot 568253', profile_id: '568253-MC277621', via: 'autocomplete' },
    ]);
    expect(body.unresolved.map(({ input, reason }) => ({ input, reason }))).toEqual([
      { input: 'hello', reason: 'invalid_entry' },
      { input: '99999999', reason: 'not_found' },
      { input: 'MC99999999', reason: 'not_found' },
    ]);
    expect(body.profile_ids).toEqual(['568253-MC277621', docketless]);
    // three distinct DOTs asked of autocomplete; 99999999 fell back to FMCSA (a free 404),
    // plus the two docket lookups (one match at 0.10, one free 404)
    expect(body.lookups).toEqual({ autocomplete: 3, 'profile-fmcsa': 3 });
    expect(body.costUsd).toBeCloseTo(3 * 0.003 + 0.1, 6);
    const spent = await usage(proxy);
    expect(spent.get('autocomplete')).toMatchObject({ calls: 3, billedUnits: 3 });
    expect(spent.get('profile-fmcsa')).toMatchObject({ billedUnits: 1 });
    expect(
      (spent.get('autocomplete')?.usd ?? 0) + (spent.get('profile-fmcsa')?.usd ?? 0),
    ).toBeCloseTo(body.costUsd, 6);
    const audit = await proxy.call('/api/local/audit?user=local&pageSize=200');
    const endpoints = (audit.json as { items: { endpoint: string; user: string }[] }).items.map(
      (item) => `${item.endpoint} ${item.user}`,
    );
    expect(endpoints).toContain('autocomplete local');
    expect(endpoints).toContain('profile-fmcsa local');
  });

  it('costs nothing the second time: the answers come from the cache', async () => {
    const reply = await resolve(proxy, { entries: ['568253', 'MC277621'] });
    const body = reply.json as Resolution;
    expect(body.profile_ids).toEqual(['568253-MC277621']);
    expect(body.costUsd).toBe(0);
  });
});

describe('resolution under a budget', () => {
  it('reports entries the budget refused, and bills nothing for them', async () => {
    const proxy = await startProxy(sandboxConfig({ monthlyBudgetUsd: 0.001 }));
    try {
      const reply = await resolve(proxy, { entries: ['568253', '568253-MC277621'] });
      expect(reply.status).toBe(200);
      const body = reply.json as Resolution;
      expect(body.resolved).toEqual([
        { input: '568253-MC277621', profile_id: '568253-MC277621', via: 'given' },
      ]);
      expect(body.unresolved).toMatchObject([{ input: '568253', reason: 'budget_exceeded' }]);
      expect(body.costUsd).toBe(0);
      expect((await usage(proxy)).get('autocomplete')?.calls).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});
