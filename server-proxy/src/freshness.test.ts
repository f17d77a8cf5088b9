/**
 * Freshness follows monitoring (issue 29, item 1; docs/proxy.md "Freshness after a change"), over
 * real HTTP: a proxy in front of a sandbox, with a recording pass-through between them that sees
 * every call the service receives. The sandbox moves on six days (4418207's common authority is
 * revoked); once a monitoring list answer reports it, through any of the four ways the proxy reads
 * the list, the held profile is read anew on its next read, once for every concurrent reader, and
 * the answers say after which change. The same again with two replicas sharing one Redis.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildSandboxApp, type SandboxApp } from './sandbox/index.ts';
import type { ProxyConfig } from './context.ts';
import {
  makeTempDir,
  request,
  startProxy,
  testConfig,
  type CallResult,
  type RunningProxy,
} from './helpers.test-support.ts';
import { recordingFront, type RecordingFront } from './team/two-proxies.test-support.ts';
import { beforeFirstTest, useRedis } from './team/replicas.test-support.ts';
import { rmSync } from 'node:fs';

const KEY = 'sk_test_freshness';
const DOT = '4418207';
const CSRF = { 'x-requested-with': 'carrier-desk' };

interface Verdict {
  verdict: string;
  fetched_at: string;
  refreshed_after_change: string | null;
}

interface Usage {
  spentUsd: number;
  byEndpoint: { endpoint: string; billedUnits: number }[];
}

interface Running {
  sandbox: SandboxApp;
  front: RecordingFront;
  dir: string;
  close(): Promise<void>;
}

async function startUpstream(): Promise<Running> {
  const dir = makeTempDir();
  const sandbox = await buildSandboxApp({ dataDir: dir, apiKeys: [KEY], population: 300 });
  await sandbox.listen({ host: '127.0.0.1', port: 0 });
  const port = (sandbox.server.address() as AddressInfo).port;
  const front = await recordingFront(`http://127.0.0.1:${port}`, 50);
  return {
    sandbox,
    front,
    dir,
    async close() {
      await front.close();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function proxyConfig(front: RecordingFront, extra: Partial<ProxyConfig> = {}): ProxyConfig {
  return testConfig({
    mode: 'test',
    upstream: { baseUrl: front.url, apiKey: KEY, legacy: false, timeoutMs: 5000 },
    alerts: { pollIntervalSeconds: 0, emailTo: [], webhookHosts: [] },
    ...extra,
  });
}

/** Move the sandbox on `days` days (its scripted events run for the watched carriers). */
async function advance(upstream: Running, days: number) {
  const url = `${upstream.front.url}/__sandbox/advance`;
  const answer = await request(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}` },
    body: { days },
  });
  expect(answer.status, answer.text).toBe(200);
}

async function verdict(proxy: RunningProxy): Promise<{ answer: CallResult; body: Verdict }> {
  const answer = await proxy.call(`/api/local/verdict?dot_number=${DOT}`);
  expect(answer.status, answer.text).toBe(200);
  return { answer, body: answer.json as Verdict };
}

function authorityOf(answer: CallResult): unknown {
  const body = answer.json as { items?: Record<string, unknown>[] } & Record<string, unknown>;
  const item = Array.isArray(body.items) ? body.items[0] : body;
  return item?.authority_common;
}

/** The four ways a monitoring list answer passes through the proxy. */
const LIST_READS: [string, (proxy: RunningProxy) => Promise<CallResult>][] = [
  ['the mirrored list', (proxy) => proxy.call('/api/v2/monitoring/list?view_changes=true')],
  ['the inbox view', (proxy) => proxy.call('/api/local/monitoring-view?page=1&pageSize=100')],
  ['the navigation badge', (proxy) => proxy.call('/api/local/monitoring-badge')],
  [
    'the alert poll',
    (proxy) => proxy.call('/api/local/alerts/poll', { method: 'POST', headers: CSRF }),
  ],
];

describe('a held profile is read anew after the monitoring list reports a change', () => {
  let upstream: Running;
  let proxy: RunningProxy;
  const profileCalls = () => upstream.front.callsTo('/v2/profile').length;

  afterEach(async () => {
    await proxy?.close();
    await upstream?.close();
  });

  it.each(LIST_READS)('reported through %s', async (_name, readList) => {
    upstream = await startUpstream();
    proxy = await startProxy(proxyConfig(upstream.front));
    // the alert poll's first run only records a baseline: run it before the change
    await readList(proxy);

    const before = await verdict(proxy);
    expect(before.answer.headers.get('x-cache')).toBe('miss');
    expect(before.body.verdict).not.toBe('fail');
    expect(before.body.refreshed_after_change).toBeNull();
    expect((await verdict(proxy)).answer.headers.get('x-cache')).toBe('hit');
    expect(profileCalls()).toBe(1);
    const spentBefore = await proxy.call('/api/local/usage');

    await advance(upstream, 6);
    // the proxy has not read the list since: it still serves what it holds
    expect((await verdict(proxy)).answer.headers.get('x-cache')).toBe('hit');
    expect(profileCalls()).toBe(1);

    const listed = await readList(proxy);
    expect(listed.status, listed.text).toBe(200);
    expect(profileCalls()).toBe(1); // marking fetches nothing

    // five readers at once share one refetch, and all see the revoked authority
    const after = await Promise.all(Array.from({ length: 5 }, () => verdict(proxy)));
    expect(profileCalls()).toBe(2);
    for (const { body } of after) {
      expect(body.verdict).toBe('fail');
      expect(body.refreshed_after_change).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Date.parse(body.fetched_at)).toBeGreaterThan(Date.parse(before.body.fetched_at));
    }
    const day = after[0]?.body.refreshed_after_change ?? '';
    // the change dated after the first fetch (the sandbox's clock is six days on)
    expect(day > before.body.fetched_at.slice(0, 10)).toBe(true);

    // the other views of the profile read the new answer and say why it was fetched
    const profile = await proxy.call(`/api/v2/profile?dot_number=${DOT}`);
    expect(profile.headers.get('x-cache')).toBe('hit');
    expect(profile.headers.get('x-refreshed-after-change')).toBe(day);
    expect(authorityOf(profile)).toBe('Inactive');
    const summary = await proxy.call(`/api/local/profile-summary?dot_number=${DOT}`);
    expect(summary.headers.get('x-refreshed-after-change')).toBe(day);
    expect(authorityOf(summary)).toBe('Inactive');

    // the same list read again: the new answer already holds that change, nothing is fetched
    await readList(proxy);
    const again = await verdict(proxy);
    expect(again.answer.headers.get('x-cache')).toBe('hit');
    expect(again.body.refreshed_after_change).toBe(day);
    expect(profileCalls()).toBe(2);

    // a second fetch of the DOT in the month is not billed again (the proxy's spend meter; the
    // sandbox's own ledger bills it in its clock's month, six days on: December here)
    const spentAfter = (await proxy.call('/api/local/usage')).json as Usage;
    expect(spentAfter.spentUsd).toBe((spentBefore.json as Usage).spentUsd);
    expect(spentAfter.byEndpoint.find((line) => line.endpoint === 'profile')?.billedUnits).toBe(1);
  });

  it('a decision recorded after the change records the new data, fetched anew once', async () => {
    upstream = await startUpstream();
    proxy = await startProxy(proxyConfig(upstream.front));
    expect((await verdict(proxy)).body.verdict).not.toBe('fail');
    await advance(upstream, 6);
    await proxy.call('/api/local/monitoring-badge');
    const recorded = await proxy.call('/api/local/decisions', {
      method: 'POST',
      headers: CSRF,
      body: { dot_number: DOT, decision: 'rejected', note: 'authority revoked' },
    });
    expect(recorded.status, recorded.text).toBe(201);
    const record = recorded.json as {
      verdict: { verdict: string };
      profile: { fetched_at: string };
    };
    expect(record.verdict.verdict).toBe('fail');
    expect(profileCalls()).toBe(2);
  });

  it('the refetch takes its turn in the rate limit like any call (queued, never past it)', async () => {
    upstream = await startUpstream();
    const limits = {
      profile: 2,
      'profile-lite': 30,
      'profile-fmcsa': 10,
      autocomplete: 2000,
      'monitoring/add': 60,
      'monitoring/remove': 60,
      'monitoring/list': 120,
    };
    proxy = await startProxy(
      proxyConfig(upstream.front, { rateLimits: limits, maxQueueWaitMs: 1000 }),
    );
    await verdict(proxy);
    await advance(upstream, 6);
    await proxy.call('/api/local/monitoring-badge');
    expect((await verdict(proxy)).body.verdict).toBe('fail');
    expect(profileCalls()).toBe(2);
    // the minute's two profile calls are spent: a third carrier waits past the bound, refused
    const third = await proxy.call('/api/v2/profile?dot_number=568253');
    expect(third.status).toBe(429);
    expect(third.json).toMatchObject({ code: 'rate_limited' });
    expect(profileCalls()).toBe(2);
  });

  it('a profile read with only-if-cached gets the held copy, marked as outdated', async () => {
    upstream = await startUpstream();
    proxy = await startProxy(proxyConfig(upstream.front));
    await verdict(proxy);
    await advance(upstream, 6);
    await proxy.call('/api/local/monitoring-badge');
    const held = await proxy.call(`/api/v2/profile?dot_number=${DOT}`, {
      headers: { 'cache-control': 'only-if-cached' },
    });
    expect(held.status).toBe(200);
    expect(authorityOf(held)).toBe('Active');
    expect(held.headers.get('x-stale-after-change')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(profileCalls()).toBe(1);
  });
});

describe('two replicas sharing one Redis', () => {
  const redis = useRedis();
  let upstream: Running;
  const replicas: RunningProxy[] = [];
  const profileCalls = () => upstream.front.callsTo('/v2/profile').length;

  // in the first test's hooks, after the skip where Redis is missing
  beforeFirstTest(async () => {
    upstream = await startUpstream();
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await upstream?.close();
  });

  it('a change one replica reads makes the other read its held copy anew too', async () => {
    const config = () => proxyConfig(upstream.front, { redisUrl: redis.url });
    const a = await startProxy(config());
    const b = await startProxy(config());
    replicas.push(a, b);

    expect((await verdict(a)).body.verdict).not.toBe('fail');
    const onB = await verdict(b); // the shared answer, now held by B too
    expect(onB.body.verdict).not.toBe('fail');
    expect(profileCalls()).toBe(1);
    expect((await verdict(b)).answer.headers.get('x-cache')).toBe('hit');

    await advance(upstream, 6);
    // only A reads the list (its badge)
    expect((await a.call('/api/local/monitoring-badge')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the report reaches B (pub/sub)

    // B's readers share one refetch, B's summary too; A then takes B's new answer from Redis
    const onBAfter = await Promise.all([verdict(b), verdict(b), verdict(b)]);
    for (const { body } of onBAfter) expect(body.verdict).toBe('fail');
    expect(profileCalls()).toBe(2);
    const summaryB = await b.call(`/api/local/profile-summary?dot_number=${DOT}`);
    expect(authorityOf(summaryB)).toBe('Inactive');
    const onA = await verdict(a);
    expect(onA.body.verdict).toBe('fail');
    expect(onA.body.refreshed_after_change).toBe(onBAfter[0]?.body.refreshed_after_change);
    expect(profileCalls()).toBe(2);
  });
});
