/**
 * `/api/local/profile-view` over real HTTP on loopback, against the embedded sandbox: one billed
 * profile call per carrier whatever is asked, free cache hits, freshness headers, paging, sorting,
 * filtering, ids, points, the network fields, and the refusals.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EMBEDDED_SANDBOX_KEY } from '../config.ts';
import type { StoredResponse } from '../cache.ts';
import {
  answerJson,
  embeddedSandboxConfig,
  request,
  startFakeOrigin,
  startProxy,
  testConfig,
  type CallResult,
  type FakeOrigin,
  type RunningProxy,
} from '../helpers.test-support.ts';
import { PARSED_ANSWERS_KEPT, ParsedAnswers } from './profile-summary.ts';
import { PROFILE_VIEW_PATH } from './profile-view.ts';

/** A curated sandbox carrier with a history: 140 inspections, 14 crashes, 60 vehicles. */
const DOT = '2214589';
const HEAVY = '3999999';
const BIG_CACHE = { profileTtlMs: 3_600_000, autocompleteTtlMs: 300_000, maxBytes: 64 << 20 };

type Item = Record<string, unknown>;
interface PagedBody {
  view: string;
  dot_number: string;
  total: number;
  matched: number;
  offset: number;
  limit: number;
  sort: string;
  dir: string;
  rows: { id: string; index: number; item: Item }[];
  choices?: { states: string[]; levels: string[] };
  state_counts?: { state: string; inspections: number }[];
}
interface PointsBody {
  view: string;
  dot_number: string;
  total: number;
  points: [number, number, string][];
}

const view = (dot: string, name: string, extra = '') =>
  `${PROFILE_VIEW_PATH}?dot_number=${dot}&view=${name}${extra ? `&${extra}` : ''}`;

/** Upstream profile calls the sandbox has counted for the proxy's key (each one billable). */
async function upstreamProfileCalls(proxy: RunningProxy): Promise<number> {
  const base = proxy.app.proxy.config.upstream.baseUrl;
  const ledger = await request(`${base}/__sandbox/ledger`, {
    headers: { 'x-api-key': EMBEDDED_SANDBOX_KEY },
  });
  const body = ledger.json as {
    keys: { months: { lines: { kind: string; calls: number }[] }[] }[];
  };
  return body.keys
    .flatMap((key) => key.months)
    .flatMap((month) => month.lines)
    .filter((line) => line.kind === 'profile')
    .reduce((sum, line) => sum + line.calls, 0);
}

async function profileUsage(proxy: RunningProxy) {
  const usage = (await proxy.call('/api/local/usage')).json as {
    byCategory: { category: string; calls: number; cacheHits: number; usd: number }[];
  };
  return usage.byCategory.find((entry) => entry.category === 'profile');
}

function expectViewHeaders(answer: CallResult, name: string) {
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(answer.headers.get('cache-control')).toBe('private, no-store');
  expect(answer.headers.get('x-profile-view')).toBe(name);
  expect(answer.headers.get('x-cache')).toMatch(/^(hit|miss)$/);
  expect(Number.isNaN(Date.parse(answer.headers.get('x-fetched-at') ?? ''))).toBe(false);
}

async function fullItem(proxy: RunningProxy, dot: string): Promise<Item> {
  const full = await proxy.call(`/api/v2/profile?dot_number=${dot}`);
  return (full.json as { items: Item[] }).items[0] ?? {};
}

const history = (item: Item, field: string) => item[field] as Item[];

