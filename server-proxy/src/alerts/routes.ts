/**
 * The alert routes under /api/local/alerts (docs/alerts.md): settings and subscriptions, polls,
 * deliveries, "send again" and test alerts. Governance's hooks run first: `request.user` is set and
 * every write carries the CSRF header from the same origin. No answer carries a secret: SMTP_URL
 * and the signing key are never returned, and webhook addresses are shown without their path.
 */
import type Database from 'better-sqlite3';
import { refuse, storageGuard } from '../http/storage-unavailable.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  SUBSCRIPTION_HINT,
  TEST_HINT,
  alertsOverviewRoute,
  createSubscriptionRoute,
  deliveriesRoute,
  pollRoute,
  removeSubscriptionRoute,
  resendRoute,
  testAlertRoute,
  updateSubscriptionRoute,
  type subscriptionInputSchema,
  type AlertsOverview,
  type Delivery as DeliveryAnswer,
} from '../../../src/lib/alerts/contract.ts';
import type { ProxyConfig } from '../context.ts';
import { mayActOn, roleOf } from '../governance/roles.ts';
import { ApiError, sendApiError } from '../http/api-error.ts';
import { contractRoute } from '../http/contract-route.ts';
import type { InputWording } from '../http/parse-input.ts';
import type { MirrorClient } from '../routes/mirror.ts';
import { sqlChainReader } from '../vetting/chain-reader.ts';
import { issueCheckpoint } from '../vetting/receipts.ts';
import type { SigningKey } from '../vetting/signing.ts';
import { createVettingSqlStore } from '../vetting/store.ts';
import { DEFAULT_MAX_SUBSCRIPTIONS_PER_USER, type AlertsConfig } from './config.ts';
import { webhookRefusal, type Resolve } from './webhook-guard.ts';
import { Outbox } from './outbox.ts';
import { Poller, type TeamDestination } from './poller.ts';
import { createSender, maskTarget, type Sender } from './sender.ts';
import { subjectOf } from './render.ts';
import { maskText, revealFor, shownTarget, type Reveal } from './visibility.ts';
import {
  TEST_INTERVAL_MS,
  queueTests,
  tooManySubscriptions,
  withDeliveryCounts,
} from './bounds.ts';
import {
  MAX_PENDING_PER_SUBSCRIPTION,
  createAlertStore,
  type AlertStore,
  type Delivery,
  type NewDelivery,
  type Subscription,
  type SubscriptionInput,
} from './store.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { guardWrites } from '../sql/write-guard.ts';
import { createCarrierNameStore } from '../names/store.ts';

export interface AlertRouteDeps {
  config: ProxyConfig;
  db: Database.Database;
  /** where this state lives: PostgreSQL with DATABASE_URL (default: SQLite over `db`) */
  sql?: SqlEngine;
  mirror: MirrorClient;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  now?: () => Date;
  /** tests: another sender, a shorter retry */
  send?: Sender;
  retryBaseMs?: number;
  /** tests: a stand-in DNS for webhook hosts (webhook-guard.ts) */
  resolve?: Resolve;
  /** tests: the poller lease's TTL (default: from the poll interval, poller.ts) */
  leaseTtlMs?: number;
  /** the decision record's signing key: digests and the daily team message carry a checkpoint */
  signingKey?: SigningKey;
}

export interface AlertService {
  store: AlertStore;
  poller: Poller;
  outbox: Outbox;
}

const SUBSCRIPTION_WORDING: InputWording = {
  hint: SUBSCRIPTION_HINT,
  unknown: { code: 'unknown_field', message: (key) => `Unknown member "${key}"` },
};

const TEST_WORDING: InputWording = {
  hint: TEST_HINT,
  unknown: { code: 'unknown_field', message: (key) => `Unknown member "${key}"` },
};

function userOf(request: FastifyRequest): string {
  return request.user?.id ?? 'local';
}

function teamOf(alerts: AlertsConfig): TeamDestination[] {
  const team: TeamDestination[] = [];
  if (alerts.emailTo.length > 0) team.push({ kind: 'email', target: alerts.emailTo.join(', ') });
  if (alerts.webhookUrl) team.push({ kind: 'webhook', target: alerts.webhookUrl });
  return team;
}

