/**
 * The alerts' tables: change ids the poller has seen, subscriptions, the outbox of deliveries and
 * the poller's state. Written once over SqlEngine: the proxy's SQLite file by default (migration 6
 * in db.ts), PostgreSQL with DATABASE_URL (migration 7, postgres-schema.ts), so every replica
 * shares them.
 *
 * A poll's new changes and the deliveries they cause are written in one transaction, and a change
 * is announced only by the poll whose insert of it wins: two polls at once (two replicas, or a
 * "Poll now" beside the schedule) never announce a change twice. A delivery is sent by the process
 * that claims it (pending → sending, one conditional UPDATE), so replicas share the outbox without
 * sending anything twice; a claim carries a deadline, after which a claim whose process died is
 * handed to another.
 *
 * The SQL and its row mapping are in store-queries.ts; the shapes and the decisions (the
 * per-subscription bound, give-up times, the "send test" turn) in store-rules.ts; this file
 * composes them, in four parts: polls, subscriptions, the outbox and standing announcements.
 */
import type { SqlEngine, SqlExecutor } from '../sql/engine.ts';
import { acquireLease, releaseLease } from '../sql/lease.ts';
import * as q from './store-queries.ts';
import {
  MAX_PENDING_PER_SUBSCRIPTION,
  admitDeliveries,
  stateAfterFailure,
  subscriptionIdsOf,
  testRetryAfterMs,
  type Delivery,
  type DeliveryState,
  type NewDelivery,
  type SeenChange,
  type StandingChangeRow,
  type Subscription,
  type SubscriptionInput,
} from './store-rules.ts';

export { MAX_PENDING_PER_SUBSCRIPTION } from './store-rules.ts';
export type {
  AlertPayload,
  CarrierSection,
  Delivery,
  NewDelivery,
  RevetNotice,
  SeenChange,
  Severity,
  StandingChangeRow,
  StandingNotice,
  Subscription,
  SubscriptionInput,
} from './store-rules.ts';

/**
 * How long a claimed delivery stays `sending` before another process may take it over (its
 * sender died): well past the longest attempt (a webhook times out after 10 s).
 */
export const CLAIM_TIMEOUT_MS = 2 * 60_000;
/** The lease under which one process polls the monitoring list and queues digests. */
const POLLER_LEASE = 'alerts-poller';

/** The bounds a store keeps, and who hears of a delivery that was not queued. */
export interface AlertStoreOptions {
  /** default MAX_PENDING_PER_SUBSCRIPTION */
  maxPendingPerSubscription?: number;
  /** deliveries of `subscriptionId` left out because it had the most waiting already */
  onNotQueued?: (subscriptionId: number, count: number) => void;
}

/** What a poll recorded. */
interface RecordedPoll {
  /** true on the first poll of a new database: its changes were recorded as seen, not announced */
  baseline: boolean;
  /** the changes this poll recorded first (another poll may have recorded some of `fresh`) */
  recorded: SeenChange[];
  /** the ids of the deliveries queued */
  ids: string[];
}

/** The deliveries of a poll's newly announced changes, for the subscriptions there are now. */
type DeliveryPlan = (
  announced: readonly SeenChange[],
  subscriptions: readonly Subscription[],
) => NewDelivery[];

/** Runs a store's write: on SQLite through the proxy file's Storage guard (sql/write-guard.ts). */
export type WriteGuard = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * Queue `list`, each subscription's deliveries only while it has fewer than `options`' maximum
 * waiting. Each subscription's row is locked first (ascending ids, so two writers never deadlock):
 * on PostgreSQL two transactions queueing for one subscription count in turn.
 */
async function enqueueAll(
  on: SqlExecutor,
  list: readonly NewDelivery[],
  at: Date,
  options: AlertStoreOptions = {},
): Promise<string[]> {
  const max = options.maxPendingPerSubscription ?? MAX_PENDING_PER_SUBSCRIPTION;
  const subscriptionIds = subscriptionIdsOf(list);
  await q.lockSubscriptions(on, subscriptionIds);
  const waiting = await q.waitingOf(on, subscriptionIds);
  const { admitted, notQueued } = admitDeliveries(list, waiting, max);
  const ids: string[] = [];
  for (const delivery of admitted) ids.push(await q.insertDelivery(on, delivery, at));
  for (const [sub, count] of notQueued) {
    await q.addNotQueued(on, sub, count);
    options.onNotQueued?.(sub, count);
  }
  return ids;
}

