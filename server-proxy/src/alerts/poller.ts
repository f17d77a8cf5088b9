/**
 * The monitoring poller: pages through `monitoring/list?view_changes=true` through the proxy's own
 * mirror client (validation, rate-limit bucket, upstream retries and circuit breaker, audit — the
 * one path to the service), finds changes not seen before by the inbox's own change ids, and queues
 * the deliveries they cause, all in one transaction. The first poll of a new database only records
 * what is there (nothing announced); a restart does not announce again. A 429 or 5xx backs the
 * schedule off (the interval doubled per failure, at least what Retry-After says).
 * Daily digests are made here too, at each subscription's local time, each carrying a signed
 * checkpoint of the decision record; and once a UTC day a checkpoint alone goes to the team-wide
 * destinations (docs/alerts.md, "Decision record checkpoints").
 *
 * Across replicas (one database, several proxies) the schedule and the digests run on one process
 * at a time: the holder of the `alerts-poller` lease (sql/lease.ts), renewed every third of its TTL
 * by the leased worker that runs them (sql/leased-worker.ts). The other processes do not poll;
 * when the holder stops (it releases the lease) or dies (it stops renewing it, and the lease lapses
 * after its TTL), another takes the lease and the schedule over, anchored on the last poll recorded in the database. A "Poll now" runs on the
 * replica that was asked, whoever holds the lease: the store announces each change once however
 * many polls run together, and a 429's hold is shared through the database.
 */
import { CHANNELS, type Channel } from '../../../src/lib/service/channels.ts';
import { parseMonitoringList } from '../../../src/lib/service/monitoring.ts';
import { backoffDelayMs, parseRetryAfter } from '../../../src/lib/service/retry.ts';
import type { DecisionRecord } from '../../../src/lib/vetting/decision-record.ts';
import { inboxChangesOf } from '../../../src/lib/monitoring/change-id.ts';
import {
  severityContext,
  type SeverityContext,
} from '../../../src/lib/monitoring/change-severity.ts';
import { decisionImpact } from '../../../src/lib/monitoring/decision-impact.ts';
import type { InboxChange } from '../../../src/lib/monitoring/inbox.ts';
import { ApiError } from '../http/api-error.ts';
import { ALERTS_ACTOR } from '../governance/roles.ts';
import type { MirrorClient } from '../routes/mirror.ts';
import { LeasedWorker } from '../sql/leased-worker.ts';
import { newHolderId } from '../sql/lease.ts';
import type { Checkpoint } from '../vetting/receipts.ts';
import type { VettingSqlStore } from '../vetting/store.ts';
import { sectionsOf, type CarrierNames } from './render.ts';
import {
  announceStandingChanges,
  carrierNames,
  digestDecisions,
  type StandingDeps,
} from './standing.ts';
import type { AlertStore, NewDelivery, SeenChange, Severity, Subscription } from './store.ts';

/** The largest page the service gives; a watchlist of 10,000 carriers is 20 calls. */
const PAGE_SIZE = 500;
const MAX_PAGES = 200;
const DIGEST_TICK_MS = 60_000;
/** The longest the schedule backs off after failures. */
const MAX_BACKOFF_MS = 6 * 3600_000;
/** After a 429, no poll (not even "Poll now") for at least this long. */
const MIN_HOLD_MS = 60_000;
/** The poller lease's longest TTL: a replica that dies hands polling over within this. */
const MAX_LEASE_TTL_MS = 60_000;
/** Its shortest TTL (three heartbeats of a second). */
const MIN_LEASE_TTL_MS = 3000;

/** The poller lease's TTL for a poll interval: three intervals, between 3 s and 60 s. */
function pollerLeaseTtlMs(intervalSeconds: number): number {
  if (intervalSeconds <= 0) return MAX_LEASE_TTL_MS;
  return Math.min(MAX_LEASE_TTL_MS, Math.max(MIN_LEASE_TTL_MS, intervalSeconds * 3000));
}

