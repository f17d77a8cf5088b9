/**
 * The proxy's alert routes (docs/alerts.md): settings and the user's subscriptions, deliveries, and
 * the actions of the Alerts page, each answer parsed with the routes' contract
 * (src/lib/alerts/contract.ts).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  alertsOverviewSchema,
  deliveryListSchema,
  deliverySchema,
  pollResultSchema,
  removedSchema,
  subscriptionSchema,
  testAnswerSchema,
  type ListedSubscription,
  type SubscriptionInput,
} from '../../../lib/alerts/contract.ts';
import { apiGet, apiPost, apiPut, parseBody } from '../../../lib/api-client.ts';

export { SEVERITIES } from '../../../lib/alerts/contract.ts';
export type {
  AlertsOverview,
  Delivery,
  Severity,
  SubscriptionInput,
} from '../../../lib/alerts/contract.ts';
/** A subscription as the page lists it. */
export type Subscription = ListedSubscription;

const ROOT = ['alerts'] as const;
const alertKeys = {
  overview: () => [...ROOT, 'overview'] as const,
  deliveries: () => [...ROOT, 'deliveries'] as const,
};

export function useAlertsOverview() {
  return useQuery({
    queryKey: alertKeys.overview(),
    queryFn: async ({ signal }) =>
      parseBody(alertsOverviewSchema, await apiGet('/api/local/alerts', {}, { signal }), 'alerts'),
  });
}

export function useDeliveries() {
  return useQuery({
    queryKey: alertKeys.deliveries(),
    queryFn: async ({ signal }) =>
      parseBody(
        deliveryListSchema,
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
  return useAlertMutation(async (id: number) =>
    parseBody(
      removedSchema,
      await apiPost(`/api/local/alerts/subscriptions/${id}/remove`, {}),
      'the removal',
    ),
  );
}

export function usePollNow() {
  return useAlertMutation(async () =>
    parseBody(pollResultSchema, await apiPost('/api/local/alerts/poll', {}), 'the poll'),
  );
}

export function useSendTest() {
  return useAlertMutation(async (subscriptionId?: number) =>
    parseBody(
      testAnswerSchema,
      await apiPost(
        '/api/local/alerts/test',
        subscriptionId === undefined ? {} : { subscription_id: subscriptionId },
      ),
      'the test alert',
    ),
  );
}

export function useResend() {
  return useAlertMutation(async (id: string) =>
    parseBody(
      deliverySchema,
      await apiPost(`/api/local/alerts/deliveries/${encodeURIComponent(id)}/resend`, {}),
      'the delivery',
    ),
  );
}
