/**
 * The alert store's model and decisions, with no database: its shapes (changes seen,
 * subscriptions, deliveries and their payloads), which deliveries the per-subscription bound
 * admits, when a delivery gives up, and how long until a destination's next "send test".
 */
import type { Channel } from '../../../src/lib/service/channels.ts';
import type { Severity } from '../../../src/lib/alerts/contract.ts';
import type { Checkpoint } from '../vetting/receipts.ts';

// the severities are the alert routes' contract's (src/lib/alerts/contract.ts)
export type { Severity };

export type Impact = 'fails' | 'needs-review';
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
  /** `standing`: policy-change announcements only; `checkpoint`: the daily checkpoint only */
  type: 'changes' | 'test' | 'standing' | 'checkpoint';
  carriers: CarrierSection[];
  /** the decision record's signed checkpoint (../vetting/receipts.ts): digests and the daily one */
  checkpoint?: Checkpoint;
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
 * At most this many deliveries of one subscription wait (`pending` or `sending`) at a time; beyond
 * it a new one is not queued (counted in `alert_state` as `not_queued:<id>`). A dead receiver of an
 * immediate subscription collects at most one delivery a poll (96 a day at the default interval)
 * while it is retried for 24 hours, so 100 keeps every real alert of a day and bounds a flood.
 */
export const MAX_PENDING_PER_SUBSCRIPTION = 100;

/** When a delivery queued (or sent again) at `at` gives up. */
export function giveUpAt(at: Date): string {
  return new Date(at.getTime() + GIVE_UP_AFTER_MS).toISOString();
}

/** The subscriptions the deliveries are for, each once, in ascending order (the lock order). */
export function subscriptionIdsOf(list: readonly NewDelivery[]): number[] {
  return [
    ...new Set(list.flatMap((d) => (d.subscription_id === null ? [] : [d.subscription_id]))),
  ].sort((a, b) => a - b);
}

/**
 * The deliveries queued, in order: those of no subscription, and a subscription's while it has
 * fewer than `max` waiting (counting those admitted before them); and per subscription how many
 * were left out.
 */
export function admitDeliveries(
  list: readonly NewDelivery[],
  waitingBefore: ReadonlyMap<number, number>,
  max: number,
): { admitted: NewDelivery[]; notQueued: Map<number, number> } {
  const waiting = new Map(waitingBefore);
  const notQueued = new Map<number, number>();
  const admitted: NewDelivery[] = [];
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
    admitted.push(delivery);
  }
  return { admitted, notQueued };
}

/** A failed attempt's state: pending again at `next`, or failed once past its give-up time. */
export function stateAfterFailure(next: Date, giveUp: string | undefined): DeliveryState {
  return giveUp === undefined || next.toISOString() > giveUp ? 'failed' : 'pending';
}

/** Milliseconds until the next "send test" turn after one at `last` (ISO; unknown: a full interval). */
export function testRetryAfterMs(last: string | undefined, at: Date, intervalMs: number): number {
  const lastMs = Date.parse(last ?? '');
  const retryAfterMs = Number.isNaN(lastMs) ? intervalMs : lastMs + intervalMs - at.getTime();
  return Math.max(1000, retryAfterMs);
}
