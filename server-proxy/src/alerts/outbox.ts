/**
 * The outbox worker: sends due deliveries one at a time, oldest first. A failed attempt is tried
 * again after an exponential back-off (30 s doubling, at most an hour apart) until 24 hours after the
 * delivery was queued (or sent again), then it is `failed` and waits for "send again". Deliveries a
 * stopped process left `sending` are sent again (at-least-once; receivers drop repeats by the
 * delivery id): at start when this process owns the database (SQLite), else once their claim has
 * run out (store.ts). Every replica runs an outbox: each delivery is claimed by exactly one. Its
 * loop is the proxy's one worker loop (sql/leased-worker.ts), without a lease.
 */
import { backoffDelayMs } from '../../../src/lib/service/retry.ts';
import { LeasedWorker } from '../sql/leased-worker.ts';
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
  private recoverAll = false;
  private readonly worker: LeasedWorker;

  constructor(private readonly deps: OutboxDeps) {
    // no lease: every replica sends, each delivery is claimed by one (store.claimDue)
    this.worker = new LeasedWorker({
      tick: () => this.round(),
      idleMs: IDLE_MS,
      errorBackoffMs: IDLE_MS,
      onError: (err) => this.deps.log.warn({ err }, 'alerts: the outbox cannot be read; retrying'),
    });
  }

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  start(): void {
    if (this.worker.running) return;
    this.stopped = false;
    this.recoverAll = this.deps.exclusive;
    void this.worker.start();
  }

  /** Deliveries a stopped process left `sending`, due again now. */
  private async recover(all: boolean): Promise<void> {
    const recovered = await this.deps.store.recoverSending(this.now(), all);
    if (recovered > 0) {
      this.deps.log.warn({ recovered }, 'alerts: deliveries interrupted by a stop are sent again');
    }
  }

  wake(): void {
    this.worker.wake();
  }

  /** Stop after the delivery in hand; its outcome is still recorded when it ends in time. */
  async stop(graceMs = 2000): Promise<void> {
    this.stopped = true;
    await this.worker.stop(graceMs);
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

  /** One round of the worker: recover, send what is due, and wait until the next is due. */
  private async round(): Promise<number | undefined> {
    await this.recover(this.recoverAll);
    this.recoverAll = false;
    await this.drain();
    if (this.stopped) return undefined;
    let wait = IDLE_MS;
    const next = await this.deps.store.nextDueAt();
    if (next !== undefined) wait = Date.parse(next) - this.now().getTime();
    return Math.min(IDLE_MS, Math.max(50, wait));
  }
}
