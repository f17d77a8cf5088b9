/**
 * The monitoring poller: pages through `monitoring/list?view_changes=true` through the proxy's own
 * mirror client (validation, rate-limit bucket, upstream retries and circuit breaker, audit — the
 * one path to the service), finds changes not seen before by the inbox's own change ids, and queues
 * the deliveries they cause, all in one transaction. The first poll of a new database only records
 * what is there (nothing announced); a restart does not announce again. A 429 or 5xx backs the
 * schedule off (the interval doubled per failure, at least what Retry-After says).
 * Daily digests are made here too, at each subscription's local time.
 */
import { CHANNELS, type Channel } from '../../../src/lib/service/channels.ts';
import { parseMonitoringList } from '../../../src/lib/service/monitoring.ts';
import { backoffDelayMs, parseRetryAfter } from '../../../src/lib/service/retry.ts';
import type { DecisionRecord } from '../../../src/lib/vetting-api.ts';
import { inboxChangesOf } from '../../../src/lib/monitoring/change-id.ts';
import { decisionImpact } from '../../../src/lib/monitoring/decision-impact.ts';
import type { InboxChange } from '../../../src/lib/monitoring/inbox.ts';
import { ApiError } from '../http/api-error.ts';
import type { MirrorClient } from '../routes/mirror.ts';
import type { VettingStore } from '../vetting/store.ts';
import { sectionsOf } from './render.ts';
import type { AlertStore, NewDelivery, SeenChange, Severity, Subscription } from './store.ts';

/** The largest page the service gives; a watchlist of 10,000 carriers is 20 calls. */
const PAGE_SIZE = 500;
const MAX_PAGES = 200;
const DIGEST_TICK_MS = 60_000;
/** The longest the schedule backs off after failures. */
const MAX_BACKOFF_MS = 6 * 3600_000;
/** After a 429, no poll (not even "Poll now") for at least this long. */
const MIN_HOLD_MS = 60_000;

export interface PollResult {
  /** changes seen for the first time and announced (0 on the first poll: recorded only) */
  new_changes: number;
  deliveries_queued: number;
  /** true on the first poll of a new database: the changes there were recorded as seen */
  baseline: boolean;
  /** changes recorded as seen by this poll */
  recorded: number;
}

interface PollerLog {
  info(obj: object, message: string): void;
  warn(obj: object, message: string): void;
}

/** A team destination of the environment: every channel, every severity, immediately. */
export interface TeamDestination {
  kind: 'email' | 'webhook';
  target: string;
}

export interface PollerDeps {
  store: AlertStore;
  mirror: MirrorClient;
  vetting: VettingStore;
  team: readonly TeamDestination[];
  /** seconds between scheduled polls; 0 = none */
  intervalSeconds: number;
  /** a poll (or digest) queued deliveries */
  onQueued: () => void;
  log: PollerLog;
  now?: () => Date;
}

class PollRefused extends ApiError {}

function matchesSeverity(change: SeenChange, severity: Severity): boolean {
  if (severity === 'all') return true;
  if (severity === 'fails') return change.impact === 'fails';
  return change.impact !== null;
}

function matchesChannels(change: SeenChange, channels: readonly Channel[]): boolean {
  // a field no channel names reaches only subscriptions to every channel
  if (change.channel === null) return CHANNELS.every((channel) => channels.includes(channel));
  return channels.includes(change.channel);
}

/** The changes a subscription asked for. */
function selectFor(
  changes: readonly SeenChange[],
  sub: Pick<Subscription, 'channels' | 'severity'>,
): SeenChange[] {
  return changes.filter(
    (change) => matchesChannels(change, sub.channels) && matchesSeverity(change, sub.severity),
  );
}

/** Minutes since local midnight in a time zone (UTC when the zone is unknown). */
function localMinutes(at: Date, timeZone: string): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(at);
  } catch {
    return at.getUTCHours() * 60 + at.getUTCMinutes();
  }
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return value('hour') * 60 + value('minute');
}

/** The latest time at or before `at` when the clock in `timeZone` read `hh:mm`. */
export function lastDigestSlot(at: Date, hhmm: string, timeZone: string): Date {
  const [h, m] = hhmm.split(':').map(Number);
  const target = (h ?? 0) * 60 + (m ?? 0);
  const since = (localMinutes(at, timeZone) - target + 1440) % 1440;
  const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
  return new Date(minute.getTime() - since * 60_000);
}

