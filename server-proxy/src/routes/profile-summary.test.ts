/**
 * The profile summary through a real proxy in front of a fake origin: what it leaves out, what it
 * keeps, and that a summary plus the full profile cost one upstream (billed) call.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  answerJson,
  startFakeOrigin,
  startProxy,
  testConfig,
  type FakeOrigin,
  type RunningProxy,
} from '../helpers.test-support.ts';
import {
  PROFILE_SUMMARY_PATH,
  SUMMARY_OMITTED_FIELDS,
  summariseProfileBody,
} from './profile-summary.ts';

const DOT = '3999999';

function heavyItem(histories: number) {
  const many = (make: (i: number) => unknown) =>
    Array.from({ length: histories }, (_, i) => make(i));
  return {
    dot_number: DOT,
    legal_name: 'HEAVY HAULING',
    inspections_total: histories,
    crashes_total: histories,
    inspection_history: many((i) => ({ report_number: `R${i}`, viol_total: i % 3 })),
    crash_history: many((i) => ({ report_number: `C${i}` })),
    equipment_history: many((i) => ({ vin: `VIN${i}` })),
    network_graph_equipment_ext: many((i) => ({ dot_number: String(i) })),
    authority_history: [{ authority_type: 'common', status: 'A' }],
  };
}

interface UsageBody {
  spentUsd: number;
  byCategory: { category: string; calls: number; cacheHits: number; usd: number }[];
}

let origin: FakeOrigin;
let proxy: RunningProxy;

async function start(profileTtlMs = 3_600_000, delayMs = 0) {
  origin = await startFakeOrigin((_req, res) => {
    setTimeout(() => answerJson(res, 200, { items: [heavyItem(50)], total_count: 1 }), delayMs);
  });
  proxy = await startProxy(
    testConfig({
      upstream: {
        baseUrl: origin.url,
        apiKey: 'sk_live_0123456789abcdefSECRET',
        legacy: false,
        timeoutMs: 2000,
      },
      cache: { profileTtlMs, autocompleteTtlMs: 300_000, maxBytes: 8 * 1024 * 1024 },
    }),
  );
}

async function profileUsage() {
  const usage = (await proxy.call('/api/local/usage')).json as UsageBody;
  return usage.byCategory.find((entry) => entry.category === 'profile');
}

function firstItem(json: unknown): Record<string, unknown> {
  return (json as { items: Record<string, unknown>[] }).items[0] ?? {};
}

afterEach(async () => {
  await proxy.close();
  await origin.close();
});

describe('GET /api/local/profile-summary', () => {
  beforeEach(() => start());

  it('leaves out the long histories and keeps everything else, counters included', async () => {
    const summary = await proxy.call(`${PROFILE_SUMMARY_PATH}?dot_number=${DOT}`);
    expect(summary.status).toBe(200);
    const item = firstItem(summary.json);
    for (const field of SUMMARY_OMITTED_FIELDS) expect(item).not.toHaveProperty(field);
    const expected: Record<string, unknown> = heavyItem(50);
    for (const field of SUMMARY_OMITTED_FIELDS) delete expected[field];
    expect(item).toEqual(expected);
    expect(summary.headers.get('x-profile-summary-omitted')).toBe(SUMMARY_OMITTED_FIELDS.join(','));
    expect(summary.headers.get('x-cache')).toBe('miss');
    expect(summary.text.length).toBeLessThan(
      JSON.stringify({ items: [heavyItem(50)], total_count: 1 }).length / 5,
    );
  });

  it('then serves the full profile from the cache: one upstream call, billed once', async () => {
    const summary = await proxy.call(`${PROFILE_SUMMARY_PATH}?dot_number=${DOT}`);
    const full = await proxy.call(`/api/v2/profile?dot_number=${DOT}`);
    expect(full.headers.get('x-cache')).toBe('hit');
    expect(firstItem(full.json)).toEqual(heavyItem(50));
    expect(full.headers.get('x-fetched-at')).toBe(summary.headers.get('x-fetched-at'));
    expect(origin.requests).toHaveLength(1);
    expect(await profileUsage()).toMatchObject({ calls: 2, cacheHits: 1, usd: 3 });
  });

  it('is cut from the cached full profile when that came first (x-cache: hit, free)', async () => {
    const full = await proxy.call(`/api/v2/profile?dot_number=${DOT}`);
    const summary = await proxy.call(`${PROFILE_SUMMARY_PATH}?dot_number=${DOT}`);
    expect(summary.headers.get('x-cache')).toBe('hit');
    expect(summary.headers.get('x-fetched-at')).toBe(full.headers.get('x-fetched-at'));
    expect(origin.requests).toHaveLength(1);
    expect(await profileUsage()).toMatchObject({ calls: 2, cacheHits: 1, usd: 3 });
  });

  it('serves a summary asked for again from the one already cut, until a refresh', async () => {
    const first = await proxy.call(`${PROFILE_SUMMARY_PATH}?dot_number=${DOT}`);
    const again = await proxy.call(`${PROFILE_SUMMARY_PATH}?dot_number=${DOT}`);
    expect(again.headers.get('x-cache')).toBe('hit');
    expect(again.text).toBe(first.text);
    expect(again.headers.get('x-fetched-at')).toBe(first.headers.get('x-fetched-at'));
    await proxy.call(`/api/v2/profile?dot_number=${DOT}`, {
      headers: { 'cache-control': 'no-cache' },
    });
    const refreshed = await proxy.call(`${PROFILE_SUMMARY_PATH}?dot_number=${DOT}`);
    expect(refreshed.headers.get('x-fetched-at')).not.toBe(first.headers.get('x-fetched-at'));
    expect(refreshed.headers.get('x-cache')).toBe('hit');
    expect(origin.requests).toHaveLength(2);
  });

  it('validates like the mirror: nothing is sent upstream for a bad DOT', async () => {
    const answer = await proxy.call(`${PROFILE_SUMMARY_PATH}?dot_number=12x`);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: 'invalid_dot_number' });
    expect(origin.requests).toHaveLength(0);
  });

  it('answers 404 unknown_dot, as the summary view does, for a DOT the service does not know', async () => {
    origin.handle((_req, res) => answerJson(res, 200, { items: [], total_count: 0 }));
    for (const attempt of ['first', 'again']) {
      const answer = await proxy.call(`${PROFILE_SUMMARY_PATH}?dot_number=42`);
      expect(answer.status, attempt).toBe(404);
      expect(answer.json, attempt).toEqual({
        error: 'The data service has no carrier with DOT 42',
        code: 'unknown_dot',
        hint: expect.any(String),
      });
      const view = await proxy.call(`/api/local/profile-view?dot_number=42&view=summary`);
      expect(view.status, attempt).toBe(404);
      expect(view.json, attempt).toEqual(answer.json);
    }
    // one call to the service, then the cached empty answer, metered no further
    expect(origin.requests).toHaveLength(1);
    expect(await profileUsage()).toMatchObject({ calls: 1, cacheHits: 0 });
  });

  it('passes a search by another key that matches nothing on as the empty answer it is', async () => {
    origin.handle((_req, res) => answerJson(res, 200, { items: [], total_count: 0 }));
    const answer = await proxy.call(`${PROFILE_SUMMARY_PATH}?company=nobody%20hauling`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ items: [], total_count: 0 });
  });

  it("passes the service's failure on unchanged", async () => {
    origin.handle((_req, res) => answerJson(res, 404, { error: 'No carrier', code: 'not_found' }));
    const answer = await proxy.call(`${PROFILE_SUMMARY_PATH}?dot_number=1`);
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ error: 'No carrier', code: 'not_found' });
  });
});

describe('concurrent summary and full profile', () => {
  beforeEach(() => start(3_600_000, 150));

  it('share one upstream call, whichever arrives first', async () => {
    const [summary, full] = await Promise.all([
      proxy.call(`${PROFILE_SUMMARY_PATH}?dot_number=${DOT}`),
      proxy.call(`/api/v2/profile?dot_number=${DOT}`),
    ]);
    expect([summary.status, full.status]).toEqual([200, 200]);
    expect(firstItem(summary.json)).not.toHaveProperty('inspection_history');
    expect(firstItem(full.json)).toHaveProperty('inspection_history');
    expect(origin.requests).toHaveLength(1);
    expect(await profileUsage()).toMatchObject({ calls: 2, cacheHits: 1, usd: 3 });
  });
});

describe('with the profile cache turned off', () => {
  beforeEach(() => start(0));

  it('refuses (409) without calling the service, so a view never bills twice', async () => {
    const answer = await proxy.call(`${PROFILE_SUMMARY_PATH}?dot_number=${DOT}`);
    expect(answer.status).toBe(409);
    expect(answer.json).toMatchObject({ code: 'summary_unavailable' });
    expect(origin.requests).toHaveLength(0);
  });
});

describe('summariseProfileBody', () => {
  const item = heavyItem(2);
  const trimmed = summariseProfileBody(item) as Record<string, unknown>;

  it('trims a bare object, a bare array and an envelope alike', () => {
    expect(Object.keys(trimmed)).not.toContain('crash_history');
    expect(summariseProfileBody([item])).toEqual([trimmed]);
    expect(summariseProfileBody({ items: [item], total_count: 7 })).toEqual({
      items: [trimmed],
      total_count: 7,
    });
  });

  it('leaves anything that is not a profile as it is', () => {
    expect(summariseProfileBody(null)).toBeNull();
    expect(summariseProfileBody({ items: 'none' })).toEqual({ items: 'none' });
    expect(summariseProfileBody([1, 'a'])).toEqual([1, 'a']);
  });
});