/**
 * A delivery as the browser sees it: the destination shown as `reveal` says (visibility.ts; a
 * webhook always as its origin), the payload summarised, `owner` the user whose subscription it
 * is for (null: the team destinations, or a subscription removed since).
 */
function deliveryView(
  delivery: Delivery & { owner?: string | null },
  reveal: Reveal,
  viewer?: string,
): DeliveryAnswer {
  const carriers = delivery.payload.carriers;
  const owner = delivery.owner ?? null;
  return {
    id: delivery.id,
    subscription_id: delivery.subscription_id,
    owner,
    /** for one of the viewer's own subscriptions */
    mine: owner !== null && owner === viewer,
    source: delivery.source,
    type: delivery.payload.type,
    kind: delivery.kind,
    target: shownTarget(delivery.kind, delivery.target, reveal),
    state: delivery.state,
    attempts: delivery.attempts,
    next_attempt_at: delivery.state === 'pending' ? delivery.next_attempt_at : null,
    give_up_at: delivery.give_up_at,
    last_error:
      reveal === 'full' || delivery.last_error === null
        ? delivery.last_error
        : maskText(delivery.last_error),
    created_at: delivery.created_at,
    delivered_at: delivery.delivered_at,
    carriers: carriers.length,
    changes: carriers.reduce((sum, carrier) => sum + carrier.changes.length, 0),
    /** decisions whose standing a policy save changed, and decisions due for re-vetting */
    decisions: delivery.payload.standing?.length ?? 0,
    revet_due: delivery.payload.revet_due?.length ?? 0,
    /** the message's subject: its worst news and whose it is (render.ts) */
    summary: subjectOf(delivery.payload),
    profile_ids: carriers.slice(0, 20).map((carrier) => carrier.profile_id),
  };
}

function unknownSubscription(id: string): ApiError {
  return new ApiError(
    404,
    'unknown_subscription',
    `No subscription ${id.slice(0, 20)} of yours`,
    'GET /api/local/alerts lists your subscriptions.',
  );
}

function unavailable(kind: 'email' | 'webhook'): ApiError {
  return kind === 'email'
    ? new ApiError(
        409,
        'email_unavailable',
        'E-mail alerts are not configured on this server',
        'Ask an administrator to set SMTP_URL (and ALERT_FROM).',
      )
    : new ApiError(
        409,
        'webhook_signing_unavailable',
        'Webhook alerts need a signing key on the server',
        'Ask an administrator to set ALERT_WEBHOOK_SECRET: every webhook is signed with it.',
      );
}

class AlertRoutes {
  readonly store: AlertStore;
  readonly poller: Poller;
  readonly outbox: Outbox;
  readonly alerts: AlertsConfig;
  readonly team: TeamDestination[];

  constructor(private readonly deps: AlertRouteDeps) {
    this.alerts = deps.config.alerts ?? { pollIntervalSeconds: 0, emailTo: [], webhookHosts: [] };
    this.team = teamOf(this.alerts);
    const sql = deps.sql ?? createSqliteEngine(deps.db);
    this.store = createAlertStore(sql, guardWrites(sql, deps.db), {
      // a flood (or a receiver down for long) is bounded per subscription: say so in the log
      onNotQueued: (subscriptionId, count) =>
        deps.log.warn(
          { subscription_id: subscriptionId, not_queued: count, max: MAX_PENDING_PER_SUBSCRIPTION },
          'alerts: deliveries not queued: the subscription has the most waiting already',
        ),
    });
    const publicUrl =
      deps.config.publicUrl ?? `http://${hostForUrl(deps.config.host)}:${deps.config.port}`;
    this.outbox = new Outbox({
      store: this.store,
      send:
        deps.send ??
        createSender({ alerts: this.alerts, publicUrl, now: deps.now, resolve: deps.resolve }),
      log: deps.log,
      // on SQLite this process is the file's only user; on PostgreSQL other replicas share it
      exclusive: sql.kind === 'sqlite',
      now: deps.now,
      retryBaseMs: deps.retryBaseMs,
    });
    this.poller = new Poller({
      store: this.store,
      mirror: deps.mirror,
      vetting: createVettingSqlStore(sql),
      names: createCarrierNameStore(sql),
      team: this.team,
      intervalSeconds: this.alerts.pollIntervalSeconds,
      onQueued: () => this.outbox.wake(),
      log: deps.log,
      now: deps.now,
      leaseTtlMs: deps.leaseTtlMs,
      ...(deps.signingKey && { checkpoint: checkpointer(deps.signingKey, sql) }),
    });
  }