/** What every part of the store works with. */
interface Parts {
  sql: SqlEngine;
  write: WriteGuard;
  options: AlertStoreOptions;
}

/** The poller's side: changes seen, polls recorded, digests queued. */
function pollPart({ sql, write, options }: Parts) {
  return {
    /** The changes of `changes` not seen before. */
    async unseen(changes: readonly SeenChange[]): Promise<SeenChange[]> {
      const seen = await q.seenIds(
        sql,
        changes.map((change) => change.id),
      );
      return changes.filter((change) => !seen.has(change.id));
    },

    /**
     * Record a poll at once: its new changes (announced, or for the first poll only marked seen),
     * the deliveries `plan` makes of the changes this poll was first to record, and the poll time.
     * Polls take turns on the poll-time row, so the first poll of a database is the only baseline.
     */
    recordPoll(fresh: readonly SeenChange[], at: Date, plan: DeliveryPlan): Promise<RecordedPoll> {
      return write(() =>
        sql.transaction(async (tx) => {
          // first: this row lock makes a concurrent poll (another replica) wait for this one
          await q.writeState(tx, 'last_poll_at', at.toISOString());
          const baseline = (await q.readState(tx, 'baseline_done')) !== 'true';
          const recorded = await q.insertSeen(tx, fresh, at, !baseline);
          if (baseline) await q.writeState(tx, 'baseline_done', 'true');
          let ids: string[] = [];
          if (!baseline && recorded.length > 0) {
            ids = await enqueueAll(tx, plan(recorded, await q.readSubscriptions(tx)), at, options);
          }
          return { baseline, recorded, ids };
        }),
      );
    },

    /** Announced changes first seen in (from, to]. */
    seenBetween: (from: string, to: string): Promise<SeenChange[]> => q.seenBetween(sql, from, to),

    enqueue(list: readonly NewDelivery[], at: Date): Promise<string[]> {
      return write(() => sql.transaction((tx) => enqueueAll(tx, list, at, options)));
    },

    /**
     * Deliveries sent once per `period` (e.g. a UTC day, `2026-11-29`): in one transaction, set
     * `key` in `alert_state` to `period` when it holds `notAfter` (the period before) or an earlier
     * one, or none, and queue `list`; undefined when this period was queued already.
     * Of two processes (replicas, restarts) only the one whose conditional upsert wins queues.
     */
    enqueueOncePer(
      key: string,
      period: string,
      notAfter: string,
      list: readonly NewDelivery[],
      at: Date,
    ): Promise<string[] | undefined> {
      return write(() =>
        sql.transaction(async (tx) => {
          if (!(await q.takeTurnOnState(tx, key, period, notAfter))) return undefined;
          return enqueueAll(tx, list, at, options);
        }),
      );
    },

    /**
     * A daily digest: its deliveries and the subscription's digest time, together, and only when
     * the digest time is still `previous` (no other process queued this digest meanwhile).
     */
    enqueueDigest(
      subscriptionId: number,
      previous: string | null,
      list: readonly NewDelivery[],
      at: Date,
    ): Promise<string[]> {
      return write(() =>
        sql.transaction(async (tx) => {
          const { changes } = await q.markDigestQueued(tx, subscriptionId, previous, at);
          return changes === 0 ? [] : enqueueAll(tx, list, at, options);
        }),
      );
    },
  };
}

