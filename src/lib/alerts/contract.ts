/**
 * The alert routes' contract (docs/alerts.md): what the Alerts page sends to /api/local/alerts* and
 * what the proxy answers, as zod schemas both sides import. The proxy reads request bodies with the
 * input schemas (their messages are the 400s it sends); the page parses every answer with the
 * answer schemas. Runtime-neutral: zod and `Intl` only.
 */
import { z } from 'zod';
import { defineRoute, errors, STORAGE_UNAVAILABLE } from '../api/route-contract.ts';
import { CHANNELS } from '../service/channels.ts';

/** all changes; approved carriers now failing or needing review; approved carriers now failing */
export const SEVERITIES = ['all', 'attention', 'fails'] as const;
export type Severity = (typeof SEVERITIES)[number];

const DESTINATION_KINDS = ['email', 'webhook'] as const;
const SCHEDULES = ['immediate', 'daily'] as const;
const DELIVERY_STATES = ['pending', 'sending', 'delivered', 'failed'] as const;
/** `standing`: policy-change announcements only; `checkpoint`: the daily checkpoint only */
const PAYLOAD_TYPES = ['changes', 'test', 'standing', 'checkpoint'] as const;

/** Most addresses one e-mail subscription sends to. */
const MAX_EMAILS = 10;
const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function webhookUrl(target: string): boolean {
  try {
    const url = new URL(target);
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password
    );
  } catch {
    return false;
  }
}

// ---- requests -------------------------------------------------------------------------------

/**
 * The body of `POST /api/local/alerts/subscriptions` and `PUT …/subscriptions/:id`. Each message
 * is the `error` of the 400 the proxy sends; the code is `invalid_<member>` (parse-input.ts).
 */
export const subscriptionInputSchema = z
  .strictObject(
    {
      kind: z.enum(DESTINATION_KINDS, { error: '"kind" must be email or webhook' }),
      target: z
        .string({ error: '"target" must be text' })
        .trim()
        .min(1, { error: '"target" is empty' })
        .max(2000, { error: '"target" is longer than 2,000 characters' }),
      channels: z
        .array(z.enum(CHANNELS, { error: `each channel must be one of ${CHANNELS.join(', ')}` }), {
          error: '"channels" must be a list of channels',
        })
        .min(1, { error: 'choose at least one channel' })
        .transform((list) => [...new Set(list)]),
      severity: z.enum(SEVERITIES, { error: `"severity" must be one of ${SEVERITIES.join(', ')}` }),
      schedule: z.enum(SCHEDULES, { error: '"schedule" must be immediate or daily' }),
      digest_time: z
        .string()
        .regex(HHMM, { error: '"digest_time" must be HH:MM (24-hour)' })
        .nullable()
        .optional(),
      time_zone: z
        .string()
        .max(64)
        .refine(validZone, { error: '"time_zone" is not a known time zone (e.g. America/Chicago)' })
        .nullable()
        .optional(),
    },
    { error: 'The body must be a JSON object' },
  )
  .superRefine((body, ctx) => {
    if (body.kind === 'email') {
      const list = body.target.split(',').map((entry) => entry.trim());
      if (list.length > MAX_EMAILS || list.some((entry) => !EMAIL.test(entry))) {
        ctx.addIssue({
          code: 'custom',
          path: ['target'],
          message: `"target" must be 1 to ${MAX_EMAILS} e-mail addresses, comma-separated`,
        });
      }
    } else if (!webhookUrl(body.target)) {
      ctx.addIssue({
        code: 'custom',
        path: ['target'],
        message: '"target" must be an http(s) URL without credentials',
      });
    }
    if (body.schedule === 'daily' && !body.digest_time) {
      ctx.addIssue({
        code: 'custom',
        path: ['digest_time'],
        message: 'a daily digest needs "digest_time" (HH:MM)',
      });
    }
  });
/** A subscription as the page sends it. */
export type SubscriptionInput = z.input<typeof subscriptionInputSchema>;

export const SUBSCRIPTION_HINT =
  'Send {"kind": "email"|"webhook", "target", "channels": [...], "severity": "all"|"attention"|"fails", "schedule": "immediate"|"daily", "digest_time"?: "08:00", "time_zone"?: "America/Chicago"}.';

/** The body of `POST /api/local/alerts/test`: every destination of the user, or one. */
const testInputSchema = z.strictObject(
  { subscription_id: z.number({ error: '"subscription_id" must be a number' }).int().optional() },
  { error: 'The body must be a JSON object' },
);

export const TEST_HINT = 'Send {} (every destination) or {"subscription_id": 3}.';

// ---- answers --------------------------------------------------------------------------------