  now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  get resolve(): Resolve | undefined {
    return this.deps.resolve;
  }

  available(kind: 'email' | 'webhook'): boolean {
    return kind === 'email' ? Boolean(this.alerts.smtpUrl) : Boolean(this.alerts.webhookSecret);
  }

  /**
   * The page's settings and the subscriptions the request's user sees: their own, an admin every
   * one (each with `user`, its owner, and `mine`; another's webhook shown as its origin).
   */
  async overview(request: FastifyRequest): Promise<AlertsOverview> {
    const user = userOf(request);
    const admin = roleOf(request) === 'admin';
    const [lastPollAt, baselineDone, subscriptions] = await Promise.all([
      this.store.state.get('last_poll_at'),
      this.store.state.get('baseline_done'),
      admin ? this.store.allSubscriptions() : this.store.subscriptions(user),
    ]);
    const counted = await withDeliveryCounts(this.store, subscriptions);
    const shown = counted.map((sub) =>
      sub.user === user
        ? { ...sub, mine: true }
        : { ...sub, target: shownTarget(sub.kind, sub.target, 'full'), mine: false },
    );
    return {
      poll: {
        interval_seconds: this.alerts.pollIntervalSeconds,
        last_poll_at: lastPollAt ?? null,
        next_poll_at: this.poller.nextPollAt?.toISOString() ?? null,
        baseline_done: baselineDone === 'true',
        failures: this.poller.consecutiveFailures,
        backing_off_until: this.poller.backingOffUntil?.toISOString() ?? null,
      },
      email_available: this.available('email'),
      webhook_available: this.available('webhook'),
      team_destinations: this.team.map((team) => ({
        kind: team.kind,
        target: maskTarget(team.kind, team.target),
      })),
      subscriptions: shown,
      limits: {
        subscriptions_per_user: this.maxSubscriptions,
        waiting_per_subscription: MAX_PENDING_PER_SUBSCRIPTION,
        test_interval_seconds: TEST_INTERVAL_MS / 1000,
      },
    };
  }

  get maxSubscriptions(): number {
    return this.alerts.maxSubscriptionsPerUser ?? DEFAULT_MAX_SUBSCRIPTIONS_PER_USER;
  }

  /** Subscription `id` if the request's user may act on it (theirs; an admin: any), or a 404. */
  async owned(id: string, request: FastifyRequest): Promise<Subscription | ApiError> {
    const sub = /^\d{1,9}$/.test(id) ? await this.store.subscription(Number(id)) : undefined;
    if (!sub || !mayActOn(request, sub.user)) return unknownSubscription(id);
    return sub;
  }
}

/** Signed checkpoints of the decision record on `sql` (vetting/receipts.ts). */
function checkpointer(key: SigningKey, sql: SqlEngine) {
  const chain = sqlChainReader(sql);
  return (at: Date) => issueCheckpoint(key, chain, at);
}

/** A host as it can appear in a URL (IPv6 in brackets; a wildcard as loopback). */
function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * The subscription to store from a parsed body (the contract read it), or the 409 that says this
 * server cannot send to its kind.
 */
function subscriptionFrom(
  alerts: AlertRoutes,
  value: z.output<typeof subscriptionInputSchema>,
): SubscriptionInput | ApiError {
  if (!alerts.available(value.kind)) return unavailable(value.kind);
  const daily = value.schedule === 'daily';
  return {
    kind: value.kind,
    target: value.target,
    channels: value.channels,
    severity: value.severity,
    schedule: value.schedule,
    digest_time: daily ? (value.digest_time ?? null) : null,
    time_zone: daily ? (value.time_zone ?? 'UTC') : null,
  };
}

