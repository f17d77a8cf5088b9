/**
 * The alert store's SQL (`alert_seen`, `alert_subscription`, `alert_delivery`, `alert_state`, and
 * reads of `vetting_standing_change`), one small function per statement, the same on SQLite and
 * PostgreSQL, and the mapping of their rows (PostgreSQL answers BIGINT columns and counts as
 * strings: numbers here, as SQLite gives them; JSON is text on both).
 */
import { randomUUID } from 'node:crypto';
import type { Channel } from '../../../src/lib/service/channels.ts';
import type { SqlExecutor, SqlParam } from '../sql/engine.ts';
import { placeholders, tuples } from '../sql/placeholders.ts';
import {
  giveUpAt,
  type AlertPayload,
  type Delivery,
  type DeliveryState,
  type Impact,
  type NewDelivery,
  type SeenChange,
  type StandingChangeRow,
  type Subscription,
  type SubscriptionInput,
} from './store-rules.ts';

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

// ── poller state ───────────────────────────────────────────────────────────────────────────────

export async function readState(on: SqlExecutor, key: string): Promise<string | undefined> {
  const [row] = await on.query<{ value: string }>('SELECT value FROM alert_state WHERE key = ?', [
    key,
  ]);
  return row?.value;
}

export async function writeState(on: SqlExecutor, key: string, value: string): Promise<void> {
  await on.run(
    `INSERT INTO alert_state (key, value) VALUES (?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [key, value],
  );
}

export const notQueuedKey = (subscriptionId: number) => `not_queued:${subscriptionId}`;

/** Deliveries of `subscriptionId` not queued, counted up by `count`. */
export async function addNotQueued(on: SqlExecutor, subscriptionId: number, count: number) {
  const before = Number((await readState(on, notQueuedKey(subscriptionId))) ?? 0);
  await writeState(on, notQueuedKey(subscriptionId), String(before + count));
}

/** The values of these `alert_state` keys (those that exist). */
export async function stateValues(
  on: SqlExecutor,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const rows = await on.query<{ key: string; value: string }>(
    `SELECT key, value FROM alert_state WHERE key IN (${placeholders(keys.length)})`,
    keys,
  );
  return new Map(rows.map((row) => [row.key, row.value]));
}

/**
 * Set `key` to `at` when its value is at or before `notAfter` (or it has none), in one
 * conditional upsert; true when it was set.
 */
export async function takeTurnOnState(
  on: SqlExecutor,
  key: string,
  at: string,
  notAfter: string,
): Promise<boolean> {
  const rows = await on.query<{ key: string }>(
    `INSERT INTO alert_state (key, value) VALUES (?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE alert_state.value <= ?
     RETURNING key`,
    [key, at, notAfter],
  );
  return rows.length > 0;
}

// ── changes seen ───────────────────────────────────────────────────────────────────────────────

/** Of these change ids, those recorded already. */
export async function seenIds(on: SqlExecutor, changeIds: readonly string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let i = 0; i < changeIds.length; i += ID_BATCH) {
    const ids = changeIds.slice(i, i + ID_BATCH);
    const rows = await on.query<{ change_id: string }>(
      `SELECT change_id FROM alert_seen WHERE change_id IN (${placeholders(ids.length)})`,
      ids,
    );
    for (const row of rows) seen.add(row.change_id);
  }
  return seen;
}

/** Insert the changes not recorded yet; answers those this call inserted (its own, to announce). */
export async function insertSeen(
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

/** Announced changes first seen in (from, to]. */
export async function seenBetween(on: SqlExecutor, from: string, to: string) {
  const rows = await on.query<Row>(
    `SELECT * FROM alert_seen WHERE announced = 1 AND first_seen_at > ? AND first_seen_at <= ?
     ORDER BY first_seen_at, profile_id, field`,
    [from, to],
  );
  return rows.map(seenOf);
}

// ── subscriptions ──────────────────────────────────────────────────────────────────────────────

/** Lock these subscriptions' rows, one after the other (a no-op update each). */
export async function lockSubscriptions(on: SqlExecutor, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    await on.run('UPDATE alert_subscription SET updated_at = updated_at WHERE id = ?', [id]);
  }
}

export async function insertSubscription(
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

export async function countSubscriptions(on: SqlExecutor, user: string): Promise<number> {
  const [row] = await on.query<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM alert_subscription WHERE "user" = ?',
    [user],
  );
  return Number(row?.n ?? 0);
}

export async function readSubscriptions(on: SqlExecutor, user?: string): Promise<Subscription[]> {
  const rows =
    user === undefined
      ? await on.query<Row>('SELECT * FROM alert_subscription ORDER BY id')
      : await on.query<Row>('SELECT * FROM alert_subscription WHERE "user" = ? ORDER BY id', [
          user,
        ]);
  return rows.map(subscriptionOf);
}

export async function subscriptionById(
  on: SqlExecutor,
  id: number,
): Promise<Subscription | undefined> {
  const [row] = await on.query<Row>('SELECT * FROM alert_subscription WHERE id = ?', [id]);
  return row ? subscriptionOf(row) : undefined;
}

export async function updateSubscription(
  on: SqlExecutor,
  id: number,
  input: SubscriptionInput,
  at: Date,
): Promise<Subscription | undefined> {
  const [row] = await on.query<Row>(
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
  );
  return row ? subscriptionOf(row) : undefined;
}

export function deleteSubscription(on: SqlExecutor, id: number) {
  return on.run('DELETE FROM alert_subscription WHERE id = ?', [id]);
}

/** The subscription's digest time, set to `at` only while it is still `previous`. */
export function markDigestQueued(
  on: SqlExecutor,
  subscriptionId: number,
  previous: string | null,
  at: Date,
) {
  return on.run(
    `UPDATE alert_subscription SET last_digest_at = ?
   WHERE id = ? AND COALESCE(last_digest_at, '') = ?`,
    [at.toISOString(), subscriptionId, previous ?? ''],
  );
}

// ── deliveries ─────────────────────────────────────────────────────────────────────────────────

/** Waiting deliveries (`pending` or `sending`) per subscription of `ids`. */
export async function waitingOf(
  on: SqlExecutor,
  ids: readonly number[],
): Promise<Map<number, number>> {
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

/** A new pending delivery, due at `at`; answers its id. */
export async function insertDelivery(
  on: SqlExecutor,
  delivery: NewDelivery,
  at: Date,
): Promise<string> {
  const id = randomUUID();
  const when = at.toISOString();
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
      giveUpAt(at),
      when,
    ],
  );
  return id;
}

export async function latestDeliveries(on: SqlExecutor, limit: number): Promise<Delivery[]> {
  const rows = await on.query<Row>('SELECT * FROM alert_delivery ORDER BY seq DESC LIMIT ?', [
    limit,
  ]);
  return rows.map(deliveryOf);
}

/**
 * The latest `limit` deliveries with the user whose subscription each is for (`owner`: null for the
 * team destinations, and for a subscription removed since). `user` given: only the team's and
 * those of `user`'s subscriptions (the view of a non-admin); absent: every one.
 */
export async function latestDeliveriesWithOwner(
  on: SqlExecutor,
  limit: number,
  user?: string,
): Promise<(Delivery & { owner: string | null })[]> {
  const rows = await on.query<Row>(
    `SELECT d.*, s."user" AS owner FROM alert_delivery d
     LEFT JOIN alert_subscription s ON s.id = d.subscription_id
     ${user === undefined ? '' : 'WHERE d.subscription_id IS NULL OR s."user" = ?'}
     ORDER BY d.seq DESC LIMIT ?`,
    user === undefined ? [limit] : [user, limit],
  );
  return rows.map((row) => ({ ...deliveryOf(row), owner: (row.owner as string | null) ?? null }));
}

export async function deliveryById(on: SqlExecutor, id: string): Promise<Delivery | undefined> {
  const [row] = await on.query<Row>('SELECT * FROM alert_delivery WHERE id = ?', [id]);
  return row ? deliveryOf(row) : undefined;
}

/** The oldest pending delivery due at `now` (ISO), as stored. */
export async function oldestDue(on: SqlExecutor, now: string): Promise<Row | undefined> {
  const [row] = await on.query<Row>(
    `SELECT * FROM alert_delivery WHERE state = 'pending' AND next_attempt_at <= ?
     ORDER BY next_attempt_at, seq LIMIT 1`,
    [now],
  );
  return row;
}

/**
 * Claim `row` (pending → sending, one more attempt, until `until`) unless another process did
 * first; the claimed delivery, or undefined.
 */
export async function claimDelivery(
  on: SqlExecutor,
  row: Row,
  until: string,
): Promise<Delivery | undefined> {
  const { changes } = await on.run(
    `UPDATE alert_delivery SET state = 'sending', attempts = attempts + 1, next_attempt_at = ?
   WHERE seq = ? AND state = 'pending' AND next_attempt_at = ?`,
    [until, Number(row.seq), row.next_attempt_at as string],
  );
  if (changes !== 1) return undefined;
  return deliveryOf({
    ...row,
    state: 'sending',
    attempts: Number(row.attempts) + 1,
    next_attempt_at: until,
  });
}

export async function nextDueAt(on: SqlExecutor): Promise<string | undefined> {
  const [row] = await on.query<{ at: string | null }>(
    "SELECT MIN(next_attempt_at) AS at FROM alert_delivery WHERE state IN ('pending', 'sending')",
  );
  return row?.at ?? undefined;
}

export function markDelivered(on: SqlExecutor, seq: number, at: Date) {
  return on.run(
    "UPDATE alert_delivery SET state = 'delivered', delivered_at = ?, last_error = NULL WHERE seq = ?",
    [at.toISOString(), seq],
  );
}

export async function giveUpAtOf(on: SqlExecutor, seq: number): Promise<string | undefined> {
  const [row] = await on.query<{ give_up_at: string }>(
    'SELECT give_up_at FROM alert_delivery WHERE seq = ?',
    [seq],
  );
  return row?.give_up_at;
}

export function setAttemptState(
  on: SqlExecutor,
  seq: number,
  state: DeliveryState,
  error: string,
  next: Date,
) {
  return on.run(
    'UPDATE alert_delivery SET state = ?, last_error = ?, next_attempt_at = ? WHERE seq = ?',
    [state, error.slice(0, 500), next.toISOString(), seq],
  );
}

/** The delivery due again at `at`, for another 24 hours (unless it is being sent). */
export function requeueDelivery(on: SqlExecutor, id: string, at: Date) {
  return on.run(
    `UPDATE alert_delivery SET state = 'pending', next_attempt_at = ?, give_up_at = ?
   WHERE id = ? AND state <> 'sending'`,
    [at.toISOString(), giveUpAt(at), id],
  );
}

/** Deliveries left `sending` pending again: every one, or only claims past their deadline. */
export function recoverSending(on: SqlExecutor, at: Date, all: boolean) {
  const now = at.toISOString();
  return all
    ? on.run(
        "UPDATE alert_delivery SET state = 'pending', next_attempt_at = ? WHERE state = 'sending'",
        [now],
      )
    : on.run(
        `UPDATE alert_delivery SET state = 'pending', next_attempt_at = ?
         WHERE state = 'sending' AND next_attempt_at <= ?`,
        [now, now],
      );
}

// ── standing changes (the policy side's table) ─────────────────────────────────────────────────

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

export function unannouncedStanding(on: SqlExecutor, limit: number) {
  return standingRows(
    on,
    `SELECT * FROM ${STANDING_TABLE} WHERE announced_at IS NULL ORDER BY id LIMIT ?`,
    [limit],
  );
}

export function standingAnnouncedBetween(on: SqlExecutor, from: string, to: string) {
  return standingRows(
    on,
    `SELECT * FROM ${STANDING_TABLE} WHERE announced_at > ? AND announced_at <= ? ORDER BY id`,
    [from, to],
  );
}

/** Mark those of `ids` still unannounced; answers the ids this call marked, ascending. */
export async function markStandingAnnounced(
  on: SqlExecutor,
  ids: readonly number[],
  at: Date,
): Promise<number[]> {
  const rows = await on.query<{ id: number | string }>(
    `UPDATE ${STANDING_TABLE} SET announced_at = ?
     WHERE announced_at IS NULL AND id IN (${placeholders(ids.length)}) RETURNING id`,
    [at.toISOString(), ...ids],
  );
  return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}
