/**
 * The alert store on both engines (SQLite and PostgreSQL, sql/engines.test-support.ts): subscriptions,
 * polls that announce each change once however many run together, deliveries claimed by exactly
 * one sender, claims handed over only once they run out, and digests queued once.
 */
import { expect, it } from 'vitest';
import type { SqlEngine } from '../sql/engine.ts';
import { forEachEngine } from '../sql/engines.test-support.ts';
import {
  CLAIM_TIMEOUT_MS,
  createAlertStore,
  type AlertStore,
  type NewDelivery,
  type SeenChange,
  type SubscriptionInput,
} from './store.ts';

const T0 = new Date('2026-11-26T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

const WEBHOOK: SubscriptionInput = {
  kind: 'webhook',
  target: 'https://hooks.example.com/in',
  channels: ['insurance', 'fleet'],
  severity: 'all',
  schedule: 'immediate',
  digest_time: null,
  time_zone: null,
};

function change(n: number, profile = '568253-MC277621'): SeenChange {
  return {
    id: `c1-${String(n).padStart(14, '0')}`,
    profileId: profile,
    dot: profile.split('-')[0] ?? '',
    field: 'indicator_insurance',
    channel: 'insurance',
    date: '2026-11-26',
    prior: { limit: 750000 },
    current: null,
    impact: n % 2 === 0 ? 'fails' : null,
  };
}

function delivery(target: string): NewDelivery {
  return {
    subscription_id: null,
    source: 'env',
    kind: 'webhook',
    target,
    payload: { type: 'test', carriers: [] },
  };
}

/** One delivery per announced change, so a test can count what each poll queued. */
const perChange = (announced: readonly SeenChange[]) =>
  announced.map((c) => delivery(`https://hooks.example.com/${c.id}`));

forEachEngine('the alert store', (engine) => {
  const withStore = (fn: (store: AlertStore, sql: SqlEngine) => Promise<void>) =>
    fn(createAlertStore(engine.sql), engine.sql);

  it('keeps subscriptions per user, with numeric ids, and updates and removes them', () =>
    withStore(async (store) => {
      const a = await store.createSubscription('alice', WEBHOOK, T0);
      const b = await store.createSubscription(
        'bob',
        { ...WEBHOOK, schedule: 'daily', digest_time: '08:00', time_zone: 'America/Chicago' },
        at(1),
      );
      expect(a).toMatchObject({
        user: 'alice',
        channels: ['insurance', 'fleet'],
        last_digest_at: T0.toISOString(),
      });
      expect(typeof a.id).toBe('number');
      expect(b.id).toBeGreaterThan(a.id);
      expect((await store.subscriptions('alice')).map((s) => s.id)).toEqual([a.id]);
      expect((await store.subscriptions()).map((s) => s.user)).toEqual(['alice', 'bob']);

      const updated = await store.updateSubscription(
        a.id,
        { ...WEBHOOK, channels: ['fleet'], severity: 'fails' },
        at(2),
      );
      expect(updated).toMatchObject({
        id: a.id,
        channels: ['fleet'],
        severity: 'fails',
        updated_at: at(2).toISOString(),
      });
      expect(await store.updateSubscription(999_999, WEBHOOK, at(2))).toBeUndefined();
      expect(await store.deleteSubscription(a.id)).toBe(true);
      expect(await store.deleteSubscription(a.id)).toBe(false);
      expect(await store.subscription(a.id)).toBeUndefined();
      expect(await store.subscription(b.id)).toMatchObject({ time_zone: 'America/Chicago' });
    }));

  it('records the first poll as the baseline, then announces each new change once', () =>
    withStore(async (store) => {
      const first = await store.recordPoll([change(1), change(2)], at(0), perChange);
      expect(first).toMatchObject({ baseline: true, ids: [] });
      expect(first.recorded.map((c) => c.id)).toEqual([change(1).id, change(2).id]);
      expect(await store.state.get('baseline_done')).toBe('true');
      expect(await store.unseen([change(1), change(3)])).toEqual([change(3)]);

      const subscriptionsSeen: number[] = [];
      await store.createSubscription('alice', WEBHOOK, at(0));
      const second = await store.recordPoll([change(2), change(3)], at(1), (announced, subs) => {
        subscriptionsSeen.push(subs.length);
        return perChange(announced);
      });
      expect(second.baseline).toBe(false);
      expect(second.recorded.map((c) => c.id)).toEqual([change(3).id]);
      expect(second.ids).toHaveLength(1);
      expect(subscriptionsSeen).toEqual([1]);
      expect(await store.state.get('last_poll_at')).toBe(at(1).toISOString());

      // only announced changes are in a digest's window, in order, with their values
      const between = await store.seenBetween(at(0).toISOString(), at(5).toISOString());
      expect(between).toEqual([change(3)]);
      expect(await store.seenBetween(at(1).toISOString(), at(5).toISOString())).toEqual([]);
    }));

  it('announces a change once when several polls record it at the same moment', () =>
    withStore(async (store) => {
      await store.recordPoll([], at(0), perChange);
      const fresh = Array.from({ length: 30 }, (_, i) => change(i + 1));
      // six polls (replicas, or "Poll now" beside the schedule) that all read the list as new
      const polls = await Promise.all(
        Array.from({ length: 6 }, (_, i) => store.recordPoll(fresh, at(1 + i / 10), perChange)),
      );
      const announced = polls.flatMap((p) => p.recorded.map((c) => c.id));
      expect(announced.sort()).toEqual(fresh.map((c) => c.id).sort());
      expect(polls.flatMap((p) => p.ids)).toHaveLength(30);
      expect(await store.deliveries(100)).toHaveLength(30);
    }));

  it('lets exactly one of many racing senders claim each due delivery', () =>
    withStore(async (store) => {
      const ids = await store.enqueue(
        Array.from({ length: 8 }, (_, i) => delivery(`https://hooks.example.com/${i}`)),
        at(0),
      );
      const claimed: string[] = [];
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          for (;;) {
            const got = await store.claimDue(at(1));
            if (!got) return;
            expect(got).toMatchObject({ state: 'sending', attempts: 1 });
            claimed.push(got.id);
          }
        }),
      );
      expect(claimed.sort()).toEqual([...ids].sort());
      expect(await store.claimDue(at(2))).toBeUndefined();
      const listed = await store.deliveries();
      expect(listed.every((d) => d.state === 'sending' && d.attempts === 1)).toBe(true);
      expect(typeof listed[0]?.seq).toBe('number');
    }));

  it('hands a claim over only once it has run out, unless this process owns the database', () =>
    withStore(async (store) => {
      const [id] = await store.enqueue([delivery('https://hooks.example.com/a')], at(0));
      const claim = await store.claimDue(at(1));
      expect(claim?.id).toBe(id);
      // the outbox wakes for the claim's deadline
      expect(await store.nextDueAt()).toBe(
        new Date(at(1).getTime() + CLAIM_TIMEOUT_MS).toISOString(),
      );
      // another replica, while the sender may still be at work: left alone
      expect(await store.recoverSending(at(2), false)).toBe(0);
      expect(await store.claimDue(at(2))).toBeUndefined();
      // the claim ran out (its process died): due again, and claimed again with one more attempt
      const later = new Date(at(1).getTime() + CLAIM_TIMEOUT_MS + 1000);
      expect(await store.recoverSending(later, false)).toBe(1);
      const again = await store.claimDue(later);
      expect(again).toMatchObject({ id, attempts: 2 });
      // a process that owns the database takes every `sending` over at start
      expect(await store.recoverSending(later, true)).toBe(1);
      await store.claimDue(later);
      await store.delivered(Number(again?.seq), later);
      expect(await store.delivery(id ?? '')).toMatchObject({ state: 'delivered', attempts: 3 });
      expect(await store.recoverSending(later, true)).toBe(0);
    }));

  it('retries a failed attempt, gives up after a day, and sends again with the same id', () =>
    withStore(async (store) => {
      const [id] = await store.enqueue([delivery('https://hooks.example.com/a')], at(0));
      const claim = await store.claimDue(at(0));
      const seq = Number(claim?.seq);
      expect(await store.attemptFailed(seq, 'HTTP 503', at(1))).toBe('pending');
      expect(await store.claimDue(at(0))).toBeUndefined();
      expect(await store.nextDueAt()).toBe(at(1).toISOString());
      await store.claimDue(at(1));
      expect(await store.attemptFailed(seq, 'HTTP 503', at(25 * 60))).toBe('failed');
      const resent = await store.resend(id ?? '', at(26 * 60));
      expect(resent).toMatchObject({ id, state: 'pending', last_error: 'HTTP 503', attempts: 2 });
    }));

  it('queues a daily digest once, even when two processes check at the same moment', () =>
    withStore(async (store) => {
      const sub = await store.createSubscription(
        'alice',
        { ...WEBHOOK, schedule: 'daily', digest_time: '08:00', time_zone: 'UTC' },
        at(0),
      );
      const queued = await Promise.all([
        store.enqueueDigest(
          sub.id,
          sub.last_digest_at,
          [delivery('https://h.example.com/1')],
          at(5),
        ),
        store.enqueueDigest(
          sub.id,
          sub.last_digest_at,
          [delivery('https://h.example.com/2')],
          at(5),
        ),
      ]);
      expect(queued.map((ids) => ids.length).sort()).toEqual([0, 1]);
      expect(await store.deliveries()).toHaveLength(1);
      expect((await store.subscription(sub.id))?.last_digest_at).toBe(at(5).toISOString());
    }));

  it('gives the poller lease to one process at a time', () =>
    withStore(async (store) => {
      expect(await store.pollerLease.acquire('a', 10_000, 1000)).toBe(true);
      expect(await store.pollerLease.acquire('b', 10_000, 2000)).toBe(false);
      await store.pollerLease.release('a');
      expect(await store.pollerLease.acquire('b', 10_000, 3000)).toBe(true);
    }));
});
