/**
 * The alert store's bounds on both engines (SQLite and PostgreSQL, sql/engines.test-support.ts;
 * issue 31, item 4): subscriptions per user, the cap on deliveries waiting per subscription (kept
 * where deliveries are queued, so the poller's deliveries are bounded too, with a count of those
 * left out), one "send test" turn a minute per destination, and each bound held under concurrent
 * requests.
 */
import { expect, it } from 'vitest';
import { forEachEngine } from '../sql/engines.test-support.ts';
import {
  MAX_PENDING_PER_SUBSCRIPTION,
  createAlertStore,
  type AlertStore,
  type AlertStoreOptions,
  type NewDelivery,
  type SeenChange,
  type SubscriptionInput,
} from './store.ts';

const T0 = new Date('2026-11-29T08:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const WEBHOOK: SubscriptionInput = {
  kind: 'webhook',
  target: 'https://hooks.example.com/in',
  channels: ['insurance'],
  severity: 'all',
  schedule: 'immediate',
  digest_time: null,
  time_zone: null,
};

function test(subscriptionId: number | null): NewDelivery {
  return {
    subscription_id: subscriptionId,
    source: subscriptionId === null ? 'env' : 'test',
    kind: 'webhook',
    target: 'https://hooks.example.com/in',
    payload: { type: 'test', carriers: [] },
  };
}

function change(n: number): SeenChange {
  return {
    id: `c1-bounds-${String(n).padStart(6, '0')}`,
    profileId: '568253-MC277621',
    dot: '568253',
    field: 'total_power_units',
    channel: 'fleet',
    date: '2026-11-29',
    prior: n,
    current: n + 1,
    impact: null,
  };
}

forEachEngine('alert bounds', (engine) => {
  const withStore = (fn: (store: AlertStore) => Promise<void>, options: AlertStoreOptions = {}) =>
    fn(createAlertStore(engine.sql, undefined, options));

  it('adds subscriptions up to the limit per user, also when 30 requests come at once', () =>
    withStore(async (store) => {
      const tries = await Promise.all(
        Array.from({ length: 30 }, (_, i) => store.addSubscription('mallory', WEBHOOK, at(i), 20)),
      );
      expect(tries.filter((t) => 'subscription' in t)).toHaveLength(20);
      expect(tries.filter((t) => 'refused' in t)).toHaveLength(10);
      expect(await store.countSubscriptions('mallory')).toBe(20);
      // another user is not held by mallory's count
      expect(await store.addSubscription('alice', WEBHOOK, at(40), 20)).toHaveProperty(
        'subscription',
      );
      // a removed one makes room again
      const [first] = await store.subscriptions('mallory');
      await store.deleteSubscription(first?.id ?? 0);
      expect(await store.addSubscription('mallory', WEBHOOK, at(41), 20)).toHaveProperty(
        'subscription',
      );
      expect(await store.addSubscription('mallory', WEBHOOK, at(42), 20)).toEqual({
        refused: { count: 20 },
      });
      // an administrator's view: every subscription of every user
      expect((await store.allSubscriptions()).map((s) => s.user).sort()).toEqual(
        ['alice', ...Array<string>(20).fill('mallory')].sort(),
      );
    }));

  it('queues no delivery past the cap of waiting deliveries per subscription, and counts those left out', async () => {
    const told: [number, number][] = [];
    await withStore(
      async (store) => {
        const sub = await store.createSubscription('alice', WEBHOOK, at(0));
        const other = await store.createSubscription('bob', WEBHOOK, at(0));
        const first = await store.enqueue(
          Array.from({ length: 4 }, () => test(sub.id)),
          at(1),
        );
        expect(first).toHaveLength(3);
        // the team's deliveries (no subscription) and another subscription's are not held
        const mixed = await store.enqueue([test(sub.id), test(null), test(other.id)], at(2));
        expect(mixed).toHaveLength(2);
        // the poller's deliveries go through the same bound
        await store.recordPoll([], at(3), () => []);
        const polled = await store.recordPoll([change(1), change(2)], at(4), (announced, subs) =>
          announced.flatMap(() => subs.map((s) => test(s.id))),
        );
        expect(polled.ids).toHaveLength(2); // bob's two; alice's two left out
        expect(await store.deliveryCounts([sub.id, other.id])).toEqual(
          new Map([
            [sub.id, { waiting: 3, notQueued: 4 }],
            [other.id, { waiting: 3, notQueued: 0 }],
          ]),
        );
        expect(told).toEqual([
          [sub.id, 1],
          [sub.id, 1],
          [sub.id, 2],
        ]);
        // one delivered (claimed, then delivered) makes room for one
        const claimed = await store.claimDue(at(5));
        expect(claimed).toBeDefined();
        await store.delivered(claimed?.seq ?? 0, at(5));
        const waitingOfClaimed = claimed?.subscription_id === sub.id ? 1 : 0;
        expect(await store.enqueue([test(sub.id), test(sub.id)], at(6))).toHaveLength(
          waitingOfClaimed,
        );
      },
      { maxPendingPerSubscription: 3, onNotQueued: (id, count) => told.push([id, count]) },
    );
  });

  it(`keeps the default cap (${MAX_PENDING_PER_SUBSCRIPTION}) under concurrent queueing`, () =>
    withStore(async (store) => {
      const sub = await store.createSubscription('alice', WEBHOOK, at(0));
      const batches = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          store.enqueue(
            Array.from({ length: 10 }, () => test(sub.id)),
            at(i),
          ),
        ),
      );
      expect(batches.flat()).toHaveLength(MAX_PENDING_PER_SUBSCRIPTION);
      expect(await store.deliveryCounts([sub.id])).toEqual(
        new Map([[sub.id, { waiting: MAX_PENDING_PER_SUBSCRIPTION, notQueued: 20 }]]),
      );
    }));

  it('gives one "send test" turn a minute per destination, to exactly one of many requests at once', () =>
    withStore(async (store) => {
      const turns = await Promise.all(
        Array.from({ length: 10 }, () => store.takeTestTurn(7, at(0), 60_000)),
      );
      expect(turns.filter((t) => t.granted)).toHaveLength(1);
      expect(await store.takeTestTurn(7, at(20), 60_000)).toEqual({
        granted: false,
        retryAfterMs: 40_000,
      });
      // another destination has its own turn; the team destinations share one
      expect(await store.takeTestTurn(8, at(20), 60_000)).toEqual({ granted: true });
      expect(await store.takeTestTurn('team', at(20), 60_000)).toEqual({ granted: true });
      expect(await store.takeTestTurn('team', at(21), 60_000)).toMatchObject({ granted: false });
      expect(await store.takeTestTurn(7, at(60), 60_000)).toEqual({ granted: true });
    }));
});
