/**
 * The monitoring view through a real proxy, in front of a fake origin or the embedded sandbox: the
 * same page the mirror gives (parsed), the change ids, one upstream call per request, and every
 * refusal passed on as the mirror route answers it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeIdsOf } from '../../../src/lib/monitoring/change-id.ts';
import { parseMonitoringList } from '../../../src/lib/service/monitoring.ts';
import { fixture } from '../../../src/lib/service/fixtures.test-support.ts';
import {
  answerJson,
  answersInARow,
  embeddedSandboxConfig,
  request,
  startFakeOrigin,
  startProxy,
  testConfig,
  type CallResult,
  type FakeOrigin,
  type OriginHandler,
  type RunningProxy,
} from '../helpers.test-support.ts';
import { MONITORING_VIEW_PATH, monitoringViewOf, type MonitoringView } from './monitoring-view.ts';

const LIST_PATH = '/api/v2/monitoring/list';

/**
 * Where JSON would not give `value` back as it is: `undefined` (dropped from objects, null in
 * arrays), numbers JSON has no form for, and objects that are not plain (Date, Map, Set...).
 * Each as a path; `channel` of a change (`undefined` when the field has none) is reported too.
 */
function jsonLosses(value: unknown, path = '$'): string[] {
  if (value === undefined) return [`${path}: undefined`];
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [`${path}: ${value}`];
  if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') {
    return [`${path}: ${typeof value}`];
  }
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) {
    const holes = value.length - Object.keys(value).length;
    const own = holes > 0 ? [`${path}: ${holes} holes`] : [];
    return [...own, ...value.flatMap((item, index) => jsonLosses(item, `${path}[${index}]`))];
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return [`${path}: not a plain object`];
  return Object.entries(value).flatMap(([key, item]) => jsonLosses(item, `${path}.${key}`));
}

/** The losses of a parsed list, leaving out the one the SPA reads the same either way. */
function listLosses(view: MonitoringView): string[] {
  // `channel: undefined` (a field of no channel) comes back as a missing key: every reader uses
  // `change.channel` (undefined both ways), none `'channel' in change`.
  return jsonLosses(view).filter((loss) => !/\.changes\[\d+\]\.channel: undefined$/.test(loss));
}

function roundTrip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The view a mirror answer stands for, as the browser reads it after JSON. */
function expectedView(mirrorAnswer: CallResult): MonitoringView {
  return roundTrip(monitoringViewOf(mirrorAnswer.json));
}

describe('the parsed list survives JSON', () => {
  it('for the live-shape fixture', () => {
    const view = monitoringViewOf(fixture('monitoring_list'));
    expect(view.list.profiles.length).toBeGreaterThan(0);
    expect(listLosses(view)).toEqual([]);
    expect(roundTrip(view)).toEqual(view);
  });

  it('notices what JSON would lose (the check itself)', () => {
    expect(jsonLosses({ a: [1, undefined], b: new Date(0), c: Number.NaN })).toEqual([
      '$.a[1]: undefined',
      '$.b: not a plain object',
      '$.c: NaN',
    ]);
  });
});

describe('GET /api/local/monitoring-view against a fake origin', () => {
  let origin: FakeOrigin;
  let proxy: RunningProxy;
  let answer: OriginHandler = (_req, res) => answerJson(res, 200, fixture('monitoring_list'));

  beforeAll(async () => {
    origin = await startFakeOrigin((req, res) => answer(req, res));
    proxy = await startProxy(testConfig({ upstream: { baseUrl: origin.url, retryDelayMs: 1 } }));
  });
  afterAll(async () => {
    await proxy.close();
    await origin.close();
  });
  beforeEach(() => {
    origin.requests.length = 0;
    answer = (_req, res) => answerJson(res, 200, fixture('monitoring_list'));
  });

  it('answers the list the mirror gives, parsed, with its change ids, from one upstream call', async () => {
    const query = 'page=1&pageSize=100&view_changes=true';
    const view = await proxy.call(`${MONITORING_VIEW_PATH}?${query}`);
    expect(view.status, view.text).toBe(200);
    expect(view.headers.get('x-cache')).toBe('miss');
    expect(Date.parse(view.headers.get('x-fetched-at') ?? '')).not.toBeNaN();
    expect(view.headers.get('cache-control')).toBe('private, no-store');
    expect(origin.requests).toHaveLength(1);

    const mirror = await proxy.call(`${LIST_PATH}?${query}`);
    expect(origin.requests).toHaveLength(2);
    // the same request upstream as the browser's own call
    expect(origin.requests[0]?.url).toBe(origin.requests[1]?.url);

    const body = view.json as MonitoringView;
    const parsed = parseMonitoringList(mirror.json).value;
    expect(body).toEqual({ list: roundTrip(parsed), changeIds: changeIdsOf(parsed.profiles) });
    expect(body).toEqual(expectedView(mirror));
    expect(body.changeIds.flat().length).toBeGreaterThan(0);
  });

  it('refuses an invalid query as the mirror does, without calling the service', async () => {
    for (const query of ['pageSize=0', 'page=abc', 'sortBy=nope', 'unknown=1']) {
      const view = await proxy.call(`${MONITORING_VIEW_PATH}?${query}`);
      const mirror = await proxy.call(`${LIST_PATH}?${query}`);
      expect(view.status, query).toBe(400);
      expect(view.status, query).toBe(mirror.status);
      expect(view.json, query).toEqual(mirror.json);
      expect(view.json, query).toMatchObject({
        code: expect.any(String),
        hint: expect.any(String),
      });
    }
    expect(origin.requests).toHaveLength(0);
  });

  it('needs the CSRF header, like the mirror: no header, no call', async () => {
    const bare = await fetch(`${proxy.url}${MONITORING_VIEW_PATH}?page=1`);
    expect(bare.status).toBe(403);
    expect(await bare.json()).toMatchObject({ code: 'csrf' });
    expect(origin.requests).toHaveLength(0);
  });
});