/** A page-made webhook to a host it may not reach (webhook-guard.ts): the 400 that says why. */
async function refusedTarget(
  alerts: AlertRoutes,
  input: { kind: 'email' | 'webhook'; target: string },
): Promise<ApiError | undefined> {
  if (input.kind !== 'webhook') return undefined;
  const reason = await webhookRefusal(input.target, alerts.alerts.webhookHosts, alerts.resolve);
  if (!reason) return undefined;
  return new ApiError(
    400,
    'webhook_target_refused',
    reason,
    alerts.alerts.webhookHosts.length > 0
      ? 'Use a host on the list, or ask an administrator to add yours to ALERT_WEBHOOK_HOSTS.'
      : 'Use a public https address (a chat or incident tool), or ask an administrator to allow an internal host with ALERT_WEBHOOK_HOSTS.',
  );
}

/** A refusing database is answered 503 `storage_unavailable` (http/storage-unavailable.ts). */
const answering = storageGuard('alerts');

const WORDING = { body: SUBSCRIPTION_WORDING };

function registerSubscriptions(app: FastifyInstance, alerts: AlertRoutes) {
  contractRoute(app, alertsOverviewRoute, {}, (request, reply) =>
    answering(request, reply, async () => {
      reply.header('cache-control', 'private, no-store');
      return alerts.overview(request);
    }),
  );

  contractRoute(app, createSubscriptionRoute, { wording: WORDING }, (request, reply) =>
    answering(request, reply, async () => {
      const input = subscriptionFrom(alerts, request.body);
      if (input instanceof ApiError) return refuse(reply, input);
      const refused = await refusedTarget(alerts, input);
      if (refused) return refuse(reply, refused);
      const added = await alerts.store.addSubscription(
        userOf(request),
        input,
        alerts.now(),
        alerts.maxSubscriptions,
      );
      if ('refused' in added) return refuse(reply, tooManySubscriptions(alerts.maxSubscriptions));
      return reply.code(201).send(added.subscription);
    }),
  );

  contractRoute(app, updateSubscriptionRoute, { wording: WORDING }, (request, reply) =>
    answering(request, reply, async () => {
      const sub = await alerts.owned(request.params.id, request);
      if (sub instanceof ApiError) return refuse(reply, sub);
      const input = subscriptionFrom(alerts, request.body);
      if (input instanceof ApiError) return refuse(reply, input);
      const refused = await refusedTarget(alerts, input);
      if (refused) return refuse(reply, refused);
      const updated = await alerts.store.updateSubscription(sub.id, input, alerts.now());
      // removed between the look-up and the update: the same 404 as a look-up that finds nothing
      return updated ?? refuse(reply, unknownSubscription(request.params.id));
    }),
  );

  // a POST action like the bulk jobs' (the SPA's API client sends GET, POST and PUT)
  contractRoute(app, removeSubscriptionRoute, {}, (request, reply) =>
    answering(request, reply, async () => {
      const sub = await alerts.owned(request.params.id, request);
      if (sub instanceof ApiError) return refuse(reply, sub);
      await alerts.store.deleteSubscription(sub.id);
      return { removed: sub.id };
    }),
  );
}

/** Test deliveries: one subscription (theirs; an admin: any), or all of theirs (an admin: and the team's). */
async function testDeliveries(
  alerts: AlertRoutes,
  request: FastifyRequest,
  subscriptionId: number | undefined,
): Promise<NewDelivery[] | ApiError> {
  const user = userOf(request);
  const payload = { type: 'test' as const, carriers: [] };
  if (subscriptionId !== undefined) {
    const sub = await alerts.store.subscription(subscriptionId);
    if (!sub || !mayActOn(request, sub.user)) return unknownSubscription(String(subscriptionId));
    return [
      { subscription_id: sub.id, source: 'test', kind: sub.kind, target: sub.target, payload },
    ];
  }
  return [
    ...(roleOf(request) === 'admin' ? alerts.team : []).map((team) => ({
      subscription_id: null,
      source: 'test',
      ...team,
      payload,
    })),
    ...(await alerts.store.subscriptions(user)).map((sub) => ({
      subscription_id: sub.id,
      source: 'test',
      kind: sub.kind,
      target: sub.target,
      payload,
    })),
  ];
}

