/**
 * Alerts shared through PostgreSQL (DATABASE_URL): two proxies, each with its own DATA_DIR, on one
 * real PostgreSQL and one sandbox (behind a recording pass-through that counts the monitoring-list
 * calls), stand for two replicas behind a load balancer. Polls every second, so the poller lease
 * lasts 3 s (three intervals). Skipped, with the reason, only where PostgreSQL is not installed
 * (sql/engines.test-support.ts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Sender } from './sender.ts';
import type { ProxyConfig } from '../context.ts';
import { leaseHolder } from '../sql/lease.ts';
import { migratePostgres } from '../sql/migrate.ts';
import { createPostgresEngine } from '../sql/postgres.ts';
import { usePostgres } from '../sql/engines.test-support.ts';
import { useSandbox } from '../team/replicas.test-support.ts';
import {
  captureLog,
  CSRF,
  request,
  startProxy,
  testConfig,
  type RunningProxy,
} from '../helpers.test-support.ts';

const postgres = usePostgres();

const KEY = 'sk_test_alerts_replicas';
const SECRET = 'whsec_test_0123456789abcdef';
const LIST_PATH = '/v2/monitoring/list';
const POLLED = 'alerts: monitoring list polled';

/** the sandbox, behind a pass-through that records the calls */
const team = useSandbox({ apiKey: KEY, population: 50, recording: true });
const proxies: RunningProxy[] = [];

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
});

function config(databaseUrl: string, pollIntervalSeconds = 1): ProxyConfig {
  return testConfig({
    mode: 'test',
    upstream: {
      baseUrl: team.url,
      apiKey: KEY,
      legacy: false,
      timeoutMs: 5000,
      retryDelayMs: 20,
    },
    databaseUrl,
    logLevel: 'info',
    alerts: {
      pollIntervalSeconds,
      emailTo: [],
      // the team's webhook: every change, from whichever replica polls
      webhookUrl: 'http://127.0.0.1:9/team',
      webhookSecret: SECRET,
      webhookHosts: ['127.0.0.1'],
    },
  });
}

/** What the replicas' senders were handed: which replica sent which delivery. */
const sent: { replica: string; id: string; target: string }[] = [];

