/**
 * The outbox worker: sends due deliveries one at a time, oldest first. A failed attempt is tried
 * again after an exponential back-off (30 s doubling, at most an hour apart) until 24 hours after the
 * delivery was queued (or sent again), then it is `failed` and waits for "send again". Deliveries a
 * stopped process left `sending` are sent again (at-least-once; receivers drop repeats by the
 * delivery id): at start when this process owns the database (SQLite), else once their claim has
 * run out (store.ts). Every replica runs an outbox: each delivery is claimed by exactly one.
 */
import { backoffDelayMs } from '../../../src/lib/service/retry.ts';
import type { Sender } from './sender.ts';
import type { AlertStore } from './store.ts';

interface OutboxLog {
  warn(obj: object, message: string): void;
}

export interface OutboxDeps {
  store: AlertStore;
  send: Sender;
  log: OutboxLog;
  /**
   * true when no other process uses this database (SQLite): every delivery left `sending` is then
   * a stopped process's, and is sent again at start without waiting for its claim to run out
   */
  exclusive: boolean;
  now?: () => Date;
  /** first retry delay (tests shorten it) */
  retryBaseMs?: number;
  retryMaxMs?: number;
}

const IDLE_MS = 60_000;

export class Outbox {
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;

  constructor(private readonly deps: OutboxDeps) {}

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  start(): void {
    if (this.loop) return;
    this.stopped = false;
    this.loop = this.run();
  }

  /** Deliveries a stopped process left `sending`, due again now. */
  private async recover(all: boolean): Promise<void> {
    const recovered = await this.deps.store.recoverSending(this.now(), all);
    if (recovered > 0) {
      this.deps.log.warn({ recovered }, 'alerts: deliveries interrupted by a stop are sent again');
    }
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stop after the delivery in hand; its outcome is still recorded when it ends in time. */
  async stop(graceMs = 2000): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    const loop = this.loop;
    this.loop = undefined;
    if (!loop) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      loop,
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
  }

  /** Send every delivery due now (also what the loop does); resolves when none is left. */
  async drain(): Promise<number> {
    let sent = 0;
    while (!this.stopped && (await this.sendOne())) sent += 1;
    return sent;
  }

  private async sendOne(): Promise<boolean> {
    const { store } = this.deps;
    const delivery = await store.claimDue(this.now());
    if (!delivery) return false;
    let failure: unknown;
    try {
      await this.deps.send(delivery);
    } catch (err) {
      failure = err;
    }
    if (failure === undefined) {
      await store.delivered(delivery.seq, this.now());
    } else {
      const message = failure instanceof Error ? failure.message : String(failure);
      const delay = backoffDelayMs(delivery.attempts - 1, {
        baseDelayMs: this.deps.retryBaseMs ?? 30_000,
        maxDelayMs: this.deps.retryMaxMs ?? 3600_000,
        jitter: 0.1,
      });
      const state = await store.attemptFailed(
        delivery.seq,
        message,
        new Date(this.now().getTime() + delay),
      );
      this.deps.log.warn(
        {
          delivery: delivery.id,
          kind: delivery.kind,
          attempts: delivery.attempts,
          state,
          error: message,
        },
        'alerts: a delivery attempt failed',
      );
    }
    return true;
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped || this.woken) return Promise.resolve();
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
    let recoverAll = this.deps.exclusive;
    while (!this.stopped) {
      this.woken = false;
      let wait = IDLE_MS;
      try {
        await this.recover(recoverAll);
        recoverAll = false;
        await this.drain();
        if (this.stopped) return;
        const next = await this.deps.store.nextDueAt();
        if (next !== undefined) wait = Date.parse(next) - this.now().getTime();
      } catch (err) {
        if (this.stopped) return;
        this.deps.log.warn({ err }, 'alerts: the outbox cannot be read; retrying');
      }
      await this.sleep(Math.min(IDLE_MS, Math.max(50, wait)));
    }
  }
}