describe('billing: one upstream profile call per carrier', () => {
  let proxy: RunningProxy;
  beforeEach(async () => {
    proxy = await startProxy(embeddedSandboxConfig());
  });
  afterEach(() => proxy.close());

  it('whatever the number of views and pages asked; the hits are free', async () => {
    const asks = [
      ['inspections', ''],
      ['inspections', 'offset=100&limit=20'],
      ['inspections', 'sort=viol_total&dir=asc&state=TX'],
      ['crashes', ''],
      ['equipment', 'type=trailer'],
      ['inspection-points', 'oos=1'],
      ['crash-points', ''],
      ['network', ''],
      ['summary', ''],
    ] as const;
    const answers: CallResult[] = [];
    for (const [name, extra] of asks) {
      const answer = await proxy.call(view(DOT, name, extra));
      expectViewHeaders(answer, name);
      answers.push(answer);
    }
    expect(answers.map((a) => a.headers.get('x-cache'))).toEqual([
      'miss',
      ...asks.slice(1).map(() => 'hit'),
    ]);
    // Every view is cut from the same answer, so every one is as fresh as the first.
    const fetchedAt = new Set(answers.map((a) => a.headers.get('x-fetched-at')));
    expect(fetchedAt.size).toBe(1);
    expect(await upstreamProfileCalls(proxy)).toBe(1);
    // One billed call at 3 USD; the summary's replay of the cached answer is metered as a free hit.
    // The views' hits are served from the cached answer without the mirror: not metered again.
    expect(await profileUsage(proxy)).toMatchObject({ calls: 2, cacheHits: 1, usd: 3 });
  });

  it('shares one call among views asked at the same time on a cold cache', async () => {
    const names = ['inspections', 'crashes', 'equipment', 'inspection-points', 'network'];
    const answers = await Promise.all(names.map((name) => proxy.call(view(DOT, name))));
    answers.forEach((answer, i) => expectViewHeaders(answer, names[i] ?? ''));
    expect(await upstreamProfileCalls(proxy)).toBe(1);
    expect(answers.filter((a) => a.headers.get('x-cache') === 'miss')).toHaveLength(1);
  });

  it('is a free hit after the full profile, and the full profile after a view', async () => {
    const full = await proxy.call(`/api/v2/profile?dot_number=${DOT}`);
    const page = await proxy.call(view(DOT, 'inspections'));
    expect(page.headers.get('x-cache')).toBe('hit');
    expect(page.headers.get('x-fetched-at')).toBe(full.headers.get('x-fetched-at'));
    const other = await proxy.call(view('568253', 'crashes'));
    expect(other.headers.get('x-cache')).toBe('miss');
    const otherFull = await proxy.call('/api/v2/profile?dot_number=568253');
    expect(otherFull.headers.get('x-cache')).toBe('hit');
    expect(await upstreamProfileCalls(proxy)).toBe(2);
  });

  it('refuses a call without the dashboard header (403), nothing sent upstream', async () => {
    const bare = await fetch(`${proxy.url}${view(DOT, 'inspections')}`);
    expect(bare.status).toBe(403);
    expect(await upstreamProfileCalls(proxy)).toBe(0);
  });
});

