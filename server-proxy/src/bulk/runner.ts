/**
 * The bulk job runner: one job at a time (oldest first; a job left running by a restart or a dead
 * replica first), one carrier at a time, each looked up through the proxy's own mirror client — the
 * same validation, cache, budget reservation, rate-limit queue, retries, spend meter and audit as a
 * profile view — and its outcome committed before the next one starts. See docs/bulk-vetting.md.
 *
 * Replicas sharing one database each run a runner: a job is worked by the replica holding its lease
 * (renewed while it runs). Every runner looks for runnable jobs at start and every few seconds, and
 * takes one whose lease is free or has lapsed, so a job whose replica died is resumed by another
 * from its item states (items the dead one had in hand are still pending, and are done again).
 * The loop is the proxy's one leased worker (sql/leased-worker.ts): a LeasedWorker without a lease
 * of its own looks for jobs, and a LeaseKeeper holds the lease of the job in hand.
 */
import type { ItemOutcome, JobRow, PendingItem, BulkStore } from './store.ts';
import { lookupQuery } from './estimate.ts';
import { itemResult } from './result.ts';
import { ApiError } from '../http/api-error.ts';
import type { MirrorClient } from '../routes/mirror.ts';
import { monthStart } from '../governance/pricing.ts';
import { newHolderId } from '../sql/lease.ts';
import { LeaseKeeper, LeasedWorker } from '../sql/leased-worker.ts';
import { parseProfileResponse } from '../../../src/lib/service/index.ts';
import type { Policy } from '../../../src/lib/vetting/index.ts';

/** Carriers in a row that could not be fetched before the job pauses itself (a long outage). */
export const OUTAGE_PAUSE_AFTER = 5;
/** Rate-limit waits on one item before it fails (each wait is what Retry-After says, ≤ 60 s). */
const MAX_RATE_WAITS = 30;
const MAX_RATE_WAIT_MS = 60_000;
/** Unexpected errors on one job before it is marked failed. */
const MAX_JOB_ERRORS = 3;
const ERROR_BACKOFF_MS = 2000;
/**
 * A job's lease lapses this long after its holder last renewed it: a replica that dies mid-job
 * hands the job over within about this time (plus one look for work).
 */
const DEFAULT_LEASE_TTL_MS = 15_000;
/** How often an idle runner looks for runnable jobs (new ones wake it at once on its replica). */
const DEFAULT_POLL_MS = 5000;
/** How often a running job's lease is renewed and its state read (at most a third of the TTL). */
const WATCH_EVERY_MS = 1000;

export interface RunnerLog {
  warn(obj: object, message: string): void;
  error(obj: object, message: string): void;
}

export interface RunnerDeps {
  store: BulkStore;
  mirror: MirrorClient;
  /** the team's current vetting policy */
  policy: () => Policy | Promise<Policy>;
  /** how long a stored result stays fresh (the profile cache's lifetime) */
  profileTtlMs: number;
  log: RunnerLog;
  now?: () => Date;
  /** this process as a job lease holder (default: a new id) */
  holder?: string;
  /** lease time to live (default DEFAULT_LEASE_TTL_MS; tests shorten it) */
  leaseTtlMs?: number;
  /** how often an idle runner looks for jobs (default 5 s) */
  pollMs?: number;
}

type Step =
  | { kind: 'outcome'; outcome: ItemOutcome }
  | { kind: 'wait'; ms: number }
  | { kind: 'pause'; code: string; message: string };

/**
 * Histories no vetting rule reads: left out before the shared parser runs, which takes most of its
 * time on them (a 48 kB profile parses in about a third of the time without them). The verdict is
 * the same as on the full profile (routes.test.ts compares it with /api/local/verdict).
 */