export interface PollResult {
  /** changes seen for the first time and announced (0 on the first poll: recorded only) */
  new_changes: number;
  deliveries_queued: number;
  /** true on the first poll of a new database: the changes there were recorded as seen */
  baseline: boolean;
  /** changes recorded as seen by this poll */
  recorded: number;
  /** policy standing changes announced by this poll (standing.ts) */
  standing_announced: number;
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
  /** the current policy and decisions, for each change's decision impact */
  vetting: Pick<
    VettingSqlStore,
    'currentPolicy' | 'currentDecisions' | 'decision' | 'policyVersion' | 'revetDue'
  >;
  team: readonly TeamDestination[];
  /** seconds between scheduled polls; 0 = none */
  intervalSeconds: number;
  /** a poll (or digest) queued deliveries */
  onQueued: () => void;
  log: PollerLog;
  now?: () => Date;
  /** this process's name as the lease holder (default: a new one) */
  holder?: string;
  /** how long the lease lasts unrenewed (default: pollerLeaseTtlMs of the interval) */
  leaseTtlMs?: number;
  /** the carrier names the proxy has seen (../names/store.ts), to name carriers in messages */
  names?: { get(dots: readonly string[]): Promise<CarrierNames> };
  /**
   * A signed checkpoint of the decision record now (vetting/receipts.ts `issueCheckpoint`): in
   * every digest, and once a UTC day to the team destinations. Absent: no checkpoints.
   */
  checkpoint?: (at: Date) => Promise<Checkpoint>;
}

/** The `alert_state` key holding the last UTC day the daily checkpoint was queued. */
export const CHECKPOINT_DAY_KEY = 'checkpoint_day';