/** Subscriptions, their bound per user and their "send test" turns. */
function subscriptionPart({ sql, write }: Parts) {
  return {
    subscriptions: (user?: string): Promise<Subscription[]> => q.readSubscriptions(sql, user),

    subscription: (id: number): Promise<Subscription | undefined> => q.subscriptionById(sql, id),

    createSubscription(user: string, input: SubscriptionInput, at: Date): Promise<Subscription> {
      return write(() => q.insertSubscription(sql, user, input, at));
    },

    /**
     * A new subscription of `user` unless they have `max` already (then `{refused}` with their
     * count). The user's row in `alert_state` is locked first, so on PostgreSQL two requests of one
     * user count in turn and never pass the bound together.
     */
    addSubscription(
      user: string,
      input: SubscriptionInput,
      at: Date,
      max: number,
    ): Promise<{ subscription: Subscription } | { refused: { count: number } }> {
      return write(() =>
        sql.transaction(async (tx) => {
          await q.writeState(tx, `subscriptions_of:${user}`, at.toISOString());
          const count = await q.countSubscriptions(tx, user);
          if (count >= max) return { refused: { count } };
          return { subscription: await q.insertSubscription(tx, user, input, at) };
        }),
      );
    },

    /** How many subscriptions `user` has. */
    countSubscriptions: (user: string): Promise<number> => q.countSubscriptions(sql, user),

    /**
     * Every subscription of every user, oldest first: the view of an administrator (issue 31,
     * "admins see every subscription"; the route that shows it is given to admins only).
     */
    allSubscriptions: (): Promise<Subscription[]> => q.readSubscriptions(sql),

    /**
     * Per subscription of `ids`: deliveries waiting (`pending` or `sending`) and deliveries not
     * queued because too many were waiting (since the subscription was made).
     */
    async deliveryCounts(
      ids: readonly number[],
    ): Promise<Map<number, { waiting: number; notQueued: number }>> {
      const counts = new Map<number, { waiting: number; notQueued: number }>();
      if (ids.length === 0) return counts;
      const waiting = await q.waitingOf(sql, ids);
      const notQueued = await q.stateValues(sql, ids.map(q.notQueuedKey));
      for (const id of ids) {
        counts.set(id, {
          waiting: waiting.get(id) ?? 0,
          notQueued: Number(notQueued.get(q.notQueuedKey(id)) ?? 0),
        });
      }
      return counts;
    },

    /**
     * Take the "send test" turn of `destination` (a subscription id, or `team`): granted when its
     * last test was at least `intervalMs` ago (one conditional upsert, so of two requests at once
     * exactly one is granted), else how long until the next turn.
     */
    async takeTestTurn(
      destination: number | 'team',
      at: Date,
      intervalMs: number,
    ): Promise<{ granted: true } | { granted: false; retryAfterMs: number }> {
      const key = `test_sent:${destination}`;
      const notAfter = new Date(at.getTime() - intervalMs).toISOString();
      const granted = await write(() => q.takeTurnOnState(sql, key, at.toISOString(), notAfter));
      if (granted) return { granted: true };
      const retryAfterMs = testRetryAfterMs(await q.readState(sql, key), at, intervalMs);
      return { granted: false, retryAfterMs };
    },

    updateSubscription(
      id: number,
      input: SubscriptionInput,
      at: Date,
    ): Promise<Subscription | undefined> {
      return write(() => q.updateSubscription(sql, id, input, at));
    },

    async deleteSubscription(id: number): Promise<boolean> {
      const { changes } = await write(() => q.deleteSubscription(sql, id));
      return changes > 0;
    },
  };
}