function registerDeliveries(app: FastifyInstance, alerts: AlertRoutes) {
  contractRoute(app, pollRoute, {}, (request, reply) =>
    answering(request, reply, async () => {
      try {
        return await alerts.poller.poll();
      } catch (err) {
        if (err instanceof ApiError && err.code !== 'storage_unavailable') {
          return refuse(reply, err);
        }
        throw err;
      }
    }),
  );

  contractRoute(app, deliveriesRoute, {}, (request, reply) =>
    answering(request, reply, async () => {
      reply.header('cache-control', 'private, no-store');
      // a non-admin: the team's and their own subscriptions' only, others' addresses masked
      const viewer = { id: userOf(request), admin: roleOf(request) === 'admin' };
      const list = await alerts.store.deliveriesWithOwner(
        200,
        viewer.admin ? undefined : viewer.id,
      );
      return {
        deliveries: list.map((delivery) =>
          deliveryView(delivery, revealFor(viewer, delivery.owner), viewer.id),
        ),
      };
    }),
  );

  contractRoute(app, resendRoute, {}, (request, reply) =>
    answering(request, reply, async () => {
      const { id } = request.params;
      const found = await alerts.store.delivery(id);
      if (!found) return refuse(reply, unknownDelivery(id));
      if (found.state === 'sending') {
        return sendApiError(
          reply,
          new ApiError(
            409,
            'delivery_in_progress',
            'This delivery is being sent now',
            'Wait a moment and look again.',
          ),
        );
      }
      const delivery = await alerts.store.resend(id, alerts.now());
      alerts.outbox.wake();
      // resending is an admin's: the answer shows the destination in full (a webhook: its origin)
      return delivery ? deliveryView(delivery, 'full') : sendApiError(reply, unknownDelivery(id));
    }),
  );

  contractRoute(app, testAlertRoute, { wording: { body: TEST_WORDING } }, (request, reply) =>
    answering(request, reply, async () => {
      const list = await testDeliveries(alerts, request, request.body?.subscription_id);
      if (list instanceof ApiError) return refuse(reply, list);
      if (list.length === 0) {
        return sendApiError(
          reply,
          new ApiError(
            409,
            'no_destinations',
            'There is no destination to test',
            'Add a subscription first.',
          ),
        );
      }
      // bounded: one test a minute per destination, none past the waiting cap (bounds.ts)
      const queued = await queueTests(alerts.store, list, alerts.now());
      if (queued instanceof ApiError) return refuse(reply, queued);
      alerts.outbox.wake();
      return reply
        .code(202)
        .send({ deliveries_queued: queued.ids.length, ids: queued.ids, skipped: queued.skipped });
    }),
  );
}

function unknownDelivery(id: string): ApiError {
  return new ApiError(
    404,
    'unknown_delivery',
    `No delivery ${id.slice(0, 40)}`,
    'GET /api/local/alerts/deliveries lists them.',
  );
}

/**
 * Register /api/local/alerts*. The outbox and the schedule start when the app is ready and stop
 * before the database closes (their timers are unref'd: they never hold the process open).
 */
export function registerAlertRoutes(app: FastifyInstance, deps: AlertRouteDeps): AlertService {
  const alerts = new AlertRoutes(deps);
  registerSubscriptions(app, alerts);
  registerDeliveries(app, alerts);
  app.addHook('onReady', async () => {
    alerts.outbox.start();
    await alerts.poller.start();
  });
  app.addHook('preClose', async () => {
    await alerts.poller.stop();
    await alerts.outbox.stop();
  });
  return { store: alerts.store, poller: alerts.poller, outbox: alerts.outbox };
}