export class Poller {
  private running: Promise<PollResult> | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private digestTimer: NodeJS.Timeout | undefined;
  private stopped = true;
  private failures = 0;
  private pollCount = 0;
  /** no poll before this time (Retry-After, back-off) */
  private holdUntil = 0;
  nextPollAt: Date | undefined;

  constructor(private readonly deps: PollerDeps) {}

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  get backingOffUntil(): Date | undefined {
    return this.holdUntil > this.now().getTime() ? new Date(this.holdUntil) : undefined;
  }

  get consecutiveFailures(): number {
    return this.failures;
  }

  /** Schedule polls (when an interval is set) and digest checks. */
  start(): void {
    this.stopped = false;
    if (this.deps.intervalSeconds > 0) {
      // anchored on the last poll, so a restart neither polls at once nor skips a poll
      let last = Number.NaN;
      try {
        last = Date.parse(this.deps.store.state.get('last_poll_at') ?? '');
      } catch (err) {
        this.deps.log.warn({ err }, 'alerts: cannot read the last poll time');
      }
      const due = Number.isFinite(last)
        ? last + this.deps.intervalSeconds * 1000
        : this.now().getTime() + this.deps.intervalSeconds * 1000;
      this.schedule(Math.max(5000, due - this.now().getTime()));
    }
    this.digestTimer = setInterval(() => this.digestsDue(), DIGEST_TICK_MS);
    this.digestTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.pollTimer);
    clearInterval(this.digestTimer);
    this.pollTimer = undefined;
    this.digestTimer = undefined;
    this.nextPollAt = undefined;
    await this.running?.catch(() => undefined);
  }

  private schedule(ms: number): void {
    clearTimeout(this.pollTimer);
    if (this.stopped || this.deps.intervalSeconds <= 0) return;
    this.nextPollAt = new Date(this.now().getTime() + ms);
    this.pollTimer = setTimeout(() => {
      this.poll().catch((err: unknown) => {
        this.deps.log.warn({ error: (err as Error).message }, 'alerts: the scheduled poll failed');
      });
    }, ms);
    this.pollTimer.unref();
  }

  /** Poll now; a poll already running is shared. Throws an ApiError when the service refuses. */
  poll(): Promise<PollResult> {
    if (this.running) return this.running;
    const wait = this.holdUntil - this.now().getTime();
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      return Promise.reject(
        new PollRefused(
          429,
          'poll_backing_off',
          `The data service asked to slow down; the next poll is possible in ${seconds} s`,
          'Wait, then poll again; scheduled polls resume by themselves.',
          { 'retry-after': String(seconds) },
        ),
      );
    }
    this.running = this.pollOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pollOnce(): Promise<PollResult> {
    try {
      const result = await this.fetchAndRecord();
      this.failures = 0;
      this.holdUntil = 0;
      this.schedule(this.deps.intervalSeconds * 1000);
      if (result.deliveries_queued > 0) this.deps.onQueued();
      return result;
    } catch (err) {
      this.onFailure(err);
      throw err;
    }
  }

  private onFailure(err: unknown): void {
    const status = err instanceof ApiError ? err.status : 0;
    if (status !== 429 && status < 500 && status !== 0) {
      this.schedule(this.deps.intervalSeconds * 1000);
      return;
    }
    this.failures += 1;
    const intervalMs = Math.max(60_000, this.deps.intervalSeconds * 1000);
    const backoff = backoffDelayMs(this.failures, {
      baseDelayMs: intervalMs,
      maxDelayMs: Math.max(intervalMs, MAX_BACKOFF_MS),
      jitter: 0.1,
    });
    // A 429 the mirror forwards is an answer without its headers (the upstream client has already
    // paused the endpoint for its Retry-After); one thrown by the mirror may carry it.
    const header = err instanceof ApiError ? err.headers['retry-after'] : undefined;
    const retryAfter = parseRetryAfter(header, this.now().getTime()) ?? 0;
    // "Poll now" waits too after a 429; scheduled polls back off further
    const hold = status === 429 ? Math.max(retryAfter, MIN_HOLD_MS) : 0;
    this.holdUntil = this.now().getTime() + hold;
    this.schedule(Math.max(backoff, retryAfter));
    this.deps.log.warn(
      { status, failures: this.failures, next_poll_at: this.nextPollAt?.toISOString() },
      'alerts: the monitoring list could not be read; backing off',
    );
  }

  /** Every watched profile with changes, page by page. */
  private async readList(): Promise<InboxChange[][]> {
    const profiles: InboxChange[][] = [];
    this.pollCount += 1;
    for (let page = 1; page <= MAX_PAGES; page += 1) {
      const answer = await this.deps.mirror.get(
        'monitoring/list',
        { view_changes: 'true', page: String(page), pageSize: String(PAGE_SIZE) },
        { user: 'alerts', requestId: `alerts-poll-${this.pollCount}-${page}`, headers: {} },
      );
      if (answer.status < 200 || answer.status >= 300) {
        const message = `The data service answered ${answer.status} to monitoring/list`;
        throw new ApiError(
          answer.status >= 500 ? 502 : answer.status,
          'poll_failed',
          message,
          'Try again later.',
        );
      }
      const list = parseMonitoringList(answer.json).value;
      for (const profile of list.profiles) profiles.push(inboxChangesOf(profile));
      if (list.profiles.length < PAGE_SIZE || page * PAGE_SIZE >= list.totalCount) break;
    }
    return profiles;
  }

  /** The new changes of each profile, each with the profile's decision impact. */
  private freshChanges(profiles: readonly InboxChange[][]): SeenChange[] {
    const { store, vetting } = this.deps;
    const policy = vetting.currentPolicy();
    const fresh: SeenChange[] = [];
    for (const changes of profiles) {
      const first = changes[0];
      if (!first) continue;
      const unseen = store.unseen(changes.map(toSeen));
      if (unseen.length === 0) continue;
      // the inbox's own rule: re-evaluated over the profile's changes since the decision
      const record = vetting.currentDecisions([first.dot])[0] as unknown as
        DecisionRecord | undefined;
      const impact =
        decisionImpact(record, changes, { version: policy.version, settings: policy.settings }) ??
        null;
      for (const change of unseen) fresh.push({ ...change, impact });
    }
    return fresh;
  }

  private async fetchAndRecord(): Promise<PollResult> {
    const profiles = await this.readList();
    const { store } = this.deps;
    const fresh = this.freshChanges(profiles);
    const baseline = store.state.get('baseline_done') !== 'true';
    const deliveries = baseline ? [] : this.immediateDeliveries(fresh);
    const ids = store.recordPoll(fresh, deliveries, this.now(), !baseline);
    const result = {
      new_changes: baseline ? 0 : fresh.length,
      deliveries_queued: ids.length,
      baseline,
      recorded: fresh.length,
    };
    this.deps.log.info(result, 'alerts: monitoring list polled');
    return result;
  }

  private immediateDeliveries(fresh: readonly SeenChange[]): NewDelivery[] {
    if (fresh.length === 0) return [];
    const out: NewDelivery[] = [];
    const payload = (changes: readonly SeenChange[]) => ({
      type: 'changes' as const,
      carriers: sectionsOf(changes),
    });
    for (const team of this.deps.team) {
      out.push({ subscription_id: null, source: 'env', ...team, payload: payload(fresh) });
    }
    for (const sub of this.deps.store.subscriptions()) {
      if (sub.schedule !== 'immediate') continue;
      const chosen = selectFor(fresh, sub);
      if (chosen.length === 0) continue;
      out.push({
        subscription_id: sub.id,
        source: 'subscription',
        kind: sub.kind,
        target: sub.target,
        payload: payload(chosen),
      });
    }
    return out;
  }

  /** Queue the daily digests whose local time has come; returns how many were queued. */
  digestsDue(): number {
    const now = this.now();
    let queued = 0;
    try {
      for (const sub of this.deps.store.subscriptions()) {
        if (sub.schedule !== 'daily' || !sub.digest_time) continue;
        const slot = lastDigestSlot(now, sub.digest_time, sub.time_zone ?? 'UTC');
        const last = sub.last_digest_at ?? sub.created_at;
        if (last >= slot.toISOString()) continue;
        const chosen = selectFor(this.deps.store.seenBetween(last, now.toISOString()), sub);
        const list: NewDelivery[] =
          chosen.length === 0
            ? []
            : [
                {
                  subscription_id: sub.id,
                  source: 'subscription',
                  kind: sub.kind,
                  target: sub.target,
                  payload: { type: 'changes', carriers: sectionsOf(chosen) },
                },
              ];
        queued += this.deps.store.enqueueDigest(sub.id, list, now).length;
      }
    } catch (err) {
      this.deps.log.warn({ error: (err as Error).message }, 'alerts: the digest check failed');
    }
    if (queued > 0) this.deps.onQueued();
    return queued;
  }
}

function toSeen(change: InboxChange): SeenChange {
  return {
    id: change.id,
    profileId: change.profileId,
    dot: change.dot,
    field: change.field,
    channel: change.channel ?? null,
    date: change.date ?? null,
    prior: change.prior,
    current: change.current,
    impact: null,
  };
}
