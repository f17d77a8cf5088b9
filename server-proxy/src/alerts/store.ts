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
 */
import { randomUUID } from 'node:crypto';
import type { SqlEngine, SqlExecutor, SqlParam } from '../sql/engine.ts';
import { acquireLease, releaseLease } from '../sql/lease.ts';
import type { Channel } from '../../../src/lib/service/channels.ts';
import { placeholders, tuples } from '../sql/placeholders.ts';

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
  /** the carrier's legal name (and DBA) as the proxy last saw them; absent when none is known */
  name?: string;
  dba_name?: string;
  impact: Impact | null;
  /** its worst change in a few words ("Common authority inactive"); absent on older deliveries */
  headline?: string;
  changes: {
    id: string;
    channel: Channel | null;
    field: string;
    date: string | null;
    prior: unknown;
    current: unknown;
  }[];
}

/** How a current decision stands against the live verdict (contract of issue 29, H2). */
type Standing = 'holds' | 'now_fails' | 'now_review' | 'now_passes' | 'unknown';

/** A row of `vetting_standing_change` (written by H2 after a policy save), as alerts read it. */
export interface StandingChangeRow {
  id: number;
  policy_version: number;
  dot_number: string;
  decision_id: number;
  standing_before: Standing;
  standing_after: Standing;
  verdict_after: string | null;
  created_at: string;
  announced_at: string | null;
}

/** A decision whose standing a policy save changed, as a message announces it. */
export interface StandingNotice {
  change_id: number;
  dot: string;
  name?: string;
  dba_name?: string;
  decision: string;
  decision_id: number;
  policy_version: number;
  standing_before: Standing;
  standing_after: Standing;
  verdict_after: string | null;
  /** the rules the decision's evidence now fails or needs review on, when they could be read */
  reasons?: string[];
}

/** A current decision whose re-vet date has passed or comes within 14 days. */
export interface RevetNotice {
  dot: string;
  name?: string;
  decision: string;
  decision_id: number;
  expires_on: string;
  due: 'overdue' | 'soon';
}