describe('views of a carrier with a history', () => {
  let proxy: RunningProxy;
  let item: Item;
  beforeAll(async () => {
    proxy = await startProxy(embeddedSandboxConfig());
    item = await fullItem(proxy, DOT);
  });
  afterAll(() => proxy.close());

  async function page(name: string, extra = ''): Promise<PagedBody> {
    const answer = await proxy.call(view(DOT, name, extra));
    expectViewHeaders(answer, name);
    return answer.json as PagedBody;
  }

  it('pages the inspections: the pages put together are the whole sorted history', async () => {
    const inspections = history(item, 'inspection_history');
    const whole = await page('inspections', 'limit=10000');
    expect(whole).toMatchObject({
      view: 'inspections',
      dot_number: DOT,
      total: inspections.length,
      matched: inspections.length,
      offset: 0,
      limit: 10000,
      sort: 'insp_date',
      dir: 'desc',
    });
    expect(whole.rows).toHaveLength(inspections.length);
    const pieces: PagedBody['rows'] = [];
    for (let offset = 0; offset < inspections.length; offset += 33) {
      const piece = await page('inspections', `offset=${offset}&limit=33`);
      expect(piece.rows.length).toBe(Math.min(33, inspections.length - offset));
      pieces.push(...piece.rows);
    }
    expect(pieces).toEqual(whole.rows);
    const beyond = await page('inspections', `offset=${inspections.length}`);
    expect(beyond).toMatchObject({ rows: [], matched: inspections.length });
    // Newest first by default.
    const dates = whole.rows.map((row) => String(row.item.insp_date));
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('gives each row its element exactly as sent, its place in the history and its id', async () => {
    const inspections = history(item, 'inspection_history');
    const whole = await page('inspections', 'limit=10000');
    for (const row of whole.rows) {
      expect(row.item).toEqual(inspections[row.index]);
      expect(row.id).toBe(
        String(row.item._id ?? row.item.report_number ?? `inspection-${row.index}`),
      );
    }
    expect(new Set(whole.rows.map((row) => row.index)).size).toBe(inspections.length);
  });

  it('sorts numbers as numbers, stable, with missing values last both ways', async () => {
    for (const dir of ['asc', 'desc'] as const) {
      const sorted = await page('inspections', `sort=viol_total&dir=${dir}&limit=10000`);
      const values = sorted.rows.map((row) => row.item.viol_total as number | undefined);
      const present = values.filter((v) => v !== undefined && v !== null);
      expect(values.slice(0, present.length)).toEqual(present);
      for (let i = 1; i < sorted.rows.length; i += 1) {
        const [a, b] = [sorted.rows[i - 1], sorted.rows[i]];
        if (!a || !b || b.item.viol_total === undefined) continue;
        const order =
          (Number(b.item.viol_total) - Number(a.item.viol_total)) * (dir === 'asc' ? 1 : -1);
        expect(order).toBeGreaterThanOrEqual(0);
        // Equal values keep the history's order.
        if (order === 0) expect(b.index).toBeGreaterThan(a.index);
      }
    }
  });

  it('filters by state, level, out-of-service and dates as the tab does', async () => {
    const inspections = history(item, 'inspection_history');
    const whole = await page('inspections');
    const counts = whole.state_counts ?? [];
    const top = counts[0];
    if (!top) throw new Error('no state counts');
    expect(counts.reduce((sum, c) => sum + c.inspections, 0)).toBe(inspections.length);
    expect(whole.choices?.states).toEqual(
      [...new Set(inspections.map((i) => i.report_state))].sort(),
    );
    expect(whole.choices?.levels).toEqual(
      [...new Set(inspections.map((i) => String(i.insp_level_id)))].sort(),
    );
    for (let i = 1; i < counts.length; i += 1) {
      expect(counts[i - 1]?.inspections).toBeGreaterThanOrEqual(counts[i]?.inspections ?? 0);
    }

    const byState = await page('inspections', `state=${top.state}&limit=10000`);
    expect(byState.matched).toBe(top.inspections);
    expect(byState.rows.every((row) => row.item.report_state === top.state)).toBe(true);
    // Extras describe the whole history, not the filtered page.
    expect(byState.state_counts).toEqual(counts);
    expect(byState.total).toBe(inspections.length);

    const level = whole.choices?.levels[0] ?? '';
    const byLevel = await page('inspections', `level=${level}&oos=1&limit=10000`);
    const expected = inspections.filter(
      (i) => i.insp_level_id === level && Number(i.oos_total ?? 0) > 0,
    );
    expect(byLevel.matched).toBe(expected.length);
    expect(byLevel.rows.map((row) => row.item).sort(byReport)).toEqual(expected.sort(byReport));

    const dates = inspections.map((i) => String(i.insp_date)).sort();
    const [from, to] = [dates[10] ?? '', dates[60] ?? ''];
    const ranged = await page('inspections', `from=${from}&to=${to}&limit=10000`);
    expect(ranged.matched).toBe(dates.filter((d) => d >= from && d <= to).length);
    expect(ranged.matched).toBeGreaterThanOrEqual(51);
  });

  it('pages and sorts the crashes and the equipment', async () => {
    const crashes = history(item, 'crash_history');
    const byInjuries = await page('crashes', 'sort=injuries&dir=asc&limit=5');
    expect(byInjuries).toMatchObject({ total: crashes.length, matched: crashes.length, limit: 5 });
    const least = Math.min(...crashes.map((c) => Number(c.injuries ?? Infinity)));
    expect(Number(byInjuries.rows[0]?.item.injuries)).toBe(least);
    expect(byInjuries.rows.map((row) => row.id)).toEqual(
      byInjuries.rows.map((row) => String(row.item._id ?? row.item.report_number)),
    );

    const vehicles = history(item, 'equipment_history');
    const trailers = await page('equipment', 'type=trailer&sort=vin&dir=asc&limit=10000');
    const expected = vehicles.filter((v) => String(v.type).toUpperCase() === 'TRAILER');
    expect(expected.length).toBeGreaterThan(0);
    expect(trailers.matched).toBe(expected.length);
    const vins = trailers.rows.map((row) => String(row.item.vin));
    expect(vins).toEqual([...vins].sort(new Intl.Collator('en', { numeric: true }).compare));
    // The fleet tab's row id: `_id`, else the VIN.
    for (const row of trailers.rows) expect(row.id).toBe(String(row.item._id ?? row.item.vin));
  });

  it('sends the map points compact, filtered, with the rows’ ids', async () => {
    const inspections = history(item, 'inspection_history');
    const answer = await proxy.call(view(DOT, 'inspection-points'));
    expectViewHeaders(answer, 'inspection-points');
    const all = answer.json as PointsBody;
    const located = inspections.filter((i) => i.geo_point ?? i.latitude);
    expect(all).toMatchObject({
      view: 'inspection-points',
      dot_number: DOT,
      total: located.length,
    });
    expect(all.points).toHaveLength(located.length);
    const rows = (await page('inspections', 'limit=10000')).rows;
    const byId = new Map(rows.map((row) => [row.id, row.item]));
    for (const [lon, lat, id] of all.points) {
      const source = byId.get(id) as { geo_point: { lat: number; lon: number } } | undefined;
      expect(source?.geo_point).toEqual({ lat, lon });
    }
    const top = (await page('inspections')).state_counts?.[0];
    const filtered = (await proxy.call(view(DOT, 'inspection-points', `state=${top?.state}`)))
      .json as PointsBody;
    expect(filtered.points.length).toBeLessThan(all.points.length);
    for (const [, , id] of filtered.points) expect(byId.get(id)?.report_state).toBe(top?.state);
    // Compact: three values a point, nothing else.
    expect(answer.text.length).toBeLessThan(all.points.length * 60 + 200);

    const crashPoints = (await proxy.call(view(DOT, 'crash-points'))).json as PointsBody;
    expect(crashPoints.points.length).toBe(
      history(item, 'crash_history').filter((c) => c.geo_point ?? c.latitude).length,
    );
  });

  it('answers the network fields exactly as sent (no VIN records: this carrier shares none), and the summary as the summary route', async () => {
    const network = await proxy.call(view(DOT, 'network'));
    expectViewHeaders(network, 'network');
    const body = network.json as { view: string; dot_number: string; item: Item };
    const expected = Object.fromEntries(
      Object.entries(item).filter(
        ([name]) =>
          name.startsWith('network_graph_') ||
          name.startsWith('indicator_network_graph_') ||
          name === 'shared_power_units' ||
          name === 'shared_trailers',
      ),
    );
    expect(Object.keys(expected).length).toBeGreaterThan(0);
    expect(body).toEqual({ view: 'network', dot_number: DOT, item: expected });

    const summary = await proxy.call(view(DOT, 'summary'));
    expectViewHeaders(summary, 'summary');
    const route = await proxy.call(`/api/local/profile-summary?dot_number=${DOT}`);
    expect(summary.text).toBe(route.text);
    expect(summary.headers.get('x-profile-summary-omitted')).toBe(
      route.headers.get('x-profile-summary-omitted'),
    );
  });

  it('refuses bad parameters with 400 invalid_view_query and a hint, before any call', async () => {
    const before = await upstreamProfileCalls(proxy);
    const bad = [
      'view=timeline',
      '',
      'view=inspections&sort=legal_name',
      'view=inspections&dir=up',
      'view=inspections&offset=-1',
      'view=inspections&offset=1.5',
      'view=inspections&limit=0',
      'view=inspections&limit=10001',
      'view=inspections&limit=ten',
      'view=inspections&from=2026-02-30',
      'view=inspections&to=26-01-01',
      'view=inspections&oos=yes',
      'view=crashes&state=TX',
      'view=equipment&type=BUS',
      'view=network&offset=0',
      'view=inspections&sort=insp_date&sort=oos_total',
      'view=inspections&page=2',
    ];
    for (const query of bad) {
      const answer = await proxy.call(
        `${PROFILE_VIEW_PATH}?dot_number=777777${query ? `&${query}` : ''}`,
      );
      expect(answer.status, query).toBe(400);
      const error = answer.json as { error: string; code: string; hint: string };
      expect(error.code, query).toBe('invalid_view_query');
      expect(error.error.length, query).toBeGreaterThan(0);
      expect(error.hint.length, query).toBeGreaterThan(0);
    }
    const sortHint = (await proxy.call(view(DOT, 'inspections', 'sort=x'))).json as {
      error: string;
    };
    expect(sortHint.error).toMatch(/insp_date, report_number/);
    const badDot = await proxy.call(view('12x', 'inspections'));
    expect(badDot.status).toBe(400);
    expect(badDot.json).toMatchObject({ code: 'invalid_dot_number' });
    const noDot = await proxy.call(`${PROFILE_VIEW_PATH}?view=crashes`);
    expect(noDot.status).toBe(400);
    expect(noDot.json).toMatchObject({ code: 'missing_search_key' });
    expect(await upstreamProfileCalls(proxy)).toBe(before);
  });

  it('answers 404 unknown_dot for a DOT the service does not know', async () => {
    for (const name of ['inspections', 'network', 'summary']) {
      const answer = await proxy.call(view('99999998', name));
      expect(answer.status, name).toBe(404);
      expect(answer.json, name).toMatchObject({ code: 'unknown_dot', hint: expect.any(String) });
    }
  });
});

function byReport(a: Item, b: Item): number {
  return String(a.report_number).localeCompare(String(b.report_number));
}

describe('with the profile cache turned off', () => {
  let proxy: RunningProxy;
  beforeAll(async () => {
    proxy = await startProxy(embeddedSandboxConfig({ cache: { ...BIG_CACHE, profileTtlMs: 0 } }));
  });
  afterAll(() => proxy.close());

  it('refuses every view (409 view_unavailable) without calling the service', async () => {
    for (const name of ['inspections', 'summary', 'network']) {
      const answer = await proxy.call(view(DOT, name));
      expect(answer.status, name).toBe(409);
      expect(answer.json, name).toMatchObject({
        code: 'view_unavailable',
        hint: expect.any(String),
      });
    }
    expect(await upstreamProfileCalls(proxy)).toBe(0);
  });
});

describe('a failure of the service', () => {
  let origin: FakeOrigin;
  let proxy: RunningProxy;
  beforeAll(async () => {
    origin = await startFakeOrigin((req, res) =>
      req.url?.includes('dot_number=2')
        ? // longer than the proxy waits: passed on to the browser with its Retry-After
          answerJson(
            res,
            429,
            { error: 'Slow down', code: 'rate_limited' },
            { 'retry-after': '120' },
          )
        : answerJson(res, 404, { error: 'No carrier', code: 'not_found' }),
    );
    proxy = await startProxy(
      testConfig({
        upstream: {
          baseUrl: origin.url,
          apiKey: 'sk_live_x',
          legacy: false,
          timeoutMs: 2000,
          retryDelayMs: 1,
        },
      }),
    );
  });
  afterAll(async () => {
    await proxy.close();
    await origin.close();
  });

  it('passes through with its status and body', async () => {
    const answer = await proxy.call(view('1', 'inspections'));
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ error: 'No carrier', code: 'not_found' });
  });

  it('passes a 429 on with its Retry-After, for the view and the summary alike', async () => {
    for (const path of [
      view('2', 'inspections'),
      view('2', 'summary'),
      '/api/local/profile-summary?dot_number=2',
    ]) {
      const answer = await proxy.call(path);
      expect(answer.status, path).toBe(429);
      expect(answer.headers.get('retry-after'), path).toBe('120');
    }
  });
});

