/**
 * The alerts' tables on the proxy's SQLite (migration 6 in db.ts): change ids the poller has seen,
 * subscriptions, the outbox of deliveries and the poller's state. A poll's new changes and the
 * deliveries they cause are written in one transaction, so a restart neither loses nor repeats them.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Channel } from '../../../src/lib/service/channels.ts';

export const SEVERITIES = ['all', 'attention', 'fails'] as const;
/** all changes; approved carriers now failing or needing review; approved carriers now failing */
export type Severity = (typeof SEVERITIES)[number];
type Impact = 'fails' | 'needs-review';
type DestinationKind = 'email' | 'webhook';
export type DeliveryState = 'pending' | 'sending' | 'delivered' | 'failed';

/** One changed field, as the poller first saw it. */
export interface SeenChange {
  id: string;
  profileId: string;
  dot: string;
  field: string;
  channel: Channel | null;
  date: string | null;
  prior: unknown;
  current: unknown;
  impact: Impact | null;
}

export interface CarrierSection {
  profile_id: string;
  dot: string;
  impact: Impact | null;
  changes: {
    id: string;
    channel: Channel | null;
    field: string;
    date: string | null;
    prior: unknown;
    current: unknown;
  }[];
}

export interface AlertPayload {
  type: 'changes' | 'test';
  carriers: CarrierSection[];
}

export interface Subscription {
  id: number;
  user: string;
  kind: DestinationKind;
  target: string;
  channels: Channel[];
  severity: Severity;
  schedule: 'immediate' | 'daily';
  digest_time: string | null;
  time_zone: string | null;
  last_digest_at: string | null;
  created_at: string;
  updated_at: string;
}

export type SubscriptionInput = Pick<
  Subscription,
  'kind' | 'target' | 'channels' | 'severity' | 'schedule' | 'digest_time' | 'time_zone'
>;

