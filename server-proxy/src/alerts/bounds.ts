/**
 * The bounds of the alerts (issue 31, item 4; docs/alerts.md "Bounds"): subscriptions per user,
 * one "send test" a minute per destination, and a cap on the deliveries waiting per subscription
 * (MAX_PENDING_PER_SUBSCRIPTION, kept by the store where deliveries are queued). Each refusal is an
 * ApiError `{error, code, hint}`; waits carry Retry-After.
 */
import { ApiError } from '../http/api-error.ts';
import {
  MAX_PENDING_PER_SUBSCRIPTION,
  type AlertStore,
  type NewDelivery,
  type Subscription,
} from './store.ts';

/** One "send test" per destination (a subscription, or the team destinations) a minute. */
export const TEST_INTERVAL_MS = 60_000;

export function tooManySubscriptions(max: number): ApiError {
  return new ApiError(
    409,
    'too_many_subscriptions',
    `You have ${max} alert subscriptions, the most one person may have on this server`,
    'Remove one you no longer need, or change an existing one (a subscription can cover several channels). An administrator sets the limit with ALERT_MAX_SUBSCRIPTIONS_PER_USER.',
  );
}

function testTooSoon(retryAfterMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ApiError(
    429,
    'test_too_soon',
    `A test alert was sent to this destination less than a minute ago; the next one can go in ${seconds} s`,
    'One test alert a minute per destination: wait, then send again.',
    { 'retry-after': String(seconds) },
  );
}

function tooManyWaiting(): ApiError {
  return new ApiError(
    409,
    'too_many_pending',
    `This destination has ${MAX_PENDING_PER_SUBSCRIPTION} deliveries waiting to be sent already; no more are queued until some are delivered or given up`,
    'Check that the receiver is up (the deliveries list shows its last error); waiting deliveries are retried for 24 hours.',
  );
}

/** A destination a test was not queued for, and why. */
export interface SkippedTest {
  subscription_id: number | null;
  code: 'test_too_soon' | 'too_many_pending';
  retry_after_seconds?: number;
}

/**
 * Queue test deliveries within the bounds: per destination, only when its minute is over and (for
 * a subscription) fewer than MAX_PENDING_PER_SUBSCRIPTION of its deliveries wait. One destination
 * asked for (`single`) and refused: that refusal (429 with Retry-After, or 409). Several: the
 * allowed ones are queued and the others listed; none allowed: the refusal of the first.
 */
export async function queueTests(
  store: AlertStore,
  list: readonly NewDelivery[],
  at: Date,
): Promise<{ ids: string[]; skipped: SkippedTest[] } | ApiError> {
  const subscriptionIds = list.flatMap((d) =>
    d.subscription_id === null ? [] : [d.subscription_id],
  );
  const counts = await store.deliveryCounts(subscriptionIds);
  const allowed: NewDelivery[] = [];
  const skipped: SkippedTest[] = [];
  const refusals: ApiError[] = [];
  // team destinations share one turn
  let teamTurn: Awaited<ReturnType<AlertStore['takeTestTurn']>> | undefined;
  for (const delivery of list) {
    const sub = delivery.subscription_id;
    if (sub !== null && (counts.get(sub)?.waiting ?? 0) >= MAX_PENDING_PER_SUBSCRIPTION) {
      skipped.push({ subscription_id: sub, code: 'too_many_pending' });
      refusals.push(tooManyWaiting());
      continue;
    }
    const turn =
      sub === null
        ? (teamTurn ??= await store.takeTestTurn('team', at, TEST_INTERVAL_MS))
        : await store.takeTestTurn(sub, at, TEST_INTERVAL_MS);
    if (!turn.granted) {
      const seconds = Math.ceil(turn.retryAfterMs / 1000);
      skipped.push({ subscription_id: sub, code: 'test_too_soon', retry_after_seconds: seconds });
      refusals.push(testTooSoon(turn.retryAfterMs));
      continue;
    }
    allowed.push(delivery);
  }
  const [first] = refusals;
  if (allowed.length === 0 && first) return first;
  // the store keeps the cap too: a delivery queued meanwhile by a poll is counted there
  const ids = await store.enqueue(allowed, at);
  if (ids.length === 0 && allowed.length > 0) return tooManyWaiting();
  return { ids, skipped };
}

/** The user's subscriptions with their waiting and not-queued deliveries, for GET /alerts. */
export async function withDeliveryCounts(store: AlertStore, subscriptions: Subscription[]) {
  const counts = await store.deliveryCounts(subscriptions.map((sub) => sub.id));
  return subscriptions.map((sub) => ({
    ...sub,
    deliveries_waiting: counts.get(sub.id)?.waiting ?? 0,
    deliveries_not_queued: counts.get(sub.id)?.notQueued ?? 0,
  }));
}