export interface AlertPayload {
  /** `standing`: policy-change announcements only */
  type: 'changes' | 'test' | 'standing';
  carriers: CarrierSection[];
  /** decisions whose standing a policy save changed (absent when none) */
  standing?: StandingNotice[];
  /** decisions due for re-vetting, in daily digests (absent when none) */
  revet_due?: RevetNotice[];
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
/**
 * How long a claimed delivery stays `sending` before another process may take it over (its
 * sender died): well past the longest attempt (a webhook times out after 10 s).
 */
export const CLAIM_TIMEOUT_MS = 2 * 60_000;
/** The lease under which one process polls the monitoring list and queues digests. */
const POLLER_LEASE = 'alerts-poller';

type Row = Record<string, unknown>;

function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

function parsed(text: unknown): unknown {
  return typeof text === 'string' ? (JSON.parse(text) as unknown) : null;
}

/** PostgreSQL answers BIGINT columns as strings: numbers here, as SQLite gives them. */
function subscriptionOf(row: Row): Subscription {
  return {
    ...(row as unknown as Subscription),
    id: Number(row.id),
    channels: parsed(row.channels) as Channel[],
  };
}

function deliveryOf(row: Row): Delivery {
  return {
    ...(row as unknown as Delivery),
    seq: Number(row.seq),
    subscription_id: row.subscription_id === null ? null : Number(row.subscription_id),
    attempts: Number(row.attempts),
    payload: parsed(row.payload) as AlertPayload,
  };
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

const SEEN_COLUMNS = `change_id, profile_id, dot, field, channel, change_date, prior, current, impact,
  first_seen_at, announced`;
/** Changes inserted per statement (11 parameters each). */
const SEEN_BATCH = 200;
/** Ids looked up per statement. */
const ID_BATCH = 500;

async function readState(on: SqlExecutor, key: string): Promise<string | undefined> {
  const [row] = await on.query<{ value: string }>('SELECT value FROM alert_state WHERE key = ?', [
    key,
  ]);
  return row?.value;
}

async function writeState(on: SqlExecutor, key: string, value: string): Promise<void> {
  await on.run(
    `INSERT INTO alert_state (key, value) VALUES (?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [key, value],
  );
}

/**
 * At most this many deliveries of one subscription wait (`pending` or `sending`) at a time; beyond
 * it a new one is not queued (counted in `alert_state` as `not_queued:<id>`). A dead receiver of an
 * immediate subscription collects at most one delivery a poll (96 a day at the default interval)
 * while it is retried for 24 hours, so 100 keeps every real alert of a day and bounds a flood.
 */
export const MAX_PENDING_PER_SUBSCRIPTION = 100;

/** The bounds a store keeps, and who hears of a delivery that was not queued. */
export interface AlertStoreOptions {
  /** default MAX_PENDING_PER_SUBSCRIPTION */
  maxPendingPerSubscription?: number;
  /** deliveries of `subscriptionId` left out because it had the most waiting already */
  onNotQueued?: (subscriptionId: number, count: number) => void;
}

const notQueuedKey = (subscriptionId: number) => `not_queued:${subscriptionId}`;

/** Waiting deliveries (`pending` or `sending`) per subscription of `ids`. */
async function waitingOf(on: SqlExecutor, ids: readonly number[]): Promise<Map<number, number>> {
  const waiting = new Map<number, number>();
  for (let i = 0; i < ids.length; i += ID_BATCH) {
    const batch = ids.slice(i, i + ID_BATCH);
    const rows = await on.query<{ subscription_id: number | string; n: number | string }>(
      `SELECT subscription_id, COUNT(*) AS n FROM alert_delivery
       WHERE state IN ('pending', 'sending') AND subscription_id IN (${placeholders(batch.length)})
       GROUP BY subscription_id`,
      [...batch],
    );
    for (const row of rows) waiting.set(Number(row.subscription_id), Number(row.n));
  }
  return waiting;
}

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
  const subscriptionIds = [
    ...new Set(list.flatMap((d) => (d.subscription_id === null ? [] : [d.subscription_id]))),
  ].sort((a, b) => a - b);
  for (const id of subscriptionIds) {
    await on.run('UPDATE alert_subscription SET updated_at = updated_at WHERE id = ?', [id]);
  }
  const waiting = await waitingOf(on, subscriptionIds);
  const notQueued = new Map<number, number>();
  const ids: string[] = [];
  const when = at.toISOString();
  const giveUp = new Date(at.getTime() + GIVE_UP_AFTER_MS).toISOString();
  for (const delivery of list) {
    const sub = delivery.subscription_id;
    if (sub !== null) {
      const count = waiting.get(sub) ?? 0;
      if (count >= max) {
        notQueued.set(sub, (notQueued.get(sub) ?? 0) + 1);
        continue;
      }
      waiting.set(sub, count + 1);
    }
    const id = randomUUID();
    await on.run(
      `INSERT INTO alert_delivery (id, subscription_id, source, kind, target, payload, state,
         next_attempt_at, give_up_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
      [
        id,
        delivery.subscription_id,
        delivery.source,
        delivery.kind,
        delivery.target,
        JSON.stringify(delivery.payload),
        when,
        giveUp,
        when,
      ],
    );
    ids.push(id);
  }
  for (const [sub, count] of notQueued) {
    const before = Number((await readState(on, notQueuedKey(sub))) ?? 0);
    await writeState(on, notQueuedKey(sub), String(before + count));
    options.onNotQueued?.(sub, count);
  }
  return ids;
}

async function insertSubscription(
  on: SqlExecutor,
  user: string,
  input: SubscriptionInput,
  at: Date,
): Promise<Subscription> {
  const now = at.toISOString();
  const [row] = await on.query<Row>(
    `INSERT INTO alert_subscription ("user", kind, target, channels, severity, schedule,
       digest_time, time_zone, last_digest_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    [
      user,
      input.kind,
      input.target,
      JSON.stringify(input.channels),
      input.severity,
      input.schedule,
      input.digest_time,
      input.time_zone,
      now,
      now,
      now,
    ],
  );
  if (!row) throw new Error('alerts: the new subscription was not stored');
  return subscriptionOf(row);
}

async function countSubscriptions(on: SqlExecutor, user: string): Promise<number> {
  const [row] = await on.query<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM alert_subscription WHERE "user" = ?',
    [user],
  );
  return Number(row?.n ?? 0);
}

async function readSubscriptions(on: SqlExecutor, user?: string): Promise<Subscription[]> {
  const rows =
    user === undefined
      ? await on.query<Row>('SELECT * FROM alert_subscription ORDER BY id')
      : await on.query<Row>('SELECT * FROM alert_subscription WHERE "user" = ? ORDER BY id', [
          user,
        ]);
  return rows.map(subscriptionOf);
}

/** Insert the changes not recorded yet; answers those this call inserted (its own, to announce). */
async function insertSeen(
  on: SqlExecutor,
  changes: readonly SeenChange[],
  at: Date,
  announced: boolean,
): Promise<SeenChange[]> {
  const inserted: SeenChange[] = [];
  for (let i = 0; i < changes.length; i += SEEN_BATCH) {
    const batch = changes.slice(i, i + SEEN_BATCH);
    const params: SqlParam[] = batch.flatMap((change) => [
      change.id,
      change.profileId,
      change.dot,
      change.field,
      change.channel,
      change.date,
      json(change.prior),
      json(change.current),
      change.impact,
      at.toISOString(),
      announced ? 1 : 0,
    ]);
    const rows = await on.query<{ change_id: string }>(
      `INSERT INTO alert_seen (${SEEN_COLUMNS}) VALUES ${tuples(batch.length, 11)}
       ON CONFLICT (change_id) DO NOTHING RETURNING change_id`,
      params,
    );
    const won = new Set(rows.map((row) => row.change_id));
    inserted.push(...batch.filter((change) => won.has(change.id)));
  }
  return inserted;
}

/** H2's table of decisions whose standing a policy save changed (contract29.md). */
const STANDING_TABLE = 'vetting_standing_change';

/** A missing table (an older database, or the policy side not deployed yet) reads as no rows. */
function missingTable(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /no such table|does not exist/i.test(message) && message.includes(STANDING_TABLE);
}

async function standingRows(
  on: SqlExecutor,
  query: string,
  params: SqlParam[],
): Promise<StandingChangeRow[]> {
  let rows: Row[];
  try {
    rows = await on.query<Row>(query, params);
  } catch (err) {
    if (missingTable(err)) return [];
    throw err;
  }
  return rows.map((row) => ({
    ...(row as unknown as StandingChangeRow),
    id: Number(row.id),
    policy_version: Number(row.policy_version),
    decision_id: Number(row.decision_id),
    dot_number: String(row.dot_number),
  }));
}

/** What a poll recorded. */
export interface RecordedPoll {
  /** true on the first poll of a new database: its changes were recorded as seen, not announced */
  baseline: boolean;
  /** the changes this poll recorded first (another poll may have recorded some of `fresh`) */
  recorded: SeenChange[];
  /** the ids of the deliveries queued */
  ids: string[];
}

/** The deliveries of a poll's newly announced changes, for the subscriptions there are now. */
export type DeliveryPlan = (
  announced: readonly SeenChange[],
  subscriptions: readonly Subscription[],
) => NewDelivery[];

/** Runs a store's write: on SQLite through the proxy file's Storage guard (sql/write-guard.ts). */
export type WriteGuard = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * The alert store on `sql`. Every write goes through `write` (default: as it is), so that a
 * database refusing it is a 503 `storage_unavailable` on either engine.
 */
export function createAlertStore(
  sql: SqlEngine,
  write: WriteGuard = (fn) => fn(),
  options: AlertStoreOptions = {},
) {
  const state = {
    get: (key: string): Promise<string | undefined> => readState(sql, key),
    set: (key: string, value: string): Promise<void> => write(() => writeState(sql, key, value)),
  };

  const store = {
    kind: sql.kind,
    state,

    /** The changes of `changes` not seen before. */
    async unseen(changes: readonly SeenChange[]): Promise<SeenChange[]> {
      const seen = new Set<string>();
      for (let i = 0; i < changes.length; i += ID_BATCH) {
        const ids = changes.slice(i, i + ID_BATCH).map((change) => change.id);
        const rows = await sql.query<{ change_id: string }>(
          `SELECT change_id FROM alert_seen WHERE change_id IN (${placeholders(ids.length)})`,
          ids,
        );
        for (const row of rows) seen.add(row.change_id);
      }
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
          await writeState(tx, 'last_poll_at', at.toISOString());
          const baseline = (await readState(tx, 'baseline_done')) !== 'true';
          const recorded = await insertSeen(tx, fresh, at, !baseline);
          if (baseline) await writeState(tx, 'baseline_done', 'true');
          let ids: string[] = [];
          if (!baseline && recorded.length > 0) {
            ids = await enqueueAll(tx, plan(recorded, await readSubscriptions(tx)), at, options);
          }
          return { baseline, recorded, ids };
        }),
      );
    },

    /** Announced changes first seen in (from, to]. */
    async seenBetween(from: string, to: string): Promise<SeenChange[]> {
      const rows = await sql.query<Row>(
        `SELECT * FROM alert_seen WHERE announced = 1 AND first_seen_at > ? AND first_seen_at <= ?
         ORDER BY first_seen_at, profile_id, field`,
        [from, to],
      );
      return rows.map(seenOf);
    },

    enqueue(list: readonly NewDelivery[], at: Date): Promise<string[]> {
      return write(() => sql.transaction((tx) => enqueueAll(tx, list, at, options)));
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
          const { changes } = await tx.run(
            `UPDATE alert_subscription SET last_digest_at = ?
           WHERE id = ? AND COALESCE(last_digest_at, '') = ?`,
            [at.toISOString(), subscriptionId, previous ?? ''],
          );
          return changes === 0 ? [] : enqueueAll(tx, list, at, options);
        }),
      );
    },

    subscriptions: (user?: string): Promise<Subscription[]> => readSubscriptions(sql, user),

    async subscription(id: number): Promise<Subscription | undefined> {
      const [row] = await sql.query<Row>('SELECT * FROM alert_subscription WHERE id = ?', [id]);
      return row ? subscriptionOf(row) : undefined;
    },

    createSubscription(user: string, input: SubscriptionInput, at: Date): Promise<Subscription> {
      return write(() => insertSubscription(sql, user, input, at));
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
          await writeState(tx, `subscriptions_of:${user}`, at.toISOString());
          const count = await countSubscriptions(tx, user);
          if (count >= max) return { refused: { count } };
          return { subscription: await insertSubscription(tx, user, input, at) };
        }),
      );
    },

    /** How many subscriptions `user` has. */
    countSubscriptions: (user: string): Promise<number> => countSubscriptions(sql, user),

    /**
     * Every subscription of every user, oldest first: the view of an administrator (issue 31,
     * "admins see every subscription"; the route that shows it is given to admins only).
     */
    allSubscriptions: (): Promise<Subscription[]> => readSubscriptions(sql),

    /**
     * Per subscription of `ids`: deliveries waiting (`pending` or `sending`) and deliveries not
     * queued because too many were waiting (since the subscription was made).
     */
    async deliveryCounts(
      ids: readonly number[],
    ): Promise<Map<number, { waiting: number; notQueued: number }>> {
      const counts = new Map<number, { waiting: number; notQueued: number }>();
      if (ids.length === 0) return counts;
      const waiting = await waitingOf(sql, ids);
      const keys = ids.map(notQueuedKey);
      const rows = await sql.query<{ key: string; value: string }>(
        `SELECT key, value FROM alert_state WHERE key IN (${placeholders(keys.length)})`,
        keys,
      );
      const notQueued = new Map(rows.map((row) => [row.key, Number(row.value)]));
      for (const id of ids) {
        counts.set(id, {
          waiting: waiting.get(id) ?? 0,
          notQueued: notQueued.get(notQueuedKey(id)) ?? 0,
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
      const rows = await write(() =>
        sql.query<{ key: string }>(
          `INSERT INTO alert_state (key, value) VALUES (?, ?)
           ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE alert_state.value <= ?
           RETURNING key`,
          [key, at.toISOString(), new Date(at.getTime() - intervalMs).toISOString()],
        ),
      );
      if (rows.length > 0) return { granted: true };
      const last = Date.parse((await readState(sql, key)) ?? '');
      const retryAfterMs = Number.isNaN(last) ? intervalMs : last + intervalMs - at.getTime();
      return { granted: false, retryAfterMs: Math.max(1000, retryAfterMs) };
    },

    async updateSubscription(
      id: number,
      input: SubscriptionInput,
      at: Date,
    ): Promise<Subscription | undefined> {
      const [row] = await write(() =>
        sql.query<Row>(
          `UPDATE alert_subscription SET kind = ?, target = ?, channels = ?, severity = ?,
           schedule = ?, digest_time = ?, time_zone = ?, updated_at = ?
         WHERE id = ? RETURNING *`,
          [
            input.kind,
            input.target,
            JSON.stringify(input.channels),
            input.severity,
            input.schedule,
            input.digest_time,
            input.time_zone,
            at.toISOString(),
            id,
          ],
        ),
      );
      return row ? subscriptionOf(row) : undefined;
    },

    async deleteSubscription(id: number): Promise<boolean> {
      const { changes } = await write(() =>
        sql.run('DELETE FROM alert_subscription WHERE id = ?', [id]),
      );
      return changes > 0;
    },

    async deliveries(limit = 100): Promise<Delivery[]> {
      const rows = await sql.query<Row>('SELECT * FROM alert_delivery ORDER BY seq DESC LIMIT ?', [
        limit,
      ]);
      return rows.map(deliveryOf);
    },

    async delivery(id: string): Promise<Delivery | undefined> {
      const [row] = await sql.query<Row>('SELECT * FROM alert_delivery WHERE id = ?', [id]);
      return row ? deliveryOf(row) : undefined;
    },

    /**
     * The oldest delivery due now, claimed for this process (state `sending`, one more attempt,
     * until `at` + CLAIM_TIMEOUT_MS). The claim is one conditional UPDATE: of processes racing for
     * a delivery, exactly one changes the row; the others look for the next.
     */
    async claimDue(at: Date): Promise<Delivery | undefined> {
      const now = at.toISOString();
      const until = new Date(at.getTime() + CLAIM_TIMEOUT_MS).toISOString();
      for (let tries = 0; tries < 20; tries += 1) {
        const [row] = await sql.query<Row>(
          `SELECT * FROM alert_delivery WHERE state = 'pending' AND next_attempt_at <= ?
           ORDER BY next_attempt_at, seq LIMIT 1`,
          [now],
        );
        if (!row) return undefined;
        const { changes } = await write(() =>
          sql.run(
            `UPDATE alert_delivery SET state = 'sending', attempts = attempts + 1, next_attempt_at = ?
           WHERE seq = ? AND state = 'pending' AND next_attempt_at = ?`,
            [until, Number(row.seq), row.next_attempt_at as string],
          ),
        );
        if (changes === 1) {
          return deliveryOf({
            ...row,
            state: 'sending',
            attempts: Number(row.attempts) + 1,
            next_attempt_at: until,
          });
        }
      }
      return undefined;
    },

    /** When the outbox has work next: a pending delivery due, or a claim that runs out. */
    async nextDueAt(): Promise<string | undefined> {
      const [row] = await sql.query<{ at: string | null }>(
        "SELECT MIN(next_attempt_at) AS at FROM alert_delivery WHERE state IN ('pending', 'sending')",
      );
      return row?.at ?? undefined;
    },

    async delivered(seq: number, at: Date): Promise<void> {
      await write(() =>
        sql.run(
          "UPDATE alert_delivery SET state = 'delivered', delivered_at = ?, last_error = NULL WHERE seq = ?",
          [at.toISOString(), seq],
        ),
      );
    },

    /** A failed attempt: again at `next`, or failed for good once past its give-up time. */
    async attemptFailed(seq: number, error: string, next: Date): Promise<DeliveryState> {
      const [row] = await sql.query<{ give_up_at: string }>(
        'SELECT give_up_at FROM alert_delivery WHERE seq = ?',
        [seq],
      );
      const giveUp = row === undefined || next.toISOString() > row.give_up_at;
      const state: DeliveryState = giveUp ? 'failed' : 'pending';
      await write(() =>
        sql.run(
          'UPDATE alert_delivery SET state = ?, last_error = ?, next_attempt_at = ? WHERE seq = ?',
          [state, error.slice(0, 500), next.toISOString(), seq],
        ),
      );
      return state;
    },

    /** "Send again": the same delivery (same idempotency id), due now, for another 24 hours. */
    async resend(id: string, at: Date): Promise<Delivery | undefined> {
      await write(() =>
        sql.run(
          `UPDATE alert_delivery SET state = 'pending', next_attempt_at = ?, give_up_at = ?
         WHERE id = ? AND state <> 'sending'`,
          [at.toISOString(), new Date(at.getTime() + GIVE_UP_AFTER_MS).toISOString(), id],
        ),
      );
      return store.delivery(id);
    },

    /**
     * Deliveries left `sending` by a process that stopped are attempted again (at-least-once: the
     * receiver may have had it; the idempotency id lets it drop the repeat). `all`: every one (a
     * process that owns the database, at start); otherwise only claims past their deadline (their
     * process died: other replicas' claims in hand are left alone).
     */
    async recoverSending(at: Date, all: boolean): Promise<number> {
      const now = at.toISOString();
      const { changes } = await write(() =>
        all
          ? sql.run(
              "UPDATE alert_delivery SET state = 'pending', next_attempt_at = ? WHERE state = 'sending'",
              [now],
            )
          : sql.run(
              `UPDATE alert_delivery SET state = 'pending', next_attempt_at = ?
               WHERE state = 'sending' AND next_attempt_at <= ?`,
              [now, now],
            ),
      );
      return changes;
    },

    /** Standing changes not announced yet, oldest first (none while the table does not exist). */
    async unannouncedStanding(limit = 500): Promise<StandingChangeRow[]> {
      return standingRows(
        sql,
        `SELECT * FROM ${STANDING_TABLE} WHERE announced_at IS NULL ORDER BY id LIMIT ?`,
        [limit],
      );
    },

    /** Standing changes announced in (from, to], for daily digests. */
    standingAnnouncedBetween(from: string, to: string): Promise<StandingChangeRow[]> {
      return standingRows(
        sql,
        `SELECT * FROM ${STANDING_TABLE} WHERE announced_at > ? AND announced_at <= ? ORDER BY id`,
        [from, to],
      );
    },

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
          const rows = await tx.query<{ id: number | string }>(
            `UPDATE ${STANDING_TABLE} SET announced_at = ?
             WHERE announced_at IS NULL AND id IN (${placeholders(ids.length)}) RETURNING id`,
            [at.toISOString(), ...ids],
          );
          const announced = rows.map((row) => Number(row.id)).sort((a, b) => a - b);
          if (announced.length === 0) return { announced, ids: [] };
          const queued = await enqueueAll(
            tx,
            plan(announced, await readSubscriptions(tx)),
            at,
            options,
          );
          return { announced, ids: queued };
        }),
      );
    },

    /** The poller's lease (sql/lease.ts): one process polls and queues digests at a time. */
    pollerLease: {
      acquire: (holder: string, ttlMs: number, nowMs?: number): Promise<boolean> =>
        write(() => acquireLease(sql, POLLER_LEASE, holder, ttlMs, nowMs)),
      release: (holder: string): Promise<void> =>
        write(() => releaseLease(sql, POLLER_LEASE, holder)),
    },
  };
  return store;
}

export type AlertStore = ReturnType<typeof createAlertStore>;