export interface Delivery {
  seq: number;
  /** the idempotency id receivers use to drop repeats */
  id: string;
  subscription_id: number | null;
  /** `env` (the team destinations of the environment), `subscription` or `test` */
  source: string;
  kind: DestinationKind;
  target: string;
  payload: AlertPayload;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: string;
  give_up_at: string;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface NewDelivery {
  subscription_id: number | null;
  source: string;
  kind: DestinationKind;
  target: string;
  payload: AlertPayload;
}

/** How long a delivery is attempted before it is marked failed. */
const GIVE_UP_AFTER_MS = 24 * 3600_000;

type Row = Record<string, unknown>;

function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

function parsed(text: unknown): unknown {
  return typeof text === 'string' ? (JSON.parse(text) as unknown) : null;
}

function subscriptionOf(row: Row): Subscription {
  return {
    ...(row as unknown as Subscription),
    channels: parsed(row.channels) as Channel[],
  };
}

function deliveryOf(row: Row): Delivery {
  return { ...(row as unknown as Delivery), payload: parsed(row.payload) as AlertPayload };
}

function seenOf(row: Row): SeenChange {
  return {
    id: row.change_id as string,
    profileId: row.profile_id as string,
    dot: row.dot as string,
    field: row.field as string,
    channel: (row.channel as Channel | null) ?? null,
    date: (row.change_date as string | null) ?? null,
    prior: parsed(row.prior),
    current: parsed(row.current),
    impact: (row.impact as Impact | null) ?? null,
  };
}

export function createAlertStore(db: Database.Database) {
  const getState = db.prepare<[string], { value: string }>(
    'SELECT value FROM alert_state WHERE key = ?',
  );
  const setState = db.prepare(
    'INSERT INTO alert_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const isSeen = db.prepare<[string], { one: number }>(
    'SELECT 1 AS one FROM alert_seen WHERE change_id = ?',
  );
  const insertSeen = db.prepare(
    `INSERT OR IGNORE INTO alert_seen (change_id, profile_id, dot, field, channel, change_date,
       prior, current, impact, first_seen_at, announced)
     VALUES (@id, @profileId, @dot, @field, @channel, @date, @prior, @current, @impact, @at, @announced)`,
  );
  const insertDelivery = db.prepare(
    `INSERT INTO alert_delivery (id, subscription_id, source, kind, target, payload, state,
       next_attempt_at, give_up_at, created_at)
     VALUES (@id, @subscription_id, @source, @kind, @target, @payload, 'pending', @at, @give_up, @at)`,
  );

  const state = {
    get: (key: string): string | undefined => getState.get(key)?.value,
    set: (key: string, value: string) => void setState.run(key, value),
  };

  function enqueueAll(list: readonly NewDelivery[], at: Date): string[] {
    const ids: string[] = [];
    for (const delivery of list) {
      const id = randomUUID();
      insertDelivery.run({
        ...delivery,
        id,
        payload: JSON.stringify(delivery.payload),
        at: at.toISOString(),
        give_up: new Date(at.getTime() + GIVE_UP_AFTER_MS).toISOString(),
      });
      ids.push(id);
    }
    return ids;
  }

  return {
    state,

    /** The changes of `changes` not seen before. */
    unseen(changes: readonly SeenChange[]): SeenChange[] {
      return changes.filter((change) => !isSeen.get(change.id));
    },

    /**
     * Record a poll at once: its new changes (announced or, for the first poll, only marked seen),
     * the deliveries they cause and the poll time.
     */
    recordPoll(
      fresh: readonly SeenChange[],
      deliveries: readonly NewDelivery[],
      at: Date,
      announced: boolean,
    ): string[] {
      return db.transaction(() => {
        for (const change of fresh) {
          insertSeen.run({
            ...change,
            prior: json(change.prior),
            current: json(change.current),
            at: at.toISOString(),
            announced: announced ? 1 : 0,
          });
        }
        state.set('baseline_done', 'true');
        state.set('last_poll_at', at.toISOString());
        return enqueueAll(deliveries, at);
      })();
    },

    /** Announced changes first seen in (from, to]. */
    seenBetween(from: string, to: string): SeenChange[] {
      return db
        .prepare<[string, string], Row>(
          `SELECT * FROM alert_seen WHERE announced = 1 AND first_seen_at > ? AND first_seen_at <= ?
           ORDER BY first_seen_at, profile_id, field`,
        )
        .all(from, to)
        .map(seenOf);
    },

    enqueue(list: readonly NewDelivery[], at: Date): string[] {
      return db.transaction(() => enqueueAll(list, at))();
    },

    /** A daily digest: its deliveries and the subscription's digest time, together. */
    enqueueDigest(subscriptionId: number, list: readonly NewDelivery[], at: Date): string[] {
      return db.transaction(() => {
        db.prepare('UPDATE alert_subscription SET last_digest_at = ? WHERE id = ?').run(
          at.toISOString(),
          subscriptionId,
        );
        return enqueueAll(list, at);
      })();
    },

    subscriptions(user?: string): Subscription[] {
      const rows =
        user === undefined
          ? db.prepare<[], Row>('SELECT * FROM alert_subscription ORDER BY id').all()
          : db
              .prepare<[string], Row>('SELECT * FROM alert_subscription WHERE user = ? ORDER BY id')
              .all(user);
      return rows.map(subscriptionOf);
    },

    subscription(id: number): Subscription | undefined {
      const row = db
        .prepare<[number], Row>('SELECT * FROM alert_subscription WHERE id = ?')
        .get(id);
      return row ? subscriptionOf(row) : undefined;
    },

    createSubscription(user: string, input: SubscriptionInput, at: Date): Subscription {
      const now = at.toISOString();
      const { lastInsertRowid } = db
        .prepare(
          `INSERT INTO alert_subscription (user, kind, target, channels, severity, schedule,
             digest_time, time_zone, last_digest_at, created_at, updated_at)
           VALUES (@user, @kind, @target, @channels, @severity, @schedule, @digest_time, @time_zone,
             @now, @now, @now)`,
        )
        .run({ ...input, user, channels: JSON.stringify(input.channels), now });
      return this.subscription(Number(lastInsertRowid)) as Subscription;
    },

    updateSubscription(id: number, input: SubscriptionInput, at: Date): Subscription | undefined {
      db.prepare(
        `UPDATE alert_subscription SET kind = @kind, target = @target, channels = @channels,
           severity = @severity, schedule = @schedule, digest_time = @digest_time,
           time_zone = @time_zone, updated_at = @now WHERE id = @id`,
      ).run({ ...input, id, channels: JSON.stringify(input.channels), now: at.toISOString() });
      return this.subscription(id);
    },

    deleteSubscription(id: number): boolean {
      return db.prepare('DELETE FROM alert_subscription WHERE id = ?').run(id).changes > 0;
    },

    deliveries(limit = 100): Delivery[] {
      return db
        .prepare<[number], Row>('SELECT * FROM alert_delivery ORDER BY seq DESC LIMIT ?')
        .all(limit)
        .map(deliveryOf);
    },

    delivery(id: string): Delivery | undefined {
      const row = db.prepare<[string], Row>('SELECT * FROM alert_delivery WHERE id = ?').get(id);
      return row ? deliveryOf(row) : undefined;
    },

    /** The oldest delivery due now, claimed (state `sending`, one more attempt). */
    claimDue(at: Date): Delivery | undefined {
      return db.transaction(() => {
        const row = db
          .prepare<[string], Row>(
            `SELECT * FROM alert_delivery WHERE state = 'pending' AND next_attempt_at <= ?
             ORDER BY next_attempt_at, seq LIMIT 1`,
          )
          .get(at.toISOString());
        if (!row) return undefined;
        db.prepare(
          "UPDATE alert_delivery SET state = 'sending', attempts = attempts + 1 WHERE seq = ?",
        ).run(row.seq);
        return deliveryOf({ ...row, state: 'sending', attempts: Number(row.attempts) + 1 });
      })();
    },

    /** When the next pending delivery is due, if any. */
    nextDueAt(): string | undefined {
      return (
        db
          .prepare<[], { at: string | null }>(
            "SELECT MIN(next_attempt_at) AS at FROM alert_delivery WHERE state = 'pending'",
          )
          .get()?.at ?? undefined
      );
    },

    delivered(seq: number, at: Date): void {
      db.prepare(
        "UPDATE alert_delivery SET state = 'delivered', delivered_at = ?, last_error = NULL WHERE seq = ?",
      ).run(at.toISOString(), seq);
    },

    /** A failed attempt: again at `next`, or failed for good once past its give-up time. */
    attemptFailed(seq: number, error: string, next: Date): DeliveryState {
      const row = db
        .prepare<[number], { give_up_at: string }>(
          'SELECT give_up_at FROM alert_delivery WHERE seq = ?',
        )
        .get(seq);
      const giveUp = row === undefined || next.toISOString() > row.give_up_at;
      const state: DeliveryState = giveUp ? 'failed' : 'pending';
      db.prepare(
        'UPDATE alert_delivery SET state = ?, last_error = ?, next_attempt_at = ? WHERE seq = ?',
      ).run(state, error.slice(0, 500), next.toISOString(), seq);
      return state;
    },

    /** "Send again": the same delivery (same idempotency id), due now, for another 24 hours. */
    resend(id: string, at: Date): Delivery | undefined {
      db.prepare(
        `UPDATE alert_delivery SET state = 'pending', next_attempt_at = ?, give_up_at = ?
         WHERE id = ? AND state <> 'sending'`,
      ).run(at.toISOString(), new Date(at.getTime() + GIVE_UP_AFTER_MS).toISOString(), id);
      return this.delivery(id);
    },

    /**
     * Deliveries a stopped process left `sending` are attempted again (at-least-once: the receiver
     * may have had it; the idempotency id lets it drop the repeat).
     */
    recoverSending(at: Date): number {
      return db
        .prepare(
          "UPDATE alert_delivery SET state = 'pending', next_attempt_at = ? WHERE state = 'sending'",
        )
        .run(at.toISOString()).changes;
    },
  };
}

export type AlertStore = ReturnType<typeof createAlertStore>;