describe('the heavy carrier', () => {
  let proxy: RunningProxy;
  beforeAll(async () => {
    proxy = await startProxy(embeddedSandboxConfig({ cache: BIG_CACHE }));
  });
  afterAll(() => proxy.close());

  it('serves every page of 5,200 inspections from one billed call', async () => {
    const first = await proxy.call(view(HEAVY, 'inspections'));
    expectViewHeaders(first, 'inspections');
    const body = first.json as PagedBody;
    expect(body).toMatchObject({ total: 5200, matched: 5200, limit: 100 });
    expect(body.rows).toHaveLength(100);
    // A page is a small fraction of the 13.5 MB answer.
    expect(first.text.length).toBeLessThan(400_000);
    const ids = new Set(body.rows.map((row) => row.id));
    for (const offset of [100, 2600, 5100]) {
      const next = await proxy.call(view(HEAVY, 'inspections', `offset=${offset}`));
      expect(next.headers.get('x-cache')).toBe('hit');
      for (const row of (next.json as PagedBody).rows) ids.add(row.id);
    }
    expect(ids.size).toBe(400);
    const points = (await proxy.call(view(HEAVY, 'inspection-points'))).json as PointsBody;
    expect(points.points.length).toBeGreaterThan(5000);
    // the network: its fields and its own records of the 520 shared VINs, not the histories
    const network = await proxy.call(view(HEAVY, 'network'));
    const item = (network.json as { item: Item }).item;
    const ext = item.network_graph_equipment_ext as { shared_vins: { vin: string }[] }[];
    const shared = new Set(ext.flatMap((carrier) => carrier.shared_vins.map((v) => v.vin)));
    const vehicles = item.equipment_history as Item[];
    expect(shared.size).toBe(520);
    expect(new Set(vehicles.map((v) => v.vin))).toEqual(shared);
    for (const v of vehicles) expect(Object.keys(v).length).toBeLessThanOrEqual(5);
    expect(network.text.length).toBeLessThan(1_000_000);
    expect(await upstreamProfileCalls(proxy)).toBe(1);
  }, 60_000);
});

