/**
 * The proxy's alert answers for tests that stub `fetch`, built with the routes' contract
 * (src/lib/alerts/contract.ts): each factory fills in what a test does not care about and parses
 * the result, so a stub that drifts from what the proxy sends fails where it is built.
 */
import {
  alertsOverviewSchema,
  deliverySchema,
  pollResultSchema,
  subscriptionSchema,
  type AlertsOverview,
  type Delivery,
  type PollResult,
  type StoredSubscription,
  type SubscriptionInput,
} from '../../../lib/alerts/contract.ts';

const AT = '2026-11-26T08:00:00.000Z';

/** `GET /api/local/alerts`: e-mail available, no subscription, the default bounds. */
export function overviewAnswer(over: Partial<AlertsOverview> = {}): AlertsOverview {
  return alertsOverviewSchema.parse({
    poll: {
      interval_seconds: 900,
      last_poll_at: null,
      next_poll_at: null,
      baseline_done: true,
      failures: 0,
      backing_off_until: null,
    },
    email_available: true,
    webhook_available: false,
    team_destinations: [],
    subscriptions: [],
    limits: {
      subscriptions_per_user: 20,
      waiting_per_subscription: 100,
      test_interval_seconds: 60,
    },
    ...over,
  });
}

/** A delivery to the team's webhook, delivered once. */
export function deliveryAnswer(over: Partial<Delivery> = {}): Delivery {
  return deliverySchema.parse({
    id: 'd-1',
    subscription_id: null,
    owner: null,
    mine: false,
    source: 'env',
    type: 'changes',
    kind: 'webhook',
    target: 'https://hooks.example.com/…',
    state: 'delivered',
    attempts: 1,
    next_attempt_at: null,
    give_up_at: '2026-11-27T08:00:00.000Z',
    last_error: null,
    created_at: AT,
    delivered_at: AT,
    carriers: 1,
    changes: 2,
    decisions: 0,
    revet_due: 0,
    summary: 'Insurance cancelled — HANSEN & ADKINS (USDOT 568253) · 2 changes on 1 carrier',
    profile_ids: ['568253-MC277621'],
    ...over,
  });
}

/** The subscription the proxy stores for `input` (the answer of POST and PUT). */
export function subscriptionAnswer(
  input: SubscriptionInput,
  over: Partial<StoredSubscription> = {},
): StoredSubscription {
  const daily = input.schedule === 'daily';
  return subscriptionSchema.parse({
    id: 1,
    user: 'local',
    ...input,
    channels: [...new Set(input.channels)],
    digest_time: daily ? (input.digest_time ?? null) : null,
    time_zone: daily ? (input.time_zone ?? 'UTC') : null,
    last_digest_at: AT,
    created_at: AT,
    updated_at: AT,
    ...over,
  });
}

/** `POST /api/local/alerts/poll`: nothing new. */
export function pollAnswer(over: Partial<PollResult> = {}): PollResult {
  return pollResultSchema.parse({
    new_changes: 0,
    deliveries_queued: 0,
    baseline: false,
    recorded: 0,
    standing_announced: 0,
    ...over,
  });
}
