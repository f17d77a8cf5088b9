/**
 * The navigation badge's count through a real proxy: in front of the embedded sandbox (the count the
 * browser used to work out from the monitoring view and the triage lookup, per user, after a triage
 * write), and in front of a fake origin (one upstream call, nothing billed, refusals passed on as
 * the monitoring view passes them, the CSRF header, no parameters), and with its triage store on a
 * PostgreSQL that goes down.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adoptChangeIds, inboxChangesOf } from '../../../src/lib/monitoring/change-id.ts';
import { untriagedCounts, type TriageEntry } from '../../../src/lib/monitoring/inbox.ts';
import type { MonitoringList } from '../../../src/lib/service/monitoring.ts';
import { fixture } from '../../../src/lib/service/fixtures.test-support.ts';
import { usePostgres } from '../sql/engines.test-support.ts';
import {
  answerJson,
  answersInARow,
  captureLog,
  CSRF,
  embeddedSandboxConfig,
  request,
  startFakeOrigin,
  startProxy,
  testConfig,
  type FakeOrigin,
  type OriginHandler,
  type RunningProxy,
} from '../helpers.test-support.ts';
import { newestChangeDaysOf } from '../../../src/lib/monitoring/change-freshness.ts';
import { MONITORING_BADGE_PATH, type MonitoringBadge } from './monitoring-badge.ts';
import { MONITORING_VIEW_PATH } from './monitoring-view.ts';

/** The query the SPA's badge sent to the monitoring view before this route existed. */
const OLD_BADGE_QUERY = 'page=1&pageSize=500&view_changes=true';

type Headers = Record<string, string>;

/** The badge's count the old way: the monitoring view's page, the triage lookup, `untriagedCounts`. */
async function oldWayCount(proxy: RunningProxy, headers: Headers = {}) {
  const view = await proxy.call(`${MONITORING_VIEW_PATH}?${OLD_BADGE_QUERY}`, { headers });
  expect(view.status, view.text).toBe(200);
  const { list, changeIds } = view.json as { list: MonitoringList; changeIds: string[][] };
  adoptChangeIds(list.profiles, changeIds);
  const changes = list.profiles.flatMap(inboxChangesOf);
  const profileIds = [...new Set(list.profiles.map((profile) => profile.profileId))];
  const lookup = await proxy.call('/api/local/triage/lookup', {
    method: 'POST',
    headers: { ...CSRF, ...headers },
    body: { profile_ids: profileIds },
  });
  expect(lookup.status, lookup.text).toBe(200);
  const { items } = lookup.json as { items: TriageEntry[] };
  const states = new Map(items.map((item) => [item.id, item]));
  const { total, ...counts } = untriagedCounts(changes, states);
  const untriaged = changes.filter((change) => !states.has(change.id));
  return { total, counts, profiles: list.profiles.length, untriaged, list };
}

async function badge(proxy: RunningProxy, headers: Headers = {}) {
  const answer = await proxy.call(MONITORING_BADGE_PATH, { headers });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get('cache-control')).toBe('private, no-store');
  return answer.json as MonitoringBadge;
}

