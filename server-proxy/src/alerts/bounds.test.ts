/**
 * The flood, bounded (issue 31, item 4): one user asks for 300 webhook subscriptions, then
 * sends "send test" 100 times at once and once a minute for 100 minutes, to receivers that never
 * answer. Over a real proxy on loopback (SQLite), its clock driven by the test; the sender waits
 * on a gate, so every queued delivery stays waiting, as with receivers that are down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sender } from './sender.ts';
import { CSRF, startProxy, testConfig, type RunningProxy } from '../helpers.test-support.ts';

const SECRET = 'whsec_test_0123456789abcdef';
let clock = new Date('2026-11-29T08:00:00.000Z');
let release: () => void = () => undefined;
const gate = new Promise<void>((resolve) => {
  release = resolve;
});
let proxy: RunningProxy;

beforeAll(async () => {
  const send: Sender = async () => {
    await gate;
    throw new Error('receiver down');
  };
  proxy = await startProxy(
    testConfig({
      alerts: {
        pollIntervalSeconds: 0,
        emailTo: [],
        webhookSecret: SECRET,
        // an allow-listed name: saved without asking the DNS; nothing is sent (the gate)
        webhookHosts: ['hooks.example.com'],
      },
    }),
    { alerts: { send, now: () => clock } },
  );
});
afterAll(async () => {
  release();
  await proxy.close();
});

interface Overview {
  subscriptions: { id: number; deliveries_waiting: number; deliveries_not_queued: number }[];
  limits: Record<string, number>;
}

const subscribe = (n: number) =>
  proxy.call('/api/local/alerts/subscriptions', {
    method: 'POST',
    headers: CSRF,
    body: {
      kind: 'webhook',
      target: `https://hooks.example.com/in/${n}`,
      channels: ['fleet'],
      severity: 'all',
      schedule: 'immediate',
    },
  });

const sendTest = (body: object = {}) =>
  proxy.call('/api/local/alerts/test', { method: 'POST', headers: CSRF, body });

const overview = async () => (await proxy.call('/api/local/alerts')).json as Overview;

describe('bounded alerts', () => {
  it('300 subscriptions and 100 × "send test" end with at most 20 × 100 deliveries waiting', async () => {
    const statuses = new Map<number, number>();
    let refusal: unknown;
    for (let n = 0; n < 300; n += 1) {
      const answer = await subscribe(n);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status !== 201) refusal = answer.json;
    }
    expect(Object.fromEntries(statuses)).toEqual({ 201: 20, 409: 280 });
    expect(refusal).toMatchObject({
      code: 'too_many_subscriptions',
      error: expect.stringContaining('20 alert subscriptions') as unknown,
      hint: expect.stringContaining('ALERT_MAX_SUBSCRIPTIONS_PER_USER') as unknown,
    });
    const subs = (await overview()).subscriptions;
    expect(subs).toHaveLength(20);

    // 100 × "send test" at once: the first queues one per subscription, the rest wait a minute
    const burst = await Promise.all(Array.from({ length: 100 }, () => sendTest()));
    const accepted = burst.filter((a) => a.status === 202);
    expect(accepted).toHaveLength(1);
    expect(accepted[0]?.json).toMatchObject({ deliveries_queued: 20 });
    const tooSoon = burst.find((a) => a.status === 429);
    expect(burst.filter((a) => a.status === 429)).toHaveLength(99);
    expect(tooSoon?.headers.get('retry-after')).toBe('60');
    expect(tooSoon?.json).toMatchObject({
      code: 'test_too_soon',
      hint: expect.any(String) as unknown,
    });
    const one = await sendTest({ subscription_id: subs[0]?.id });
    expect(one.status).toBe(429);
    clock = new Date(clock.getTime() + 30_000);
    expect((await sendTest({ subscription_id: subs[0]?.id })).headers.get('retry-after')).toBe(
      '30',
    );

    // then once a minute for 100 minutes: each subscription stops at the cap of 100 waiting
    let lastRound: unknown;
    for (let round = 0; round < 100; round += 1) {
      clock = new Date(clock.getTime() + 61_000);
      const answer = await sendTest();
      lastRound = { status: answer.status, body: answer.json };
    }
    expect(lastRound).toMatchObject({
      status: 409,
      body: { code: 'too_many_pending', hint: expect.any(String) as unknown },
    });
    const after = await overview();
    const waiting = after.subscriptions.reduce((sum, s) => sum + s.deliveries_waiting, 0);
    expect(after.subscriptions.every((s) => s.deliveries_waiting === 100)).toBe(true);
    expect(waiting).toBe(2_000);
    expect(after.limits).toEqual({
      subscriptions_per_user: 20,
      waiting_per_subscription: 100,
      test_interval_seconds: 60,
    });
    // the bench line of the report: what remains pending after the flood
    console.info(
      `bounded alerts: 300 subscriptions asked → ${subs.length} stored; 101 rounds of "send test" → ${waiting} deliveries waiting`,
    );
  }, 60_000);
});
