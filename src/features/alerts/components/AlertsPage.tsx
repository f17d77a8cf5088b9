/**
 * Settings → Alerts: who hears about monitoring changes, how and when. The user's subscriptions
 * (channels, severity, an e-mail or webhook destination, immediately or as a daily digest at a local
 * time), the team destinations set in the server's environment, the scheduled poll with "Poll now",
 * "Send test alert", and the deliveries with their state and "Send again". See docs/alerts.md.
 */
import { useCan, useCanActOn } from '../../../entities/session/role.ts';
import { RoleNote } from '../../../entities/session/RoleNote.tsx';
import { useId, useState, type FormEvent } from 'react';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { BUTTON, INPUT, LABEL, MUTED, PRIMARY_BUTTON } from '../../../components/controls.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryState } from '../../../components/QueryState.tsx';
import { ScrollArea } from '../../../components/ScrollHint.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { CHANNELS, type Channel } from '../../../lib/service/index.ts';
import {
  SEVERITIES,
  useAlertsOverview,
  useDeliveries,
  usePollNow,
  useRemoveSubscription,
  useResend,
  useSaveSubscription,
  useSendTest,
  type AlertsOverview,
  type Delivery,
  type Severity,
  type Subscription,
} from '../api/alerts-api.ts';

const SEVERITY_LABELS: Record<Severity, string> = {
  all: 'Every change',
  attention: 'Approved carriers that now fail policy or need review',
  fails: 'Approved carriers that now fail policy',
};

/** `insurance` → "Insurance" (the inbox's channel names). */
function channelLabel(channel: Channel): string {
  return `${channel.charAt(0).toUpperCase()}${channel.slice(1)}`;
}

const STATE_LABELS: Record<Delivery['state'], string> = {
  pending: 'Waiting to send',
  sending: 'Sending',
  delivered: 'Delivered',
  failed: 'Failed',
};

const SECTION = 'mt-10 first:mt-0';
const H2 = 'text-lg font-semibold text-neutral-950 dark:text-neutral-50';

/** The alerts' own bounds (docs/alerts.md "Bounds"): said in the server's words, with its hint. */
const BOUND_CODES = new Set(['too_many_subscriptions', 'test_too_soon', 'too_many_pending']);

/**
 * A failed alert action: a bound the server keeps is read out as it is (what was refused, what to
 * do, how long to wait), anything else as the app's usual error.
 */