describe('ParsedAnswers', () => {
  const stored = (n: number): StoredResponse => ({
    status: 200,
    body: JSON.stringify({ items: [{ dot_number: String(n) }] }),
    headers: {},
    fetchedAt: new Date(),
    dots: [String(n)],
  });

  it('parses an answer once while it is among the most recently used', () => {
    const parsed = new ParsedAnswers();
    const entry = stored(1);
    const once = parsed.get(entry);
    expect(parsed.get(entry)).toBe(once);
    expect(once).toEqual({ items: [{ dot_number: '1' }] });
  });

  it(`keeps ${PARSED_ANSWERS_KEPT} at most, pushing out the least recently used`, () => {
    const parsed = new ParsedAnswers();
    const entries = Array.from({ length: PARSED_ANSWERS_KEPT + 1 }, (_, i) => stored(i));
    const [oldest, second] = entries as [StoredResponse, StoredResponse];
    const kept = parsed.get(oldest);
    const dropped = parsed.get(second);
    for (const entry of entries.slice(2, -1)) parsed.get(entry);
    // Used again, the oldest becomes the most recent: the next new answer pushes out the second.
    expect(parsed.get(oldest)).toBe(kept);
    parsed.get(entries.at(-1) as StoredResponse);
    expect(parsed.size).toBe(PARSED_ANSWERS_KEPT);
    expect(parsed.get(oldest)).toBe(kept);
    expect(parsed.get(second)).not.toBe(dropped);
    expect(parsed.get(second)).toEqual(dropped);
  });

  it('takes the parse the caller already has', () => {
    const parsed = new ParsedAnswers();
    const entry = stored(9);
    const given = { items: [] };
    expect(parsed.get(entry, given)).toBe(given);
    expect(parsed.get(entry)).toBe(given);
  });
});