type Answers = Awaited<ReturnType<typeof answersInARow>>;

/**
 * The two series are the same answers; a Retry-After the proxy counts down itself (a paused queue,
 * an open circuit) may be a second apart between the two proxies.
 */
function expectSameAnswers(view: Answers, mirror: Answers, label = '') {
  expect(view.length, label).toBe(mirror.length);
  view.forEach((answer, index) => {
    const other = mirror[index];
    expect({ ...answer, retryAfter: null }, `${label} #${index}`).toEqual({
      ...other,
      retryAfter: null,
    });
    expect(answer.retryAfter === null, `${label} #${index}`).toBe(other?.retryAfter === null);
    const gap = Math.abs(Number(answer.retryAfter ?? 0) - Number(other?.retryAfter ?? 0));
    expect(gap, `${label} #${index}`).toBeLessThanOrEqual(1);
  });
}

describe('a refusal of the service reaches the browser as the mirror sends it', () => {
  it('a 429 with its Retry-After, then the paused queue’s own 429', async () => {
    const handler: OriginHandler = (_req, res) =>
      answerJson(res, 429, { error: 'Slow down', code: 'rate_limited' }, { 'retry-after': '120' });
    const view = await answersInARow(handler, `${MONITORING_VIEW_PATH}?page=1`, 2);
    const mirror = await answersInARow(handler, `${LIST_PATH}?page=1`, 2);
    expect(view[0]).toMatchObject({ status: 429, retryAfter: '120', upstreamCalls: 1 });
    expect(view[0]?.json).toEqual({ error: 'Slow down', code: 'rate_limited' });
    // the second is refused by the proxy itself, without a call: `{error, code, hint}`
    expect(view[1]).toMatchObject({ status: 429, upstreamCalls: 0 });
    expect(view[1]?.json).toMatchObject({ code: 'rate_limited', hint: expect.any(String) });
    expectSameAnswers(view, mirror);
  });

  it('a 503 after the same retries, then what the proxy answers meanwhile', async () => {
    const handler: OriginHandler = (_req, res) =>
      answerJson(res, 503, { error: 'Down for maintenance', code: 'maintenance' });
    const view = await answersInARow(handler, `${MONITORING_VIEW_PATH}?page=1`, 3);
    const mirror = await answersInARow(handler, `${LIST_PATH}?page=1`, 3);
    expect(view[0]?.status).toBe(503);
    expect(view[0]?.upstreamCalls).toBeGreaterThan(1);
    expectSameAnswers(view, mirror);
  });

  it('a 502 and a 400 of the service', async () => {
    for (const status of [502, 400]) {
      const handler: OriginHandler = (_req, res) =>
        answerJson(res, status, { error: `Failed ${status}`, code: `failed_${status}` });
      const view = await answersInARow(handler, `${MONITORING_VIEW_PATH}?page=1`, 1);
      const mirror = await answersInARow(handler, `${LIST_PATH}?page=1`, 1);
      expect(view[0]?.status, String(status)).toBe(status);
      expectSameAnswers(view, mirror, String(status));
    }
  });
});

describe('against the embedded sandbox', () => {
  let proxy: RunningProxy;
  beforeAll(async () => {
    proxy = await startProxy(embeddedSandboxConfig());
    // move the seeded watchlist on, so its records hold every channel's changes
    const sandbox = proxy.app.proxy.sandbox;
    if (!sandbox) throw new Error('no embedded sandbox');
    const advanced = await request(`${sandbox.url}/__sandbox/advance`, {
      method: 'POST',
      body: { days: 40 },
      headers: { authorization: `Bearer ${sandbox.apiKey}` },
    });
    expect(advanced.status, advanced.text).toBe(200);
  });
  afterAll(() => proxy.close());

  it('gives the page the mirror gives, parsed, with the ids the inbox computes', async () => {
    for (const query of ['page=1&pageSize=500', 'page=1&pageSize=2&sortBy=profile_id', '']) {
      const view = await proxy.call(`${MONITORING_VIEW_PATH}?${query}`);
      const mirror = await proxy.call(`${LIST_PATH}?${query}`);
      expect(view.status, query).toBe(200);
      const parsed = parseMonitoringList(mirror.json).value;
      expect(parsed.profiles.length, query).toBeGreaterThan(0);
      expect(view.json, query).toEqual({
        list: roundTrip(parsed),
        changeIds: changeIdsOf(parsed.profiles),
      });
      expect(listLosses(monitoringViewOf(mirror.json)), query).toEqual([]);
    }
  });
});
