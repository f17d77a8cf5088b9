/**
 * The one loop of the proxy's background work (the bulk runner, the alerts poller and outbox): a
 * worker ticks on a timer (each tick says when the next is due), can be woken at once, backs off
 * when a tick throws, and stops cleanly (the tick in flight ends first). With a lease (lease.ts)
 * it ticks only while this process holds the lease, so among replicas sharing a database one
 * runs: the lease is renewed on a heartbeat (a third of its TTL) while the worker runs, taken over
 * by another replica once its holder stops renewing it (died) or releases it (stopped).
 *
 * `LeaseKeeper` is the lease half alone, for work whose lease is taken per item (a bulk job's).
 */
import type { Lease } from './lease.ts';

export interface LeaseKeeperOptions {
  lease: Lease;
  /** this process in the lease table (lease.ts `newHolderId`) */
  holder: string;
  ttlMs: number;
  /** renewal period (default a third of the TTL) */
  renewEveryMs?: number;
  /** the lease is held already (taken by the caller) */
  held?: boolean;
  /**
   * What a renewal the database does not answer means: 'yield' counts the lease as not held (work
   * nowhere rather than perhaps twice), 'keep' keeps the last answer.
   */
  onUnsure: 'yield' | 'keep';
  /** stop renewing once the lease is lost (a job lease is not taken back) */
  once?: boolean;
  /** the lease was gained or lost (by a renewal) */
  onChange?: (held: boolean) => void | Promise<void>;
  /** after each heartbeat renewal, with its answer (and not after one that failed) */
  afterRenew?: (held: boolean) => void | Promise<void>;
  onError: (err: unknown) => void;
}

/** Holds a lease: takes or renews it on a heartbeat, says when it is gained or lost. */
export class LeaseKeeper {
  private state: boolean;
  private renewing: Promise<boolean> | undefined;
  private heartbeat: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private beating = false;
  /** the last renewal got no answer */
  private unsure = false;
  readonly renewEveryMs: number;

  constructor(private readonly options: LeaseKeeperOptions) {
    this.state = options.held ?? false;
    this.renewEveryMs = Math.max(20, options.renewEveryMs ?? Math.floor(options.ttlMs / 3));
  }

  /** This process held the lease at its last renewal. */
  get held(): boolean {
    return this.state;
  }

  get holder(): string {
    return this.options.holder;
  }

  /** Take or renew the lease now (one renewal at a time); answers whether it is held. */
  renew(): Promise<boolean> {
    this.renewing ??= this.renewOnce().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async renewOnce(): Promise<boolean> {
    const { lease, holder, ttlMs } = this.options;
    let held: boolean;
    this.unsure = false;
    try {
      // the lease runs on the wall clock the replicas share, never on a test's clock
      held = await lease.acquire(holder, ttlMs, Date.now());
    } catch (err) {
      this.unsure = true;
      this.options.onError(err);
      if (this.options.onUnsure === 'keep') return this.state;
      held = false;
    }
    if (held !== this.state) {
      this.state = held;
      try {
        await this.options.onChange?.(held);
      } catch (err) {
        this.options.onError(err);
      }
    }
    return held;
  }

  /** Renew on the heartbeat until `stop`. */
  start(): void {
    if (this.beating) return;
    this.beating = true;
    this.schedule();
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.heartbeat = this.beat();
    }, this.renewEveryMs);
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    if (!this.beating) return;
    const before = this.state;
    const held = await this.renew();
    if (!this.beating) return;
    if (!this.unsure) {
      try {
        await this.options.afterRenew?.(held);
      } catch (err) {
        this.options.onError(err);
      }
    }
    if (!this.beating) return;
    if (this.options.once && before && !this.state) {
      this.beating = false;
      return;
    }
    this.schedule();
  }

  /** Stop renewing; a renewal under way ends first (so it cannot take the lease back after a release). */
  async stop(): Promise<void> {
    this.beating = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.heartbeat;
    await this.renewing?.catch(() => undefined);
  }

  /** Stop, then give the lease up (another replica need not wait for it to lapse). */
  async release(): Promise<void> {
    await this.stop();
    this.state = false;
    await this.options.lease.release(this.options.holder);
  }
}