const destinationKindSchema = z.enum(DESTINATION_KINDS);

/**
 * A subscription as stored: the answer of `POST …/subscriptions` (201) and `PUT …/subscriptions/:id`.
 * `user` is its owner; `last_digest_at` when its last daily digest was queued.
 */
export const subscriptionSchema = z.object({
  id: z.number(),
  user: z.string(),
  kind: destinationKindSchema,
  target: z.string(),
  channels: z.array(z.enum(CHANNELS)),
  severity: z.enum(SEVERITIES),
  schedule: z.enum(SCHEDULES),
  digest_time: z.string().nullable(),
  time_zone: z.string().nullable(),
  last_digest_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type StoredSubscription = z.infer<typeof subscriptionSchema>;

/**
 * A subscription in `GET /api/local/alerts`: `mine` says whether it is the signed-in user's (an
 * admin sees everyone's, another's webhook shown as its origin); the deliveries waiting to be
 * sent, and those not queued because too many were waiting.
 */
const listedSubscriptionSchema = subscriptionSchema.extend({
  mine: z.boolean(),
  deliveries_waiting: z.number(),
  deliveries_not_queued: z.number(),
});
export type ListedSubscription = z.infer<typeof listedSubscriptionSchema>;

/** `GET /api/local/alerts`: the poll's state, what the server can send, the subscriptions. */
export const alertsOverviewSchema = z.object({
  poll: z.object({
    interval_seconds: z.number(),
    last_poll_at: z.string().nullable(),
    next_poll_at: z.string().nullable(),
    baseline_done: z.boolean(),
    failures: z.number(),
    backing_off_until: z.string().nullable(),
  }),
  email_available: z.boolean(),
  webhook_available: z.boolean(),
  /** the environment's destinations, masked */
  team_destinations: z.array(z.object({ kind: destinationKindSchema, target: z.string() })),
  subscriptions: z.array(listedSubscriptionSchema),
  /** the server's bounds (docs/alerts.md "Bounds") */
  limits: z.object({
    subscriptions_per_user: z.number(),
    waiting_per_subscription: z.number(),
    test_interval_seconds: z.number(),
  }),
});
export type AlertsOverview = z.infer<typeof alertsOverviewSchema>;

/**
 * A delivery as the page sees it: the destination masked as the viewer may see it, the payload
 * summarised. `subscription_id` null: a team destination's; `owner` null with an id: a
 * subscription removed since. Also the answer of `POST …/deliveries/:id/resend`.
 */
export const deliverySchema = z.object({
  id: z.string(),
  subscription_id: z.number().nullable(),
  owner: z.string().nullable(),
  mine: z.boolean(),
  /** `env` (the team destinations), `subscription` or `test` */
  source: z.string(),
  type: z.enum(PAYLOAD_TYPES),
  kind: destinationKindSchema,
  target: z.string(),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number(),
  next_attempt_at: z.string().nullable(),
  give_up_at: z.string(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
  /** carriers and changes it announces */
  carriers: z.number(),
  changes: z.number(),
  /** decisions whose standing a policy save changed, and decisions due for re-vetting */
  decisions: z.number(),
  revet_due: z.number(),
  /** the message's subject: its worst news and whose it is */
  summary: z.string(),
  /** the first 20 carriers' profile ids */
  profile_ids: z.array(z.string()),
});
export type Delivery = z.infer<typeof deliverySchema>;

/** `GET /api/local/alerts/deliveries`: the newest 200 the viewer may see. */
export const deliveryListSchema = z.object({ deliveries: z.array(deliverySchema) });

/** `POST /api/local/alerts/subscriptions/:id/remove`. */
export const removedSchema = z.object({ removed: z.number() });

/** `POST /api/local/alerts/poll`. */
export const pollResultSchema = z.object({
  /** changes seen for the first time and announced (0 on the first poll: recorded only) */
  new_changes: z.number(),
  deliveries_queued: z.number(),
  /** true on the first poll of a new database: the changes there were recorded as seen */
  baseline: z.boolean(),
  /** changes recorded as seen by this poll */
  recorded: z.number(),
  /** decisions whose standing a policy save changed, announced by this poll */
  standing_announced: z.number(),
});
export type PollResult = z.infer<typeof pollResultSchema>;

/** `POST /api/local/alerts/test` (202): what was queued, and the destinations left out. */
export const testAnswerSchema = z.object({
  deliveries_queued: z.number(),
  ids: z.array(z.string()),
  /** tested less than a minute ago, or too many deliveries waiting */
  skipped: z.array(
    z.object({
      subscription_id: z.number().nullable(),
      code: z.enum(['test_too_soon', 'too_many_pending']),
      retry_after_seconds: z.number().optional(),
    }),
  ),
});

// ---- routes ---------------------------------------------------------------------------------

const TAG = 'Alerts';
const SUBSCRIPTION_ERRORS = [
  'invalid_body',
  'unknown_field',
  'invalid_kind',
  'invalid_target',
  'invalid_channels',
  'invalid_severity',
  'invalid_schedule',
  'invalid_digest_time',
  'invalid_time_zone',
  'webhook_target_refused',
] as const;
const subscriptionParams = z.object({
  id: z.string().meta({ description: 'the subscription’s id' }),
});

export const alertsOverviewRoute = defineRoute({
  method: 'GET',
  path: '/api/local/alerts',
  tag: TAG,
  summary: 'The alert poll’s state, what this server can send, and the subscriptions you see',
  description:
    'Your own subscriptions; an admin sees everyone’s (another’s webhook as its origin).',
  responses: { 200: alertsOverviewSchema, 503: STORAGE_UNAVAILABLE },
});

export const deliveriesRoute = defineRoute({
  method: 'GET',
  path: '/api/local/alerts/deliveries',
  tag: TAG,
  summary: 'The newest 200 deliveries you may see, newest first',
  description:
    'A non-admin sees the team’s and their own subscriptions’, others’ addresses masked.',
  responses: { 200: deliveryListSchema, 503: STORAGE_UNAVAILABLE },
});

export const createSubscriptionRoute = defineRoute({
  method: 'POST',
  path: '/api/local/alerts/subscriptions',
  tag: TAG,
  summary: 'Subscribe an e-mail list or a webhook to changes of watched carriers',
  body: subscriptionInputSchema,
  responses: {
    201: subscriptionSchema,
    400: errors(...SUBSCRIPTION_ERRORS),
    409: errors('email_unavailable', 'webhook_signing_unavailable', 'too_many_subscriptions'),
    503: STORAGE_UNAVAILABLE,
  },
});

export const updateSubscriptionRoute = defineRoute({
  method: 'PUT',
  path: '/api/local/alerts/subscriptions/:id',
  tag: TAG,
  summary: 'Change a subscription (yours; an admin: anyone’s)',
  params: subscriptionParams,
  body: subscriptionInputSchema,
  responses: {
    200: subscriptionSchema,
    400: errors(...SUBSCRIPTION_ERRORS),
    404: errors('unknown_subscription'),
    409: errors('email_unavailable', 'webhook_signing_unavailable'),
    503: STORAGE_UNAVAILABLE,
  },
});

export const removeSubscriptionRoute = defineRoute({
  method: 'POST',
  path: '/api/local/alerts/subscriptions/:id/remove',
  tag: TAG,
  summary: 'Remove a subscription (yours; an admin: anyone’s)',
  params: subscriptionParams,
  responses: { 200: removedSchema, 404: errors('unknown_subscription'), 503: STORAGE_UNAVAILABLE },
});

export const pollRoute = defineRoute({
  method: 'POST',
  path: '/api/local/alerts/poll',
  tag: TAG,
  summary: 'Poll the monitoring list now and queue the alerts its new changes cause',
  description: 'The first poll of a new database records the changes there as seen (`baseline`).',
  responses: {
    200: pollResultSchema,
    429: errors('poll_backing_off', 'poll_failed'),
    502: errors('poll_failed'),
    503: STORAGE_UNAVAILABLE,
  },
});

export const resendRoute = defineRoute({
  method: 'POST',
  path: '/api/local/alerts/deliveries/:id/resend',
  tag: TAG,
  summary: 'Send a delivery again, under the same idempotency id',
  params: z.object({ id: z.string().meta({ description: 'the delivery’s id' }) }),
  responses: {
    200: deliverySchema,
    404: errors('unknown_delivery'),
    409: errors('delivery_in_progress'),
    503: STORAGE_UNAVAILABLE,
  },
});

export const testAlertRoute = defineRoute({
  method: 'POST',
  path: '/api/local/alerts/test',
  tag: TAG,
  summary: 'Queue a test alert to one of your subscriptions, or to each (an admin: and the team’s)',
  description: 'One test a minute per destination; a destination with 100 deliveries waiting none.',
  // no body: every destination, as {}
  body: testInputSchema.optional(),
  responses: {
    202: testAnswerSchema,
    400: errors('invalid_body', 'unknown_field', 'invalid_subscription_id'),
    404: errors('unknown_subscription'),
    409: errors('no_destinations', 'too_many_pending'),
    429: errors('test_too_soon'),
    503: STORAGE_UNAVAILABLE,
  },
});