function ActionError({ error, what }: { error: unknown; what: string }) {
  if (!(error instanceof ApiError) || !BOUND_CODES.has(error.code ?? '')) {
    return <ErrorState error={error} what={what} />;
  }
  return (
    <div
      role="alert"
      className="mt-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
    >
      <p className="font-semibold">{error.message}</p>
      {error.hint ? <p className="mt-1">{error.hint}</p> : null}
    </div>
  );
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function AlertsPage() {
  const overview = useAlertsOverview();
  return (
    <>
      <PageHeader
        title="Alerts"
        description="Send monitoring changes to people where they work: by e-mail or webhook, at once or as a daily digest."
      />
      <QueryState query={overview} what="the alert settings">
        {(data) => (
          <>
            <PollSection overview={data} />
            <SubscriptionsSection overview={data} />
            <NewSubscription overview={data} />
            <DeliveriesSection />
          </>
        )}
      </QueryState>
    </>
  );
}

function PollSection({ overview }: { overview: AlertsOverview }) {
  const poll = usePollNow();
  const test = useSendTest();
  const canPoll = useCan('poll for the whole team');
  const canTest = useCan('manage alert subscriptions');
  const { interval_seconds: interval } = overview.poll;
  const result = poll.data;
  return (
    <section aria-labelledby="alerts-poll" className={SECTION}>
      <h2 id="alerts-poll" className={H2}>
        Monitoring poll
      </h2>
      <p className={`${MUTED} mt-1`}>
        {interval > 0
          ? `The server reads the monitoring list every ${Math.round(interval / 60)} min.`
          : 'Scheduled polls are off (MONITOR_POLL_INTERVAL=0); poll by hand.'}{' '}
        Last poll: {formatDateTime(overview.poll.last_poll_at)}.
        {overview.poll.backing_off_until
          ? ` The service asked to slow down: no poll before ${formatDateTime(overview.poll.backing_off_until)}.`
          : ''}
      </p>
      {overview.team_destinations.length > 0 ? (
        <p className={`${MUTED} mt-1`}>
          Team destinations (set on the server, every channel, at once):{' '}
          {overview.team_destinations.map((d) => `${d.kind} ${d.target}`).join('; ')}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          className={PRIMARY_BUTTON}
          disabled={poll.isPending || !canPoll.allowed}
          aria-describedby={canPoll.allowed ? undefined : 'alerts-poll-role'}
          onClick={() => poll.mutate()}
        >
          {poll.isPending ? 'Polling…' : 'Poll now'}
        </button>
        <button
          type="button"
          className={BUTTON}
          disabled={test.isPending || !canTest.allowed}
          aria-describedby={canTest.allowed ? undefined : 'alerts-test-role'}
          onClick={() => test.mutate(undefined)}
        >
          Send test alert
        </button>
      </div>
      <p className="mt-2 flex flex-col">
        <RoleNote id="alerts-poll-role" permission={canPoll} />
        <RoleNote id="alerts-test-role" permission={canTest} />
      </p>
      <div role="status" className="mt-2 text-sm">
        {result
          ? (result.baseline
              ? `First poll: ${result.recorded} existing changes recorded as seen; alerts start with the next new change.`
              : `${result.new_changes} new change${result.new_changes === 1 ? '' : 's'}, ${result.deliveries_queued} deliver${result.deliveries_queued === 1 ? 'y' : 'ies'} queued.`) +
            (result.standing_announced
              ? ` Policy change: ${result.standing_announced} decision${result.standing_announced === 1 ? '' : 's'} changed standing, announced.`
              : '')
          : test.data
            ? `${plural(test.data.deliveries_queued, 'test delivery', 'test deliveries')} queued.` +
              (test.data.skipped.length
                ? ` ${plural(test.data.skipped.length, 'destination', 'destinations')} skipped: tested less than a minute ago, or too many deliveries waiting.`
                : '')
            : ''}
      </div>
      {poll.isError ? <ErrorState error={poll.error} what="the poll" /> : null}
      {test.isError ? <ActionError error={test.error} what="the test alert" /> : null}
    </section>
  );
}

function describe(sub: Subscription): string {
  const channels =
    sub.channels.length === CHANNELS.length
      ? 'every channel'
      : sub.channels.map((c) => channelLabel(c)).join(', ');
  const schedule =
    sub.schedule === 'daily'
      ? `daily at ${sub.digest_time ?? ''} (${sub.time_zone ?? 'UTC'})`
      : 'at once';
  return `${channels} · ${SEVERITY_LABELS[sub.severity]} · ${schedule}`;
}

/** One subscription with its Test and Remove, disabled with the reason when the role cannot. */
function SubscriptionRow({
  sub,
  limits,
  onTest,
  onRemove,
}: {
  sub: Subscription;
  limits: AlertsOverview['limits'];
  onTest: () => void;
  onRemove: () => void;
}) {
  const own = useCan('manage alert subscriptions');
  const other = useCanActOn(sub.user, 'manage alert subscriptions');
  const can = sub.mine ? own : other;
  const noteId = `alerts-subscription-${sub.id}-role`;
  const described = can.allowed ? undefined : noteId;
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2">
      <div>
        <p className="text-sm font-medium break-all">
          {sub.kind === 'email' ? 'E-mail' : 'Webhook'}: {sub.target}
        </p>
        {sub.mine ? null : <p className={MUTED}>{sub.user}’s subscription</p>}
        <p className={MUTED}>{describe(sub)}</p>
        {sub.deliveries_waiting ? (
          <p className={MUTED}>
            {plural(sub.deliveries_waiting, 'delivery', 'deliveries')} waiting to be sent
            {sub.deliveries_waiting >= limits.waiting_per_subscription
              ? ' — the most one subscription may have: new ones are not queued'
              : ''}
          </p>
        ) : null}
        {sub.deliveries_not_queued ? (
          <p className="text-sm text-amber-800 dark:text-amber-300">
            {plural(sub.deliveries_not_queued, 'delivery', 'deliveries')} not queued: too many were
            waiting
          </p>
        ) : null}
      </div>
      <div className="flex flex-col items-end gap-1">
        <div className="flex gap-2">
          <button
            type="button"
            className={BUTTON}
            disabled={!can.allowed}
            aria-describedby={described}
            onClick={onTest}
          >
            Test<span className="sr-only"> {sub.target}</span>
          </button>
          <button
            type="button"
            className={BUTTON}
            disabled={!can.allowed}
            aria-describedby={described}
            onClick={onRemove}
          >
            Remove<span className="sr-only"> {sub.target}</span>
          </button>
        </div>
        <RoleNote id={noteId} permission={can} />
      </div>
    </li>
  );
}

/**
 * The user's subscriptions, and for an admin (the proxy lists them every one) the other people's
 * under their own heading, each named by its owner.
 */
function SubscriptionsSection({ overview }: { overview: AlertsOverview }) {
  const remove = useRemoveSubscription();
  const test = useSendTest();
  const limits = overview.limits;
  const mine = overview.subscriptions.filter((sub) => sub.mine);
  const others = overview.subscriptions.filter((sub) => !sub.mine);
  const list = (subs: Subscription[]) => (
    <ul className="mt-2 divide-y divide-neutral-200 dark:divide-neutral-800">
      {subs.map((sub) => (
        <SubscriptionRow
          key={sub.id}
          sub={sub}
          limits={limits}
          onTest={() => test.mutate(sub.id)}
          onRemove={() => remove.mutate(sub.id)}
        />
      ))}
    </ul>
  );
  return (
    <>
      <section aria-labelledby="alerts-subscriptions" className={SECTION}>
        <h2 id="alerts-subscriptions" className={H2}>
          Your subscriptions
        </h2>
        {mine.length === 0 ? (
          <p className={`${MUTED} mt-1`}>You have no subscription yet.</p>
        ) : (
          list(mine)
        )}
        {test.isSuccess ? (
          <p role="status" className="mt-2 text-sm">
            {plural(test.data.deliveries_queued, 'test delivery', 'test deliveries')} queued.
          </p>
        ) : null}
        {test.isError ? <ActionError error={test.error} what="the test alert" /> : null}
        {remove.isError ? <ErrorState error={remove.error} what="the subscription" /> : null}
      </section>
      {others.length > 0 ? (
        <section aria-labelledby="alerts-others" className={SECTION}>
          <h2 id="alerts-others" className={H2}>
            Other people’s subscriptions
          </h2>
          <p className={`${MUTED} mt-1`}>
            You are an admin: you see everyone’s, and may test or remove them.
          </p>
          {list(others)}
        </section>
      ) : null}
    </>
  );
}

function NewSubscription({ overview }: { overview: AlertsOverview }) {
  const save = useSaveSubscription();
  const can = useCan('manage alert subscriptions');
  const id = useId();
  const firstKind = overview.email_available ? 'email' : 'webhook';
  const [kind, setKind] = useState<'email' | 'webhook'>(firstKind);
  const [target, setTarget] = useState('');
  const [channels, setChannels] = useState<Channel[]>([...CHANNELS]);
  const [severity, setSeverity] = useState<Severity>('all');
  const [schedule, setSchedule] = useState<'immediate' | 'daily'>('immediate');
  const [time, setTime] = useState('08:00');
  const zone = localZone();
  const available = kind === 'email' ? overview.email_available : overview.webhook_available;
  const max = overview.limits.subscriptions_per_user;
  const own = overview.subscriptions.filter((sub) => sub.mine).length;
  const full = own >= max;

  const toggle = (channel: Channel) =>
    setChannels((list) =>
      list.includes(channel) ? list.filter((c) => c !== channel) : [...list, channel],
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      {
        kind,
        target,
        channels,
        severity,
        schedule,
        digest_time: schedule === 'daily' ? time : null,
        time_zone: schedule === 'daily' ? zone : null,
      },
      { onSuccess: () => setTarget('') },
    );
  };

  return (
    <section aria-labelledby="alerts-new" className={SECTION}>
      <h2 id="alerts-new" className={H2}>
        Add a subscription
      </h2>
      <p className={`${MUTED} mt-1`}>
        {full
          ? `You have ${max} subscriptions, the most one person may have here: remove one to add another.`
          : `You have ${own} of at most ${max} subscriptions.`}
      </p>
      <form onSubmit={submit} className="mt-3 flex max-w-2xl flex-col gap-4">
        <fieldset className="flex flex-wrap gap-4">
          <legend className="mb-1 text-sm font-medium">Destination</legend>
          {(['email', 'webhook'] as const).map((option) => (
            <label key={option} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={`${id}-kind`}
                checked={kind === option}
                onChange={() => setKind(option)}
              />
              {option === 'email' ? 'E-mail' : 'Webhook'}
            </label>
          ))}
        </fieldset>
        {!available ? (
          <p className={MUTED}>
            {kind === 'email'
              ? 'E-mail is not configured on the server (SMTP_URL).'
              : 'Webhooks need the server’s signing key (ALERT_WEBHOOK_SECRET).'}
          </p>
        ) : null}
        <label className={LABEL}>
          {kind === 'email' ? 'E-mail addresses (comma-separated)' : 'Webhook URL'}
          <input
            className={INPUT}
            type={kind === 'email' ? 'text' : 'url'}
            required
            value={target}
            onChange={(event) => setTarget(event.target.value)}
            placeholder={
              kind === 'email' ? 'compliance@example.com' : 'https://hooks.example.com/…'
            }
          />
        </label>
        <fieldset className="flex flex-wrap gap-4">
          <legend className="mb-1 text-sm font-medium">Channels</legend>
          {CHANNELS.map((channel) => (
            <label key={channel} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={channels.includes(channel)}
                onChange={() => toggle(channel)}
              />
              {channelLabel(channel)}
            </label>
          ))}
        </fieldset>
        <label className={LABEL}>
          Severity
          <select
            className={INPUT}
            value={severity}
            onChange={(event) => setSeverity(event.target.value as Severity)}
          >
            {SEVERITIES.map((option) => (
              <option key={option} value={option}>
                {SEVERITY_LABELS[option]}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="flex flex-wrap items-end gap-4">
          <legend className="mb-1 text-sm font-medium">When</legend>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={`${id}-schedule`}
              checked={schedule === 'immediate'}
              onChange={() => setSchedule('immediate')}
            />
            At once
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={`${id}-schedule`}
              checked={schedule === 'daily'}
              onChange={() => setSchedule('daily')}
            />
            Daily digest
          </label>
          {schedule === 'daily' ? (
            <label className={LABEL}>
              {`Local time (${zone})`}
              <input
                className={INPUT}
                type="time"
                required
                value={time}
                onChange={(event) => setTime(event.target.value)}
              />
            </label>
          ) : null}
        </fieldset>
        <div>
          <button
            type="submit"
            className={PRIMARY_BUTTON}
            disabled={save.isPending || !available || channels.length === 0 || !can.allowed}
            aria-describedby={can.allowed ? undefined : `${id}-role`}
          >
            Subscribe
          </button>{' '}
          <RoleNote id={`${id}-role`} permission={can} />
        </div>
        {save.isError ? <ActionError error={save.error} what="the subscription" /> : null}
      </form>
    </section>
  );
}

/** Whose destination a delivery went to: yours, someone's, the team's. */
function whoseDelivery(delivery: Delivery): string {
  if (delivery.subscription_id === null) return 'Team destination';
  if (delivery.mine) return 'Your subscription';
  return delivery.owner ? `${delivery.owner}’s subscription` : 'A removed subscription';
}

function DeliveriesSection() {
  const deliveries = useDeliveries();
  const resend = useResend();
  const canResend = useCan('send deliveries again');
  const list = deliveries.data ?? [];
  return (
    <section aria-labelledby="alerts-deliveries" className={SECTION}>
      <h2 id="alerts-deliveries" className={H2}>
        Deliveries
      </h2>
      {deliveries.isError ? (
        <ErrorState
          error={deliveries.error}
          what="deliveries"
          onRetry={() => deliveries.refetch()}
        />
      ) : list.length === 0 ? (
        <p className={`${MUTED} mt-1`}>Nothing has been sent yet.</p>
      ) : (
        <ScrollArea className="relative" frameClassName="mt-2">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-neutral-200 dark:border-neutral-800">
                <th scope="col" className="py-2 pr-3 font-medium">
                  Queued
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Destination
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Content
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  State
                </th>
                <th scope="col" className="py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((delivery) => (
                <tr
                  key={delivery.id}
                  className="border-b border-neutral-100 dark:border-neutral-800"
                >
                  <td className="py-2 pr-3 whitespace-nowrap">
                    {formatDateTime(delivery.created_at)}
                  </td>
                  <td className="py-2 pr-3 break-all">
                    {delivery.kind === 'email' ? 'E-mail' : 'Webhook'} {delivery.target}
                    <span className={`block break-normal ${MUTED}`}>{whoseDelivery(delivery)}</span>
                  </td>
                  <td className="py-2 pr-3">
                    {delivery.type === 'test' ? 'Test alert' : delivery.summary}
                  </td>
                  <td className="py-2 pr-3">
                    {STATE_LABELS[delivery.state]}
                    {delivery.attempts > 1 ? ` (${delivery.attempts} attempts)` : ''}
                    {delivery.last_error && delivery.state !== 'delivered' ? (
                      <span className={`block ${MUTED}`}>{delivery.last_error}</span>
                    ) : null}
                  </td>
                  <td className="py-2">
                    {delivery.state === 'sending' ? null : (
                      <button
                        type="button"
                        className={BUTTON}
                        disabled={!canResend.allowed}
                        title={canResend.reason}
                        onClick={() => resend.mutate(delivery.id)}
                      >
                        Send again
                        <span className="sr-only"> ({formatDateTime(delivery.created_at)})</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      )}
    </section>
  );
}