async function replica(name: string, databaseUrl: string) {
  const log = captureLog();
  const send: Sender = async (delivery) => {
    sent.push({ replica: name, id: delivery.id, target: delivery.target });
  };
  const proxy = await startProxy(config(databaseUrl), { logStream: log, alerts: { send } });
  proxies.push(proxy);
  return { proxy, polls: () => log.lines.filter((line) => line.includes(POLLED)).length };
}

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function advance(days: number) {
  const answer = await request(`${team.sandbox.url}/__sandbox/advance`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}` },
    body: { days },
  });
  expect(answer.status, answer.text).toBe(200);
}

const listCalls = () => team.front.callsTo(LIST_PATH).length;

/** Every delivery stored, and how often the senders were handed each. */
async function deliveries(proxy: RunningProxy) {
  const answer = await proxy.call('/api/local/alerts/deliveries');
  expect(answer.status, answer.text).toBe(200);
  const list = (answer.json as { deliveries: { id: string; state: string }[] }).deliveries;
  const times = (id: string) => sent.filter((s) => s.id === id).length;
  return { list, times };
}

describe('alerts shared by two proxies on one PostgreSQL', () => {
  it('shares subscriptions, polls on one replica, sends each alert once, and hands polling over', async () => {
    const databaseUrl = await postgres.freshDatabase();
    const a = await replica('a', databaseUrl);
    const b = await replica('b', databaseUrl);

    // a subscription made on A is listed on B
    const created = await a.proxy.call('/api/local/alerts/subscriptions', {
      method: 'POST',
      headers: CSRF,
      body: {
        kind: 'webhook',
        target: 'http://127.0.0.1:9/insurance',
        channels: ['insurance', 'fleet', 'authority', 'safety'],
        severity: 'all',
        schedule: 'immediate',
      },
    });
    expect(created.status, created.text).toBe(201);
    const onB = await b.proxy.call('/api/local/alerts');
    expect(onB.json).toMatchObject({
      subscriptions: [{ id: (created.json as { id: number }).id, kind: 'webhook' }],
    });

    // the first scheduled poll (5 s after start) records the baseline: A started first, A polls
    await until(async () => a.polls() + b.polls() > 0, 15_000, 'the baseline poll');
    expect(a.polls()).toBeGreaterThan(0);
    expect(b.polls()).toBe(0);
    const pollerOf = (proxy: RunningProxy) => {
      const poller = proxy.app.proxy.alerts?.poller;
      if (!poller) throw new Error('no alert poller');
      return poller;
    };
    expect(pollerOf(a.proxy).polling).toBe(true);
    expect(pollerOf(b.proxy).polling).toBe(false);

    // new changes: announced once, each delivery handed to exactly one sender
    await advance(6);
    await until(() => sent.length >= 2, 10_000, 'the first alerts');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(b.polls()).toBe(0);
    // every list call was one of A's polls (one page each; one may be in flight): B never called
    // the service
    expect(listCalls() - a.polls()).toBeGreaterThanOrEqual(0);
    expect(listCalls() - a.polls()).toBeLessThanOrEqual(1);
    const first = await deliveries(b.proxy);
    expect(first.list.length).toBeGreaterThanOrEqual(2);
    for (const d of first.list) {
      expect(d.state).toBe('delivered');
      expect(first.times(d.id)).toBe(1);
    }
    expect(sent).toHaveLength(first.list.length);
    expect(new Set(sent.map((s) => s.target))).toEqual(
      new Set(['http://127.0.0.1:9/team', 'http://127.0.0.1:9/insurance']),
    );

    // A stops and gives the lease up at once (else it would hold it for up to 3 s more): B polls
    // from then on, and alerts still go out once
    const holderA = pollerOf(a.proxy).holder;
    await a.proxy.close();
    proxies.splice(proxies.indexOf(a.proxy), 1);
    const sql = createPostgresEngine(databaseUrl);
    try {
      expect(await leaseHolder(sql, 'alerts-poller')).not.toBe(holderA);
    } finally {
      await sql.close();
    }
    await until(() => b.polls() > 0, 10_000, 'B taking polling over');
    await advance(6);
    await until(() => sent.length > first.list.length, 10_000, 'alerts polled by B');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const second = await deliveries(b.proxy);
    expect(second.list.length).toBeGreaterThan(first.list.length);
    for (const d of second.list) expect(second.times(d.id)).toBe(1);
    expect(sent).toHaveLength(second.list.length);
    // every list call was a poll of A (before it stopped) or of B (one may be in flight)
    expect(listCalls() - a.polls() - b.polls()).toBeGreaterThanOrEqual(0);
    expect(listCalls() - a.polls() - b.polls()).toBeLessThanOrEqual(1);
  }, 60_000);

  it('a replica that dies without giving the lease up holds polling only until the lease lapses', async () => {
    const databaseUrl = await postgres.freshDatabase();
    // a replica that died while it held the lease: its row stays until it lapses, 7 s from now
    // (after the new replica's first scheduled poll, 5 s after its start)
    const sql = createPostgresEngine(databaseUrl);
    const lapsesAt = Date.now() + 7000;
    try {
      await migratePostgres(sql.pool);
      await sql.run('INSERT INTO lease (name, holder, expires_ms) VALUES (?, ?, ?)', [
        'alerts-poller',
        'dead:1:00000000',
        lapsesAt,
      ]);
    } finally {
      await sql.close();
    }
    const c = await replica('c', databaseUrl);
    let firstPollAt = 0;
    await until(
      () => {
        if (c.polls() > 0 && firstPollAt === 0) firstPollAt = Date.now();
        return firstPollAt > 0;
      },
      15_000,
      'C polling once the dead lease lapsed',
    );
    expect(firstPollAt).toBeGreaterThanOrEqual(lapsesAt);
    // taken over within a heartbeat (a third of the lease) of the lapse
    expect(firstPollAt - lapsesAt).toBeLessThan(2500);
  }, 30_000);

  // Last: stops the server.
  it('PostgreSQL down: the alert routes answer 503 storage_unavailable, not 500', async () => {
    // the other replicas (polling every second) stop first: the engine's transactions do not yet
    // survive the server going away under them (see the report on sql/postgres.ts)
    for (const running of proxies.splice(0)) await running.close();
    const log = captureLog();
    const proxy = await startProxy(config(await postgres.freshDatabase(), 0), {
      logStream: log,
    });
    proxies.push(proxy);
    const test = await proxy.call('/api/local/alerts/test', {
      method: 'POST',
      headers: CSRF,
      body: {},
    });
    expect(test.status, test.text).toBe(202);
    const [id] = (test.json as { ids: string[] }).ids;
    await postgres.stop();

    const answers = [
      await proxy.call('/api/local/alerts'),
      await proxy.call('/api/local/alerts/deliveries'),
      await proxy.call('/api/local/alerts/subscriptions', {
        method: 'POST',
        headers: CSRF,
        body: {
          kind: 'webhook',
          target: 'http://127.0.0.1:9/x',
          channels: ['fleet'],
          severity: 'all',
          schedule: 'immediate',
        },
      }),
      await proxy.call('/api/local/alerts/subscriptions/1', {
        method: 'PUT',
        headers: CSRF,
        body: {
          kind: 'webhook',
          target: 'http://127.0.0.1:9/x',
          channels: ['fleet'],
          severity: 'all',
          schedule: 'immediate',
        },
      }),
      await proxy.call('/api/local/alerts/subscriptions/1/remove', {
        method: 'POST',
        headers: CSRF,
      }),
      await proxy.call(`/api/local/alerts/deliveries/${id ?? ''}/resend`, {
        method: 'POST',
        headers: CSRF,
      }),
      await proxy.call('/api/local/alerts/test', { method: 'POST', headers: CSRF, body: {} }),
      await proxy.call('/api/local/alerts/poll', { method: 'POST', headers: CSRF }),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.json).toMatchObject({ code: 'storage_unavailable' });
    }
    expect(log.lines.filter((line) => line.includes('unexpected error'))).toEqual([]);
  }, 30_000);
});