/** The outbox: deliveries claimed, sent, retried, given up or sent again. */
function outboxPart({ sql, write }: Parts) {
  const delivery = (id: string): Promise<Delivery | undefined> => q.deliveryById(sql, id);
  return {
    deliveries: (limit = 100): Promise<Delivery[]> => q.latestDeliveries(sql, limit),

    /**
     * The latest deliveries with their subscription's owner (null: the team's, or a removed
     * subscription's): with `user`, only the team's and `user`'s own (a non-admin's view).
     */
    deliveriesWithOwner: (limit: number, user?: string) =>
      q.latestDeliveriesWithOwner(sql, limit, user),

    delivery,

    /**
     * The oldest delivery due now, claimed for this process (state `sending`, one more attempt,
     * until `at` + CLAIM_TIMEOUT_MS). The claim is one conditional UPDATE: of processes racing for
     * a delivery, exactly one changes the row; the others look for the next.
     */
    async claimDue(at: Date): Promise<Delivery | undefined> {
      const now = at.toISOString();
      const until = new Date(at.getTime() + CLAIM_TIMEOUT_MS).toISOString();
      for (let tries = 0; tries < 20; tries += 1) {
        const row = await q.oldestDue(sql, now);
        if (!row) return undefined;
        const claimed = await write(() => q.claimDelivery(sql, row, until));
        if (claimed) return claimed;
      }
      return undefined;
    },

    /** When the outbox has work next: a pending delivery due, or a claim that runs out. */
    nextDueAt: (): Promise<string | undefined> => q.nextDueAt(sql),

    async delivered(seq: number, at: Date): Promise<void> {
      await write(() => q.markDelivered(sql, seq, at));
    },

    /** A failed attempt: again at `next`, or failed for good once past its give-up time. */
    async attemptFailed(seq: number, error: string, next: Date): Promise<DeliveryState> {
      const state = stateAfterFailure(next, await q.giveUpAtOf(sql, seq));
      await write(() => q.setAttemptState(sql, seq, state, error, next));
      return state;
    },

    /** "Send again": the same delivery (same idempotency id), due now, for another 24 hours. */
    async resend(id: string, at: Date): Promise<Delivery | undefined> {
      await write(() => q.requeueDelivery(sql, id, at));
      return delivery(id);
    },

    /**
     * Deliveries left `sending` by a process that stopped are attempted again (at-least-once: the
     * receiver may have had it; the idempotency id lets it drop the repeat). `all`: every one (a
     * process that owns the database, at start); otherwise only claims past their deadline (their
     * process died: other replicas' claims in hand are left alone).
     */
    async recoverSending(at: Date, all: boolean): Promise<number> {
      const { changes } = await write(() => q.recoverSending(sql, at, all));
      return changes;
    },
  };
}

/** Announcements of decisions whose standing a policy save changed. */
function standingPart({ sql, write, options }: Parts) {
  return {
    /** Standing changes not announced yet, oldest first (none while the table does not exist). */
    unannouncedStanding: (limit = 500): Promise<StandingChangeRow[]> =>
      q.unannouncedStanding(sql, limit),

    /** Standing changes announced in (from, to], for daily digests. */
    standingAnnouncedBetween: (from: string, to: string): Promise<StandingChangeRow[]> =>
      q.standingAnnouncedBetween(sql, from, to),

    /**
     * Announce standing changes once: in one transaction, mark those of `ids` still unannounced
     * (one conditional UPDATE: of two processes, each row goes to exactly one) and queue the
     * deliveries `plan` makes of the rows this call marked. Answers the rows marked and the ids.
     */
    announceStanding(
      ids: readonly number[],
      at: Date,
      plan: (rows: readonly number[], subscriptions: readonly Subscription[]) => NewDelivery[],
    ): Promise<{ announced: number[]; ids: string[] }> {
      if (ids.length === 0) return Promise.resolve({ announced: [], ids: [] });
      return write(() =>
        sql.transaction(async (tx) => {
          const announced = await q.markStandingAnnounced(tx, ids, at);
          if (announced.length === 0) return { announced, ids: [] };
          const list = plan(announced, await q.readSubscriptions(tx));
          return { announced, ids: await enqueueAll(tx, list, at, options) };
        }),
      );
    },
  };
}

/**
 * The alert store on `sql`. Every write goes through `write` (default: as it is), so that a
 * database refusing it is a 503 `storage_unavailable` on either engine.
 */
export function createAlertStore(
  sql: SqlEngine,
  write: WriteGuard = (fn) => fn(),
  options: AlertStoreOptions = {},
) {
  const parts: Parts = { sql, write, options };
  return {
    kind: sql.kind,
    state: {
      get: (key: string): Promise<string | undefined> => q.readState(sql, key),
      set: (key: string, value: string): Promise<void> =>
        write(() => q.writeState(sql, key, value)),
    },
    ...pollPart(parts),
    ...subscriptionPart(parts),
    ...outboxPart(parts),
    ...standingPart(parts),
    /** The poller's lease (sql/lease.ts): one process polls and queues digests at a time. */
    pollerLease: {
      acquire: (holder: string, ttlMs: number, nowMs?: number): Promise<boolean> =>
        write(() => acquireLease(sql, POLLER_LEASE, holder, ttlMs, nowMs)),
      release: (holder: string): Promise<void> =>
        write(() => releaseLease(sql, POLLER_LEASE, holder)),
    },
  };
}

export type AlertStore = ReturnType<typeof createAlertStore>;