export interface LeasedWorkerOptions {
  /**
   * One round of work. Answers the milliseconds until the next round (undefined: `idleMs`). A
   * tick that throws is reported to `onError`, and the next round waits `errorBackoffMs`.
   */
  tick: () => Promise<number | undefined | void>;
  /** wait between rounds when the tick names none */
  idleMs: number;
  /** wait after a tick that threw */
  errorBackoffMs: number;
  onError: (err: unknown) => void;
  /** run only while holding this lease (none: every process runs the worker) */
  lease?: {
    lease: Lease;
    holder: string;
    ttlMs: number;
    renewEveryMs?: number;
    /** this process gained (true) or lost (false) the lease; not called once stopping */
    onChange?: (held: boolean) => void | Promise<void>;
    /** a renewal failed (the worker yields the lease until one succeeds), or the release at stop */
    onError: (err: unknown, during: 'renew' | 'release') => void;
  };
}

/** A timer loop of ticks: start, wake, stop, and (with a lease) one process at a time. */
export class LeasedWorker {
  private stopped = true;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private readonly keeper: LeaseKeeper | undefined;

  constructor(private readonly options: LeasedWorkerOptions) {
    const lease = options.lease;
    this.keeper =
      lease &&
      new LeaseKeeper({
        lease: lease.lease,
        holder: lease.holder,
        ttlMs: lease.ttlMs,
        renewEveryMs: lease.renewEveryMs,
        onUnsure: 'yield',
        onError: (err) => lease.onError(err, 'renew'),
        onChange: async (held) => {
          if (this.stopped) return;
          await lease.onChange?.(held);
          // gained: tick now rather than at the end of the idle wait
          if (held) this.wake();
        },
      });
  }

  /** This process held the worker's lease at its last renewal (true without a lease once started). */
  get leading(): boolean {
    return this.keeper ? this.keeper.held : !this.stopped;
  }

  get running(): boolean {
    return !this.stopped;
  }

  /**
   * Start the loop; with a lease, resolves once the first attempt to take it has answered (the
   * first tick follows at once when it was taken).
   */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    if (this.keeper) {
      await this.keeper.renew();
      if (this.stopped) return;
      this.keeper.start();
    }
    // a loop a timed-out stop left running ends before the new one starts
    const previous = this.loop ?? Promise.resolve();
    const loop: Promise<void> = previous
      .then(() => this.run())
      .catch((err: unknown) => this.options.onError(err));
    this.loop = loop;
    void loop.finally(() => {
      if (this.loop === loop) this.loop = undefined;
    });
  }

  /** Run the next tick now (or cut short a `pause` of the tick in flight). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /**
   * Stop: no tick starts any more, a `pause` ends at once, and the tick in flight may end (waited
   * for up to `graceMs`). The lease is given up once that tick has ended, never while it runs.
   */
  async stop(graceMs = Number.POSITIVE_INFINITY): Promise<void> {
    if (this.stopped && !this.loop) return;
    this.stopped = true;
    this.wakeUp?.();
    const loop = this.loop ?? Promise.resolve();
    const keeper = this.keeper;
    const released = (async () => {
      // the heartbeat goes on until the tick in flight has ended, so the lease cannot lapse
      // under it; then it stops (a renewal under way ends first) and the lease is given up
      await loop;
      // (unless started again meanwhile: the new run holds the lease)
      if (!keeper || !this.stopped) return;
      await keeper.release().catch((err: unknown) => this.options.lease?.onError(err, 'release'));
    })();
    if (graceMs === Number.POSITIVE_INFINITY) {
      await released;
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      released,
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
  }

  /** Wait `ms`, or less when woken or stopped (for waits inside a tick). */
  pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wakeUp === done) this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      timer.unref();
      this.wakeUp = done;
    });
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      // (not holding the lease: wait idle; gaining it on the heartbeat wakes the loop)
      let wait = this.options.idleMs;
      // only the lease holder works; the lease is renewed just before each round
      const leading = this.keeper ? await this.keeper.renew() : true;
      if (this.stopped) return;
      if (leading) {
        try {
          wait = (await this.options.tick()) ?? this.options.idleMs;
        } catch (err) {
          if (this.stopped) return;
          this.options.onError(err);
          wait = this.options.errorBackoffMs;
        }
      }
      if (this.stopped) return;
      if (!this.woken) await this.pause(wait);
    }
  }
}