const UNREAD_HISTORIES = ['inspection_history', 'crash_history', 'equipment_history'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first carrier of a profile answer (envelope, array or bare object), parsed. */
function firstProfile(json: unknown) {
  const first = isRecord(json) && Array.isArray(json.items) ? json.items[0] : json;
  const item = Array.isArray(first) ? first[0] : first;
  if (!isRecord(item)) return parseProfileResponse(json).value.items[0];
  const trimmed = { ...item };
  for (const field of UNREAD_HISTORIES) delete trimmed[field];
  return parseProfileResponse({ items: [trimmed] }).value.items[0];
}

function messageOf(json: unknown, status: number): string {
  if (json && typeof json === 'object' && 'error' in json) {
    const text = (json as { error: unknown }).error;
    if (typeof text === 'string' && text !== '') return text;
  }
  return `The data service answered ${status}`;
}

function retryAfterMs(err: ApiError): number {
  const seconds = Number(err.headers['retry-after']);
  return Math.min(
    MAX_RATE_WAIT_MS,
    Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000,
  );
}

export class BulkRunner {
  private started = false;
  /** the job leases a killed predecessor left in the SQLite file are gone */
  private cleared = false;
  private readonly worker: LeasedWorker;
  private readonly errors = new Map<number, number>();
  private readonly holder: string;
  private readonly leaseTtlMs: number;
  private readonly pollMs: number;

  constructor(private readonly deps: RunnerDeps) {
    this.holder = deps.holder ?? newHolderId('bulk');
    this.leaseTtlMs = deps.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
    this.pollMs = deps.pollMs ?? DEFAULT_POLL_MS;
    this.worker = new LeasedWorker({
      tick: () => this.round(),
      idleMs: this.pollMs,
      errorBackoffMs: ERROR_BACKOFF_MS,
      onError: (err) => this.deps.log.warn({ err }, 'bulk: cannot read the job queue; retrying'),
    });
  }

  private get stopped(): boolean {
    return !this.worker.running;
  }

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  /** Start working: queued jobs, and jobs a restart or a dead replica left running, are picked up. */
  start(): void {
    if (this.started) return;
    this.started = true;
    void this.worker.start();
  }

  /** A job was created, resumed or re-queued; also cuts short a wait of the current item. */
  wake(): void {
    this.worker.wake();
  }

  /** Stop after the item in hand (its answer is still committed when it arrives in time). */
  async stop(graceMs = 2000): Promise<void> {
    await this.worker.stop(graceMs);
  }

  /** Wait `ms`, or less when woken or stopped. */
  private sleep(ms: number): Promise<void> {
    return this.worker.pause(ms);
  }

  /** One round of the worker: run a job, or wait before looking again. */
  private async round(): Promise<number> {
    if (!this.cleared) {
      this.cleared = true;
      if (this.deps.store.kind === 'sqlite') {
        // The SQLite file is this process's alone: a job lease in it was left by a killed
        // predecessor, and waiting for it to lapse would only delay the resume.
        await this.deps.store.dropLeases().catch((err: unknown) => {
          this.deps.log.warn({ err }, 'bulk: cannot clear the job leases of a previous run');
        });
      }
    }
    // Nothing this replica may run: look again in a while (a job another replica holds may be
    // handed over when its lease lapses), or at once when woken. A job run: the next at once.
    return (await this.runOne()) ? 0 : this.pollMs;
  }

  /** Run the first runnable job whose lease this replica gets; false when there is none. */
  private async runOne(): Promise<boolean> {
    const { store } = this.deps;
    for (const job of await store.runnable()) {
      if (this.stopped) return true;
      if (!(await store.claim(job.id, this.holder, this.leaseTtlMs))) continue;
      const lease = this.keepLease(job);
      let failed = false;
      try {
        await this.runJob(job, lease);
        this.errors.delete(job.seq);
      } catch (err) {
        failed = true;
        await this.onJobError(job, err);
      } finally {
        // a renewal under way ends before the lease is released, so it cannot take it back
        await lease.release().catch((err: unknown) => {
          this.deps.log.warn({ err, job: job.id }, 'bulk: cannot release the job lease');
        });
      }
      if (failed) await this.sleep(ERROR_BACKOFF_MS);
      return true;
    }
    return false;
  }

  /**
   * Renew the job's lease while it runs, and watch the job's state: a pause or cancel made on any
   * replica, or a lease lost (this process stalled past its TTL and another took the job), wakes
   * the runner from a wait so it stops the job.
   */
  private keepLease(job: JobRow): LeaseKeeper {
    const { store, log } = this.deps;
    const keeper = new LeaseKeeper({
      lease: {
        acquire: (holder, ttlMs) => store.claim(job.id, holder, ttlMs),
        release: (holder) => store.release(job.id, holder),
      },
      holder: this.holder,
      ttlMs: this.leaseTtlMs,
      renewEveryMs: Math.max(50, Math.min(this.leaseTtlMs / 3, WATCH_EVERY_MS)),
      held: true,
      // a lost job lease is not taken back; a renewal without an answer changes nothing
      once: true,
      onUnsure: 'keep',
      onChange: (held) => {
        if (!held) log.warn({ job: job.id }, 'bulk: the job lease went to another replica');
      },
      afterRenew: async (held) => {
        const status = await store.status(job.seq);
        if (!held || (status !== 'running' && status !== 'queued')) this.worker.wake();
      },
      onError: (err) => log.warn({ err, job: job.id }, 'bulk: cannot renew the job lease'),
    });
    keeper.start();
    return keeper;
  }

  private async onJobError(job: JobRow, err: unknown): Promise<void> {
    if (this.stopped) return;
    const count = (this.errors.get(job.seq) ?? 0) + 1;
    this.errors.set(job.seq, count);
    this.deps.log.warn({ err, job: job.id, count }, 'bulk: the job stopped on an error');
    if (count >= MAX_JOB_ERRORS) {
      try {
        const message = err instanceof Error ? err.message : String(err);
        await this.deps.store.fail(job.seq, { code: 'internal_error', message }, this.now());
        this.errors.delete(job.seq);
      } catch (failed) {
        this.deps.log.error({ err: failed, job: job.id }, 'bulk: cannot mark the job failed');
      }
    }
  }

  private async runJob(job: JobRow, lease: LeaseKeeper): Promise<void> {
    const { store } = this.deps;
    if (!(await store.start(job.seq, this.now()))) return;
    let down = 0;
    let rateWaits = 0;
    let lastPosition = -1;
    while (!this.stopped && lease.held) {
      // The user may pause or cancel between two items, on any replica: the database says what
      // to do next.
      if ((await store.status(job.seq)) !== 'running') return;
      const item = await store.nextPending(job.seq);
      if (!item) {
        await store.complete(job.seq, this.now());
        return;
      }
      if (item.position !== lastPosition) rateWaits = 0;
      lastPosition = item.position;
      const step = await this.process(job, item);
      // another replica has the job now: it does this item again (a free cache hit)
      if (!lease.held) return;
      if (step.kind === 'wait') {
        rateWaits += 1;
        if (rateWaits <= MAX_RATE_WAITS) {
          // pacing, not a failed lookup: the item is asked again when the limit lets it through
          await this.sleep(step.ms);
          continue;
        }
        const message = 'The per-minute limit stayed used up; retry this carrier later.';
        await store.finish(
          job.seq,
          item.position,
          { status: 'failed', dot: null, code: 'upstream_unavailable', message },
          this.now(),
        );
        continue;
      }
      if (step.kind === 'pause') {
        await store.pauseFor(job.seq, step, this.now());
        return;
      }
      await store.finish(job.seq, item.position, step.outcome, this.now());
      const outage =
        step.outcome.status === 'failed' && step.outcome.code === 'upstream_unavailable';
      down = outage ? down + 1 : 0;
      if (down >= OUTAGE_PAUSE_AFTER) {
        await store.pauseFor(
          job.seq,
          {
            code: 'upstream_unavailable',
            message: `${down} carriers in a row could not be fetched: the data service seems down. Resume the job when it is back, and retry the failed carriers.`,
          },
          this.now(),
        );
        return;
      }
    }
  }

  /**
   * A result of this month still within the cache's lifetime, under the same policy: used again
   * without a call (after a restart the cache is empty; the call would be free but would take a
   * slot of the rate limit).
   */
  private async storedFor(dot: string, policy: Policy, now: Date) {
    const since = new Date(
      Math.max(monthStart(now).getTime(), now.getTime() - this.deps.profileTtlMs),
    );
    const stored = await this.deps.store.storedResult(dot, since.toISOString());
    return stored && stored.result.policy_version === policy.version ? stored : undefined;
  }

  /** The DOTs whose stored result a job would take without a call (the estimate's duration). */
  async reusable(dots: readonly string[]): Promise<ReadonlySet<string>> {
    const policy = await this.deps.policy();
    const now = this.now();
    const found = new Set<string>();
    for (const dot of new Set(dots)) {
      if (await this.storedFor(dot, policy, now)) found.add(dot);
    }
    return found;
  }

  /** Look one carrier up and judge it; a wait (rate limit) or a pause (budget) instead. */
  private async process(job: JobRow, item: PendingItem): Promise<Step> {
    const policy = await this.deps.policy();
    const now = this.now();
    if (item.kind === 'dot') {
      const stored = await this.storedFor(item.lookup, policy, now);
      if (stored) {
        return {
          kind: 'outcome',
          outcome: { status: 'done', dot: stored.dot, result: stored.result, source: 'stored' },
        };
      }
    }
    const caller = {
      user: job.created_by,
      requestId: `bulk-${job.id.slice(0, 8)}-${item.position}`,
      headers: {},
      // held within the cache's bulk share: the job keeps its results, and 5,000 profiles would
      // otherwise push every user's held answer out and stay in memory after the job
      bulk: true,
    };
    const dot = item.kind === 'dot' ? item.lookup : null;
    let answer;
    try {
      answer = await this.deps.mirror.get('profile', lookupQuery(item), caller);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.status === 402)
        return { kind: 'pause', code: 'budget_exceeded', message: err.message };
      if (err.status === 429) return { kind: 'wait', ms: retryAfterMs(err) };
      if (err.code === 'storage_unavailable') throw err;
      const code = err.status >= 500 ? 'upstream_unavailable' : 'rejected';
      return { kind: 'outcome', outcome: { status: 'failed', dot, code, message: err.message } };
    }
    const { status, json } = answer;
    if (status >= 200 && status < 300) {
      const profile = firstProfile(json);
      if (!profile) {
        const message = 'The data service has no carrier with this identifier.';
        return { kind: 'outcome', outcome: { status: 'failed', dot, code: 'not_found', message } };
      }
      return {
        kind: 'outcome',
        outcome: {
          status: 'done',
          dot: profile.dot_number ?? dot,
          result: itemResult(profile, policy, now),
          source: answer.cacheHit ? 'cache' : 'upstream',
        },
      };
    }
    const message = messageOf(json, status);
    if (status === 404)
      return { kind: 'outcome', outcome: { status: 'failed', dot, code: 'not_found', message } };
    if (status === 429) return { kind: 'wait', ms: 5000 };
    if (status === 402) return { kind: 'pause', code: 'budget_exceeded', message };
    const code = status >= 500 ? 'upstream_unavailable' : 'rejected';
    return { kind: 'outcome', outcome: { status: 'failed', dot, code, message } };
  }

  /** Carriers a minute over the job's recent finishes, and the seconds left at that pace. */
  async pace(
    job: Pick<JobRow, 'seq' | 'status' | 'total' | 'done' | 'failed'>,
    limitPerMinute: number | null,
  ): Promise<{ rate_per_minute: number | null; eta_seconds: number | null }> {
    const times = (await this.deps.store.recentFinishes(job.seq, 60))
      .map((at) => Date.parse(at))
      .filter((at) => Number.isFinite(at));
    const newest = times[0];
    // only the last two minutes of running count: a pause in between would slow the figure
    const window = newest === undefined ? [] : times.filter((at) => at >= newest - 120_000);
    const oldest = window.at(-1);
    let rate: number | null = null;
    if (newest !== undefined && oldest !== undefined && window.length >= 2) {
      rate = ((window.length - 1) * 60_000) / Math.max(1, newest - oldest);
    }
    if (rate !== null && limitPerMinute !== null) rate = Math.min(rate, limitPerMinute);
    const left = job.total - job.done - job.failed;
    const pace = rate ?? limitPerMinute;
    const running = job.status === 'running' || job.status === 'queued';
    const eta = running && pace !== null && pace > 0 ? Math.ceil((left * 60) / pace) : null;
    return {
      rate_per_minute: rate === null ? null : Math.round(rate * 10) / 10,
      eta_seconds: running && left === 0 ? 0 : eta,
    };
  }
}
