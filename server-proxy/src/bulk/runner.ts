/**
 * The bulk job runner: one job at a time (oldest first; a job left running by a restart first), one
 * carrier at a time, each looked up through the proxy's own mirror client — the same validation,
 * cache, budget reservation, rate-limit queue, retries, spend meter and audit as a profile view —
 * and its outcome committed before the next one starts. See docs/bulk-vetting.md.
 */
import type { ItemOutcome, JobRow, PendingItem, BulkStore } from './store.ts';
import { lookupQuery } from './estimate.ts';
import { itemResult } from './result.ts';
import { ApiError } from '../http/api-error.ts';
import type { MirrorClient } from '../routes/mirror.ts';
import { monthStart } from '../governance/pricing.ts';
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

export interface RunnerLog {
  warn(obj: object, message: string): void;
  error(obj: object, message: string): void;
}

export interface RunnerDeps {
  store: BulkStore;
  mirror: MirrorClient;
  /** the team's current vetting policy */
  policy: () => Policy;
  /** how long a stored result stays fresh (the profile cache's lifetime) */
  profileTtlMs: number;
  log: RunnerLog;
  now?: () => Date;
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
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private readonly errors = new Map<number, number>();

  constructor(private readonly deps: RunnerDeps) {}

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  /** Start working: queued jobs, and a job a restart left running, are picked up. */
  start(): void {
    this.loop ??= this.run();
  }

  /** A job was created, resumed or re-queued; also cuts short a wait of the current item. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stop after the item in hand (its answer is still committed when it arrives in time). */
  async stop(graceMs = 2000): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    if (!this.loop) return;
    await Promise.race([this.loop, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
  }

  /** Wait `ms`, or less when woken or stopped. */
  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wakeUp === done) this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      let job: JobRow | undefined;
      try {
        job = this.deps.store.nextRunnable();
      } catch (err) {
        this.deps.log.warn({ err }, 'bulk: cannot read the job queue; retrying');
        await this.sleep(ERROR_BACKOFF_MS);
        continue;
      }
      if (!job) {
        if (!this.woken) await this.sleep(60_000);
        continue;
      }
      try {
        await this.runJob(job);
        this.errors.delete(job.seq);
      } catch (err) {
        await this.onJobError(job, err);
      }
    }
  }

  private async onJobError(job: JobRow, err: unknown): Promise<void> {
    if (this.stopped) return;
    const count = (this.errors.get(job.seq) ?? 0) + 1;
    this.errors.set(job.seq, count);
    this.deps.log.warn({ err, job: job.id, count }, 'bulk: the job stopped on an error');
    if (count >= MAX_JOB_ERRORS) {
      try {
        const message = err instanceof Error ? err.message : String(err);
        this.deps.store.fail(job.seq, { code: 'internal_error', message }, this.now());
        this.errors.delete(job.seq);
      } catch (failed) {
        this.deps.log.error({ err: failed, job: job.id }, 'bulk: cannot mark the job failed');
      }
    }
    await this.sleep(ERROR_BACKOFF_MS);
  }

  private async runJob(job: JobRow): Promise<void> {
    const { store } = this.deps;
    if (!store.start(job.seq, this.now())) return;
    let down = 0;
    let rateWaits = 0;
    let lastPosition = -1;
    while (!this.stopped) {
      // The user may pause or cancel between two items: the database says what to do next.
      if (store.status(job.seq) !== 'running') return;
      const item = store.nextPending(job.seq);
      if (!item) {
        store.complete(job.seq, this.now());
        return;
      }
      if (item.position !== lastPosition) rateWaits = 0;
      lastPosition = item.position;
      const step = await this.process(job, item);
      if (step.kind === 'wait') {
        rateWaits += 1;
        if (rateWaits <= MAX_RATE_WAITS) {
          // pacing, not a failed lookup: the item is asked again when the limit lets it through
          await this.sleep(step.ms);
          continue;
        }
        const message = 'The per-minute limit stayed used up; retry this carrier later.';
        store.finish(
          job.seq,
          item.position,
          { status: 'failed', dot: null, code: 'upstream_unavailable', message },
          this.now(),
        );
        continue;
      }
      if (step.kind === 'pause') {
        store.pauseFor(job.seq, step, this.now());
        return;
      }
      store.finish(job.seq, item.position, step.outcome, this.now());
      const outage =
        step.outcome.status === 'failed' && step.outcome.code === 'upstream_unavailable';
      down = outage ? down + 1 : 0;
      if (down >= OUTAGE_PAUSE_AFTER) {
        store.pauseFor(
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

  /** Look one carrier up and judge it; a wait (rate limit) or a pause (budget) instead. */
  private async process(job: JobRow, item: PendingItem): Promise<Step> {
    const policy = this.deps.policy();
    const now = this.now();
    if (item.kind === 'dot') {
      // A result of this month still within the cache's lifetime, under the same policy, is used
      // again without a call (after a restart the cache is empty; the call would be free but
      // would take a slot of the rate limit).
      const since = new Date(
        Math.max(monthStart(now).getTime(), now.getTime() - this.deps.profileTtlMs),
      );
      const stored = this.deps.store.storedResult(item.lookup, since.toISOString());
      if (stored && stored.result.policy_version === policy.version) {
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
  pace(
    job: Pick<JobRow, 'seq' | 'status' | 'total' | 'done' | 'failed'>,
    limitPerMinute: number | null,
  ): { rate_per_minute: number | null; eta_seconds: number | null } {
    const times = this.deps.store
      .recentFinishes(job.seq, 60)
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