describe('against the embedded sandbox, per user', () => {
  let proxy: RunningProxy;
  const asVal = { 'x-forwarded-user': 'val', 'x-forwarded-role': 'admin' };
  const asKim = { 'x-forwarded-user': 'kim', 'x-forwarded-role': 'admin' };

  beforeAll(async () => {
    proxy = await startProxy(
      embeddedSandboxConfig({
        auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
      }),
    );
    // move the seeded watchlist on, so its records hold changes of every channel
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

  it('counts what the browser counted from the monitoring view and the triage lookup', async () => {
    const old = await oldWayCount(proxy, asVal);
    expect(old.total).toBeGreaterThan(0);
    const answer = await badge(proxy, asVal);
    // the newest change per carrier, of those dated from the day before the read on
    const since = new Date(Date.parse(answer.fetchedAt) - 86_400_000).toISOString().slice(0, 10);
    const recent = [...newestChangeDaysOf(old.list.profiles)].filter(([, day]) => day >= since);
    expect(recent.length).toBeGreaterThan(0);
    expect(answer).toEqual({
      total: old.total,
      counts: old.counts,
      profiles: old.profiles,
      fetchedAt: expect.any(String),
      recentChanges: Object.fromEntries(recent),
    });
    expect(Date.parse(answer.fetchedAt)).not.toBeNaN();
    // its answer is small: a few hundred bytes besides one short pair per recently changed carrier
    expect(JSON.stringify(answer).length).toBeLessThan(400 + 30 * recent.length);
  });

  it('drops by one when a change is marked reviewed, for that user only', async () => {
    const [change] = (await oldWayCount(proxy, asVal)).untriaged;
    if (!change) throw new Error('no change to triage');
    const beforeVal = await badge(proxy, asVal);
    const beforeKim = await badge(proxy, asKim);
    expect(beforeKim.total).toBe(beforeVal.total);

    const put = await proxy.call('/api/local/triage', {
      method: 'PUT',
      headers: { ...CSRF, ...asVal },
      body: {
        items: [
          { id: change.id, profile_id: change.profileId, field: change.field, state: 'reviewed' },
        ],
      },
    });
    expect(put.status, put.text).toBe(200);

    const afterVal = await badge(proxy, asVal);
    expect(afterVal.total).toBe(beforeVal.total - 1);
    const channel = change.channel ?? 'other';
    expect(afterVal.counts[channel]).toBe(beforeVal.counts[channel] - 1);
    const afterOld = await oldWayCount(proxy, asVal);
    expect(afterVal).toMatchObject({ total: afterOld.total, counts: afterOld.counts });

    expect((await badge(proxy, asKim)).total).toBe(beforeKim.total);
  });
});

describe('GET /api/local/monitoring-badge against a fake origin', () => {
  let origin: FakeOrigin;
  let proxy: RunningProxy;

  beforeAll(async () => {
    origin = await startFakeOrigin((_req, res) => answerJson(res, 200, fixture('monitoring_list')));
    proxy = await startProxy(testConfig({ upstream: { baseUrl: origin.url, retryDelayMs: 1 } }));
  });
  afterAll(async () => {
    await proxy.close();
    await origin.close();
  });
  beforeEach(() => {
    origin.requests.length = 0;
  });

  async function spentUsd(): Promise<number> {
    const usage = await proxy.call('/api/local/usage');
    expect(usage.status, usage.text).toBe(200);
    return (usage.json as { spentUsd: number }).spentUsd;
  }

  it('makes one upstream call per request, the one the old badge made, and nothing is billed', async () => {
    const spent = await spentUsd();
    for (let n = 1; n <= 3; n += 1) {
      const answer = await badge(proxy);
      expect(answer.total).toBeGreaterThan(0);
      expect(origin.requests).toHaveLength(n);
    }
    await proxy.call(`${MONITORING_VIEW_PATH}?${OLD_BADGE_QUERY}`);
    expect(origin.requests).toHaveLength(4);
    expect(origin.requests[0]?.url).toBe(origin.requests[3]?.url);
    await proxy.app.proxy.governance.flush();
    expect(await spentUsd()).toBe(spent);
    // and the count is the old one for the live-shape page too
    const old = await oldWayCount(proxy);
    expect(await badge(proxy)).toMatchObject({ total: old.total, counts: old.counts });
  });

  it('refuses any parameter with a 400 {error, code, hint}, without calling the service', async () => {
    for (const query of ['page=2', 'pageSize=25', 'x', 'view_changes=true']) {
      const answer = await proxy.call(`${MONITORING_BADGE_PATH}?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.json, query).toEqual({
        error: expect.any(String),
        code: 'unknown_parameter',
        hint: expect.any(String),
      });
    }
    expect(origin.requests).toHaveLength(0);
  });

  it('needs the CSRF header, like the monitoring view: no header, no call', async () => {
    for (const path of [MONITORING_BADGE_PATH, `${MONITORING_VIEW_PATH}?page=1`]) {
      const bare = await fetch(`${proxy.url}${path}`);
      expect(bare.status, path).toBe(403);
      expect(await bare.json(), path).toMatchObject({ code: 'csrf', hint: expect.any(String) });
    }
    expect(origin.requests).toHaveLength(0);
  });
});

describe('a refusal of the service reaches the browser as the monitoring view sends it', () => {
  it('a 429 with its Retry-After, then the paused queue’s own 429', async () => {
    const handler: OriginHandler = (_req, res) =>
      answerJson(res, 429, { error: 'Slow down', code: 'rate_limited' }, { 'retry-after': '120' });
    const view = await answersInARow(handler, `${MONITORING_VIEW_PATH}?${OLD_BADGE_QUERY}`, 2);
    const answers = await answersInARow(handler, MONITORING_BADGE_PATH, 2);
    expect(answers[0]).toEqual({
      status: 429,
      json: { error: 'Slow down', code: 'rate_limited' },
      retryAfter: '120',
      upstreamCalls: 1,
    });
    expect(answers[1]).toMatchObject({ status: 429, upstreamCalls: 0 });
    expect(answers[1]?.json).toMatchObject({ code: 'rate_limited', hint: expect.any(String) });
    expect(answers.map((a) => ({ ...a, retryAfter: a.retryAfter !== null }))).toEqual(
      view.map((a) => ({ ...a, retryAfter: a.retryAfter !== null })),
    );
  });

  it('a 503, a 502 and a 400 of the service, as the view answers them', async () => {
    for (const status of [503, 502, 400]) {
      const handler: OriginHandler = (_req, res) =>
        answerJson(res, status, { error: `Failed ${status}`, code: `failed_${status}` });
      const view = await answersInARow(handler, `${MONITORING_VIEW_PATH}?${OLD_BADGE_QUERY}`, 1);
      const answers = await answersInARow(handler, MONITORING_BADGE_PATH, 1);
      expect(answers[0]?.status, String(status)).toBe(status);
      expect(answers, String(status)).toEqual(view);
    }
  });
});

describe('with the triage store on PostgreSQL', () => {
  const postgres = usePostgres();
  let origin: FakeOrigin | undefined;
  let proxy: RunningProxy | undefined;
  const log = captureLog();

  afterAll(async () => {
    await proxy?.close();
    await origin?.close();
  });

  it('counts from it, and answers 503 storage_unavailable (not a 500) once it is down', async () => {
    origin = await startFakeOrigin((_req, res) => answerJson(res, 200, fixture('monitoring_list')));
    const config = testConfig({
      upstream: { baseUrl: origin.url, retryDelayMs: 1 },
      databaseUrl: await postgres.freshDatabase(),
      logLevel: 'info',
    });
    proxy = await startProxy(config, { logStream: log });
    expect((await badge(proxy)).total).toBeGreaterThan(0);
    await postgres.stop();
    const answer = await proxy.call(MONITORING_BADGE_PATH);
    expect(answer.status, answer.text).toBe(503);
    expect(answer.json).toMatchObject({ code: 'storage_unavailable', hint: expect.any(String) });
    expect(log.lines.filter((line) => line.includes('unexpected error'))).toEqual([]);
  });
});
