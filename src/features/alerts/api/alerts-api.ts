/**
 * The proxy's alert routes (docs/alerts.md): settings and the user's subscriptions, deliveries, and
 * the actions of the Alerts page, each answer read with zod.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet, apiPost, apiPut, parseBody } from '../../../lib/api-client.ts';
import { CHANNELS } from '../../../lib/service/index.ts';

const ROOT = ['alerts'] as const;
const alertKeys = {
  overview: () => [...ROOT, 'overview'] as const,
  deliveries: () => [...ROOT, 'deliveries'] as const,
};

export const SEVERITIES = ['all', 'attention', 'fails'] as const;
export type Severity = (typeof SEVERITIES)[number];

const subscriptionSchema = z.object({
  id: z.number(),
  kind: z.enum(['email', 'webhook']),
  target: z.string(),
  channels: z.array(z.enum(CHANNELS)),
  severity: z.enum(SEVERITIES),
  schedule: z.enum(['immediate', 'daily']),
  digest_time: z.string().nullable(),
  time_zone: z.string().nullable(),
  created_at: z.string(),
  /** whose it is, and whether it is the signed-in user's (an admin sees everyone's); older proxies: absent */
  user: z.string().optional(),
  mine: z.boolean().optional(),
  /** deliveries waiting to be sent, and those not queued because too many were waiting */
  deliveries_waiting: z.number().optional(),
  deliveries_not_queued: z.number().optional(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;
export type SubscriptionInput = Omit<
  Subscription,
  'id' | 'created_at' | 'user' | 'mine' | 'deliveries_waiting' | 'deliveries_not_queued'
>;

const overviewSchema = z.object({
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
  team_destinations: z.array(z.object({ kind: z.enum(['email', 'webhook']), target: z.string() })),
  subscriptions: z.array(subscriptionSchema),
  /** the server's bounds (docs/alerts.md "Bounds"); absent from older proxies */
  limits: z
    .object({
      subscriptions_per_user: z.number(),
      waiting_per_subscription: z.number(),
      test_interval_seconds: z.number(),
    })
    .optional(),
});
export type AlertsOverview = z.infer<typeof overviewSchema>;

const deliverySchema = z.object({
  id: z.string(),
  /** null: a team destination's; `owner` null with an id: a subscription removed since */
  subscription_id: z.number().nullable().optional(),
  owner: z.string().nullable().optional(),
  mine: z.boolean().optional(),
  source: z.string(),
  /** `standing`: decisions whose standing a policy save changed */
  type: z.enum(['changes', 'test', 'standing', 'checkpoint']),
  kind: z.enum(['email', 'webhook']),
  target: z.string(),
  state: z.enum(['pending', 'sending', 'delivered', 'failed']),
  attempts: z.number(),
  next_attempt_at: z.string().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
  carriers: z.number(),
  changes: z.number(),
  /** the message's subject (its worst news and whose it is); absent from older proxies */
  summary: z.string().optional(),
});
export type Delivery = z.infer<typeof deliverySchema>;

const pollSchema = z.object({
  new_changes: z.number(),
  deliveries_queued: z.number(),
  baseline: z.boolean(),
  recorded: z.number(),
  /** decisions whose standing a policy save changed, announced by this poll (older proxies: none) */
  standing_announced: z.number().optional(),
});

export function useAlertsOverview() {
  return useQuery({
    queryKey: alertKeys.overview(),
    queryFn: async ({ signal }) =>
      parseBody(overviewSchema, await apiGet('/api/local/alerts', {}, { signal }), 'alerts'),
  });
}

export function useDeliveries() {
  return useQuery({
    queryKey: alertKeys.deliveries(),
    queryFn: async ({ signal }) =>
      parseBody(
        z.object({ deliveries: z.array(deliverySchema) }),
        await apiGet('/api/local/alerts/deliveries', {}, { signal }),
        'deliveries',
      ).deliveries,
    // deliveries change state by themselves (sent, retried) while the page is open
    refetchInterval: 5000,
  });
}

/** A mutation that refreshes the page's data when it settles. */
function useAlertMutation<I, O>(run: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => client.invalidateQueries({ queryKey: ROOT }),
  });
}

export function useSaveSubscription() {
  return useAlertMutation(async (input: SubscriptionInput & { id?: number }) => {
    const { id, ...body } = input;
    const answer =
      id === undefined
        ? await apiPost('/api/local/alerts/subscriptions', body)
        : await apiPut(`/api/local/alerts/subscriptions/${id}`, body);
    return parseBody(subscriptionSchema, answer, 'the subscription');
  });
}

export function useRemoveSubscription() {
  return useAlertMutation((id: number) =>
    apiPost(`/api/local/alerts/subscriptions/${id}/remove`, {}),
  );
}

export function usePollNow() {
  return useAlertMutation(async () =>
    parseBody(pollSchema, await apiPost('/api/local/alerts/poll', {}), 'the poll'),
  );
}

export function useSendTest() {
  return useAlertMutation(async (subscriptionId?: number) =>
    parseBody(
      z.object({
        deliveries_queued: z.number(),
        /** destinations left out: tested less than a minute ago, or too many waiting */
        skipped: z
          .array(z.object({ code: z.string(), subscription_id: z.number().nullable() }))
          .optional(),
      }),
      await apiPost(
        '/api/local/alerts/test',
        subscriptionId === undefined ? {} : { subscription_id: subscriptionId },
      ),
      'the test alert',
    ),
  );
}

export function useResend() {
  return useAlertMutation((id: string) =>
    apiPost(`/api/local/alerts/deliveries/${encodeURIComponent(id)}/resend`, {}),
  );
}