/** `2026-11-29`: the UTC day of `at`. */
const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

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
  private stopped = true;
  private failures = 0;
  private pollCount = 0;
  /** no poll before this time (Retry-After, back-off) */
  private holdUntil = 0;
  /** when the next scheduled poll is due (wall clock, ms; undefined: none scheduled) */
  private pollDueAt: number | undefined;
  /** when the next digest check is due (wall clock, ms) */
  private digestDueAt = 0;
  /** start() has scheduled the first poll: a lease taken over later reschedules */
  private scheduled = false;
  /** the schedule and digests, run by the holder of the poller lease (sql/leased-worker.ts) */
  private readonly worker: LeasedWorker;
  /** this process's name in the lease table */
  readonly holder: string;
  /** the next poll this process scheduled (its own clock) */
  private nextPoll: Date | undefined;

  constructor(private readonly deps: PollerDeps) {
    this.holder = deps.holder ?? newHolderId('alerts');
    const leaseTtlMs = deps.leaseTtlMs ?? pollerLeaseTtlMs(deps.intervalSeconds);
    this.worker = new LeasedWorker({
      tick: () => this.tick(),
      idleMs: DIGEST_TICK_MS,
      errorBackoffMs: DIGEST_TICK_MS,
      onError: (err) => {
        this.deps.log.warn({ error: (err as Error).message }, 'alerts: the poller tick failed');
      },
      lease: {
        lease: deps.store.pollerLease,
        holder: this.holder,
        ttlMs: leaseTtlMs,
        renewEveryMs: Math.floor(leaseTtlMs / 3),
        onChange: (held) => this.leaseChanged(held),
        // a database that does not answer: poll nowhere rather than perhaps twice; a lease that
        // cannot be released lapses after its TTL instead
        onError: (err, during) => {
          this.deps.log.warn(
            { error: (err as Error).message },
            during === 'renew'
              ? 'alerts: cannot renew the lease'
              : 'alerts: cannot release the lease',
          );
        },
      },
    });
  }

  /** Whether this process held the poller lease at its last renewal. */
  get polling(): boolean {
    return this.worker.leading;
  }

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  get backingOffUntil(): Date | undefined {
    return this.holdUntil > this.now().getTime() ? new Date(this.holdUntil) : undefined;
  }

  /**
   * When the next scheduled poll is due. A process without the lease does not poll: its schedule
   * is skipped an interval at a time while the holder polls.
   */
  get nextPollAt(): Date | undefined {
    const at = this.nextPoll;
    const step = this.deps.intervalSeconds * 1000;
    if (!at || this.polling || step <= 0) return at;
    const behind = this.now().getTime() - at.getTime();
    return behind <= 0 ? at : new Date(at.getTime() + Math.ceil(behind / step) * step);
  }

  get consecutiveFailures(): number {
    return this.failures;
  }

  /** Take the lease if it is free, schedule polls (when an interval is set) and digest checks. */
  async start(): Promise<void> {
    this.stopped = false;
    this.scheduled = false;
    this.digestDueAt = Date.now() + DIGEST_TICK_MS;
    await this.worker.start();
    // anchored on the last poll, so a restart neither polls at once nor skips a poll
    await this.scheduleFromLastPoll(5000);
    this.scheduled = true;
  }

  /** Stop the schedule, wait for a poll in hand, and give the lease up for another replica. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.pollDueAt = undefined;
    this.nextPoll = undefined;
    await this.running?.catch(() => undefined);
    // the worker's tick in flight ends first; the lease is released even when this process did
    // not know it held it (a renewal in flight at stop)
    await this.worker.stop();
  }

  private async leaseChanged(held: boolean): Promise<void> {
    this.deps.log.info(
      { holder: this.holder },
      held ? 'alerts: this process polls now' : 'alerts: another process polls now',
    );
    // taken over: the schedule continues from the last poll recorded, by whichever process
    if (held && this.scheduled) await this.scheduleFromLastPoll(0);
  }

  /** One round of the lease holder: the scheduled poll and the digest check when due. */
  private async tick(): Promise<number> {
    if (this.stopped) return DIGEST_TICK_MS;
    if (this.pollDueAt !== undefined && Date.now() >= this.pollDueAt) {
      this.pollDueAt = undefined;
      await this.scheduledPoll().catch((err: unknown) => {
        this.deps.log.warn({ error: (err as Error).message }, 'alerts: the scheduled poll failed');
      });
    }
    if (!this.stopped && Date.now() >= this.digestDueAt) {
      this.digestDueAt = Date.now() + DIGEST_TICK_MS;
      await this.digestTick();
    }
    return Math.max(
      0,
      Math.min(this.pollDueAt ?? Number.POSITIVE_INFINITY, this.digestDueAt) - Date.now(),
    );
  }

  /** Schedule the next poll an interval after the last one recorded (and after a shared hold). */
  private async scheduleFromLastPoll(minDelayMs: number): Promise<void> {
    if (this.deps.intervalSeconds <= 0) return;
    const now = this.now().getTime();
    let last = Number.NaN;
    try {
      last = Date.parse((await this.deps.store.state.get('last_poll_at')) ?? '');
      this.holdUntil = Math.max(this.holdUntil, await this.sharedHold());
    } catch (err) {
      this.deps.log.warn({ error: (err as Error).message }, 'alerts: cannot read the last poll');
    }
    const due = (Number.isFinite(last) ? last : now) + this.deps.intervalSeconds * 1000;
    this.schedule(Math.max(minDelayMs, due - now, this.holdUntil - now));
  }

  /** Until when a 429 seen by any replica holds polls (ms since the epoch; 0: none). */
  private async sharedHold(): Promise<number> {
    const until = Date.parse((await this.deps.store.state.get('hold_until')) ?? '');
    return Number.isFinite(until) ? until : 0;
  }

  /** A scheduled poll (the worker ticks only on the lease holder, renewed just before). */
  private async scheduledPoll(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.poll();
    } catch (err) {
      // held by another replica's 429: the schedule resumes when the hold ends
      if (err instanceof PollRefused) {
        this.schedule(Math.max(1000, this.holdUntil - this.now().getTime()));
      }
      throw err;
    }
  }

  private async digestTick(): Promise<void> {
    // a policy saved since the last poll is announced within the minute
    const { deliveries } = await this.announceStanding();
    if (deliveries > 0) this.deps.onQueued();
    await this.digestsDue();
    await this.dailyCheckpoint();
  }

  /**
   * Queue the day's checkpoint to the team destinations (none while no decision is recorded),
   * once per UTC day across restarts and replicas (the day is taken in `alert_state` with the deliveries, store.enqueueOncePer);
   * returns how many were queued. Never throws.
   */
  async dailyCheckpoint(): Promise<number> {
    const { checkpoint, team, store } = this.deps;
    if (!checkpoint || team.length === 0) return 0;
    const now = this.now();
    let queued = 0;
    try {
      const day = utcDay(now);
      if (((await store.state.get(CHECKPOINT_DAY_KEY)) ?? '') >= day) return 0;
      const signed = await checkpoint(now);
      // an empty record has nothing to anchor: the first checkpoint goes once there is a decision
      if (signed.chain_length === 0) return 0;
      const payload = { type: 'checkpoint' as const, carriers: [], checkpoint: signed };
      const list: NewDelivery[] = team.map((destination) => ({
        subscription_id: null,
        source: 'env',
        ...destination,
        payload,
      }));
      const yesterday = utcDay(new Date(now.getTime() - 86_400_000));
      queued =
        (await store.enqueueOncePer(CHECKPOINT_DAY_KEY, day, yesterday, list, now))?.length ?? 0;
    } catch (err) {
      this.deps.log.warn({ error: (err as Error).message }, 'alerts: the daily checkpoint failed');
    }
    if (queued > 0) this.deps.onQueued();
    return queued;
  }

  private get standingDeps(): StandingDeps {
    const { store, vetting, names, team, log } = this.deps;
    return { store, vetting, names, team, log };
  }

  /** Announce the policy standing changes not announced yet (each once); never throws. */
  private async announceStanding(): Promise<{ announced: number; deliveries: number }> {
    try {
      return await announceStandingChanges(this.standingDeps, this.now());
    } catch (err) {
      this.deps.log.warn(
        { error: (err as Error).message },
        'alerts: standing changes not announced',
      );
      return { announced: 0, deliveries: 0 };
    }
  }

  /** The next scheduled poll in `ms` (the lease holder's worker runs it). */
  private schedule(ms: number): void {
    if (this.stopped || this.deps.intervalSeconds <= 0) return;
    this.nextPoll = new Date(this.now().getTime() + ms);
    this.pollDueAt = Date.now() + ms;
    this.worker.wake();
  }

  /** Poll now; a poll already running is shared. Throws an ApiError when the service refuses. */
  poll(): Promise<PollResult> {
    if (this.running) return this.running;
    this.running = this.pollOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** A PollRefused while a 429 (seen here or by another replica) holds polls. */
  private async refuseWhileHeld(): Promise<void> {
    this.holdUntil = Math.max(this.holdUntil, await this.sharedHold());
    const wait = this.holdUntil - this.now().getTime();
    if (wait <= 0) return;
    const seconds = Math.ceil(wait / 1000);
    throw new PollRefused(
      429,
      'poll_backing_off',
      `The data service asked to slow down; the next poll is possible in ${seconds} s`,
      'Wait, then poll again; scheduled polls resume by themselves.',
      { 'retry-after': String(seconds) },
    );
  }

  private async pollOnce(): Promise<PollResult> {
    try {
      await this.refuseWhileHeld();
      const result = await this.fetchAndRecord();
      this.failures = 0;
      this.holdUntil = 0;
      this.schedule(this.deps.intervalSeconds * 1000);
      if (result.deliveries_queued > 0) this.deps.onQueued();
      return result;
    } catch (err) {
      if (!(err instanceof PollRefused)) this.onFailure(err);
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
    if (hold > 0) {
      // every replica holds its polls too
      this.deps.store.state
        .set('hold_until', new Date(this.holdUntil).toISOString())
        .catch((err: unknown) => {
          this.deps.log.warn({ error: (err as Error).message }, 'alerts: cannot share the hold');
        });
    }
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
        { user: ALERTS_ACTOR, requestId: `alerts-poll-${this.pollCount}-${page}`, headers: {} },
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
  private async freshChanges(profiles: readonly InboxChange[][]): Promise<SeenChange[]> {
    const { store, vetting } = this.deps;
    const unseenIds = new Set(
      (await store.unseen(profiles.flat().map(toSeen))).map((change) => change.id),
    );
    if (unseenIds.size === 0) return [];
    const policy = await vetting.currentPolicy();
    const fresh: SeenChange[] = [];
    for (const changes of profiles) {
      const first = changes[0];
      if (!first) continue;
      const unseen = changes.filter((change) => unseenIds.has(change.id)).map(toSeen);
      if (unseen.length === 0) continue;
      // the inbox's own rule: re-evaluated over the profile's changes since the decision
      const record = (await vetting.currentDecisions([first.dot]))[0] as unknown as
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
    const fresh = await this.freshChanges(profiles);
    const names = await this.namesOf(fresh);
    const context = await this.severityContext();
    const { baseline, recorded, ids } = await this.deps.store.recordPoll(
      fresh,
      this.now(),
      (announced, subscriptions) =>
        this.immediateDeliveries(announced, subscriptions, names, context),
    );
    const standing = await this.announceStanding();
    const result = {
      new_changes: baseline ? 0 : recorded.length,
      deliveries_queued: ids.length + standing.deliveries,
      baseline,
      recorded: recorded.length,
      standing_announced: standing.announced,
    };
    this.deps.log.info(result, 'alerts: monitoring list polled');
    return result;
  }

  /** Names of the changes' carriers (standing.ts: seen in answers, else a decision's). */
  private namesOf(changes: readonly SeenChange[]): Promise<CarrierNames> {
    return carrierNames(
      this.standingDeps,
      changes.map((change) => change.dot),
    );
  }

  /** The current policy's insurance minimums, to rank cover below them (change-severity.ts). */
  private async severityContext(): Promise<SeverityContext> {
    try {
      return severityContext((await this.deps.vetting.currentPolicy()).settings);
    } catch {
      return {};
    }
  }

  private immediateDeliveries(
    fresh: readonly SeenChange[],
    subscriptions: readonly Subscription[],
    names: CarrierNames,
    context: SeverityContext,
  ): NewDelivery[] {
    if (fresh.length === 0) return [];
    const out: NewDelivery[] = [];
    const payload = (changes: readonly SeenChange[]) => ({
      type: 'changes' as const,
      carriers: sectionsOf(changes, names, context),
    });
    for (const team of this.deps.team) {
      out.push({ subscription_id: null, source: 'env', ...team, payload: payload(fresh) });
    }
    for (const sub of subscriptions) {
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

  /**
   * Queue the daily digests whose local time has come; returns how many were queued. A digest
   * another process queued meanwhile is not queued again (store.enqueueDigest).
   */
  async digestsDue(): Promise<number> {
    const now = this.now();
    let queued = 0;
    // one checkpoint for the digests of this round, issued when the first one is made
    let checkpoint: Promise<Checkpoint> | undefined;
    const issue = this.deps.checkpoint;
    const checkpointOf = (sign: (at: Date) => Promise<Checkpoint>) => (checkpoint ??= sign(now));
    try {
      for (const sub of await this.deps.store.subscriptions()) {
        if (sub.schedule !== 'daily' || !sub.digest_time) continue;
        const slot = lastDigestSlot(now, sub.digest_time, sub.time_zone ?? 'UTC');
        const last = sub.last_digest_at ?? sub.created_at;
        if (last >= slot.toISOString()) continue;
        const chosen = selectFor(await this.deps.store.seenBetween(last, now.toISOString()), sub);
        const names = await this.namesOf(chosen);
        // decisions too: standing changes announced since, and the re-vet queue (standing.ts)
        const { standing, revet_due } = await digestDecisions(this.standingDeps, sub, last, now);
        const list: NewDelivery[] =
          chosen.length + standing.length + revet_due.length === 0
            ? []
            : [
                {
                  subscription_id: sub.id,
                  source: 'subscription',
                  kind: sub.kind,
                  target: sub.target,
                  payload: {
                    type: 'changes',
                    carriers: sectionsOf(chosen, names, await this.severityContext()),
                    ...(standing.length > 0 && { standing }),
                    ...(revet_due.length > 0 && { revet_due }),
                    ...(issue && { checkpoint: await checkpointOf(issue) }),
                  },
                },
              ];
        queued += (await this.deps.store.enqueueDigest(sub.id, sub.last_digest_at, list, now))
          .length;
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
