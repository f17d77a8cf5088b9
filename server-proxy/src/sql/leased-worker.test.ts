import { afterEach, describe, expect, it } from 'vitest';
import { forEachEngine } from './engines.test-support.ts';
import { leaseHolder, newHolderId, sqlLease, type Lease } from './lease.ts';
import { LeaseKeeper, LeasedWorker } from './leased-worker.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A worker on the lease `name` that records its ticks (start and end times) under `label`. */
function worker(
  lease: Lease,
  label: string,
  ticks: { who: string; start: number; end: number }[],
  { ttlMs = 600, tickMs = 0, idleMs = 40 } = {},
) {
  const holder = newHolderId(label);
  const errors: unknown[] = [];
  const w = new LeasedWorker({
    idleMs,
    errorBackoffMs: idleMs,
    onError: (err) => errors.push(err),
    tick: async () => {
      const start = Date.now();
      if (tickMs > 0) await sleep(tickMs);
      ticks.push({ who: label, start, end: Date.now() });
      return undefined;
    },
    lease: { lease, holder, ttlMs, onError: (err) => errors.push(err) },
  });
  return { w, holder, errors };
}

forEachEngine('the leased worker', (engine) => {
  const started: LeasedWorker[] = [];
  // workers stop before the harness closes the engine (hooks run in reverse: this one first)
  afterEach(async () => {
    for (const w of started.splice(0)) await w.stop();
  });
  it('runs on exactly one of two workers competing for one lease, past its TTL', async () => {
    const sql = engine.sql;
    const ticks: { who: string; start: number; end: number }[] = [];
    // each tick outlasts the lease's TTL (600 ms): only the heartbeat keeps the lease meanwhile
    const a = worker(sqlLease(sql, 'job'), 'a', ticks, { tickMs: 800 });
    const b = worker(sqlLease(sql, 'job'), 'b', ticks, { tickMs: 800 });
    started.push(a.w, b.w);
    await Promise.all([a.w.start(), b.w.start()]);
    expect([a.w.leading, b.w.leading].filter(Boolean)).toHaveLength(1);
    const [winner, loser] = a.w.leading ? [a, b] : [b, a];
    // four TTLs: the heartbeat keeps the lease, and the other never ticks
    await sleep(2400);
    const who = new Set(ticks.map((t) => t.who));
    expect(who.size).toBe(1);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(await leaseHolder(sql, 'job')).toBe(winner.holder);
    expect(loser.w.leading).toBe(false);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it('hands over once the holder dies and its lease lapses, at once when it stops', async () => {
    const sql = engine.sql;
    const ticks: { who: string; start: number; end: number }[] = [];
    const lease = sqlLease(sql, 'poll');
    // a process that dies does not give its lease up: its release does nothing
    const dying: Lease = { acquire: lease.acquire, release: async () => undefined };
    const a = worker(dying, 'a', ticks, { ttlMs: 900 });
    started.push(a.w);
    await a.w.start();
    expect(a.w.leading).toBe(true);
    const b = worker(lease, 'b', ticks, { ttlMs: 900 });
    started.push(b.w);
    await b.w.start();
    expect(b.w.leading).toBe(false);
    await until(() => ticks.length >= 3, 2000, 'a ticking');
    await a.w.stop();
    const diedAt = Date.now();
    const lastOfA = ticks.length;
    await until(() => ticks.some((t) => t.who === 'b'), 4000, 'b taking over');
    const firstOfB = ticks.find((t) => t.who === 'b');
    // not before the lease lapsed (renewed at most a heartbeat, 300 ms, before A died)
    expect((firstOfB?.start ?? 0) - diedAt).toBeGreaterThanOrEqual(900 - 300 - 50);
    // and within about a heartbeat of it
    expect((firstOfB?.start ?? 0) - diedAt).toBeLessThan(900 + 300 + 700);
    expect(ticks.slice(lastOfA).every((t) => t.who === 'b')).toBe(true);
    expect(await leaseHolder(sql, 'poll')).toBe(b.holder);

    // B stops and releases: C takes over within a heartbeat, long before the TTL (10 s)
    const c = worker(lease, 'c', ticks, { ttlMs: 10_000 });
    started.push(c.w);
    await c.w.start();
    expect(c.w.leading).toBe(false);
    const stoppedAt = Date.now();
    await b.w.stop();
    await until(() => ticks.some((t) => t.who === 'c'), 5000, 'c taking over');
    expect(Date.now() - stoppedAt).toBeLessThan(10_000 / 3 + 1000);
  });

  it('stops after the tick in flight, holding the lease until it ends, and then gives it up', async () => {
    const sql = engine.sql;
    const ticks: { who: string; start: number; end: number }[] = [];
    // A's tick (800 ms) outlasts the lease's TTL (300 ms); B waits for the lease
    const a = worker(sqlLease(sql, 'slow'), 'a', ticks, { ttlMs: 300, tickMs: 800, idleMs: 10 });
    const b = worker(sqlLease(sql, 'slow'), 'b', ticks, { ttlMs: 300 });
    started.push(a.w, b.w);
    await a.w.start();
    await b.w.start();
    await sleep(100);
    expect(ticks).toEqual([]);
    let holderDuringTick: string | undefined;
    // the lease is read while A's tick still runs, two TTLs after the stop
    const reading = sleep(600).then(async () => {
      holderDuringTick = await leaseHolder(sql, 'slow');
    });
    await a.w.stop();
    const stoppedAt = Date.now();
    await reading;
    const ofA = ticks.filter((t) => t.who === 'a');
    expect(ofA).toHaveLength(1);
    expect(ofA[0]?.end ?? Infinity).toBeLessThanOrEqual(stoppedAt);
    expect(holderDuringTick).toBe(a.holder);
    // released at the stop: B takes over within its heartbeat, never while A's tick ran
    await until(() => ticks.some((t) => t.who === 'b'), 2000, 'b taking over');
    expect(ticks.find((t) => t.who === 'b')?.start).toBeGreaterThanOrEqual(ofA[0]?.end ?? 0);
    // no tick of A starts after the stop
    await sleep(200);
    expect(ticks.filter((t) => t.who === 'a')).toHaveLength(1);
  });

  it('keeps a job lease while it runs, and says at once when another process took it', async () => {
    const sql = engine.sql;
    const lease = sqlLease(sql, 'bulk-job:x');
    const lost: boolean[] = [];
    const renewed: boolean[] = [];
    expect(await lease.acquire('mine', 300)).toBe(true);
    const keeper = new LeaseKeeper({
      lease,
      holder: 'mine',
      ttlMs: 300,
      held: true,
      once: true,
      onUnsure: 'keep',
      onChange: (held) => void lost.push(held),
      afterRenew: (held) => void renewed.push(held),
      onError: (err) => {
        throw err;
      },
    });
    keeper.start();
    await sleep(700);
    // renewed every 100 ms: still held past two TTLs
    expect(renewed.length).toBeGreaterThanOrEqual(4);
    expect(await leaseHolder(sql, 'bulk-job:x')).toBe('mine');
    // another process takes it (as if this one had stalled past its TTL)
    await sql.run('UPDATE lease SET holder = ?, expires_ms = ? WHERE name = ?', [
      'other',
      Date.now() + 60_000,
      'bulk-job:x',
    ]);
    await until(() => lost.length > 0, 1000, 'the loss');
    expect(lost).toEqual([false]);
    expect(keeper.held).toBe(false);
    const after = renewed.length;
    // a lost job lease is not taken back: no more renewals
    await sleep(300);
    expect(renewed.length).toBe(after);
    await keeper.stop();
    expect(await leaseHolder(sql, 'bulk-job:x')).toBe('other');
  });
});

describe('the leased worker without a lease', () => {
  it('ticks when due, at once when woken, and backs off after a failed tick', async () => {
    const events: string[] = [];
    let fail = false;
    const errors: unknown[] = [];
    const w = new LeasedWorker({
      idleMs: 60_000,
      errorBackoffMs: 250,
      onError: (err) => errors.push(err),
      tick: async () => {
        events.push(fail ? 'fail' : 'tick');
        if (fail) throw new Error('the queue cannot be read');
        return 60_000;
      },
    });
    await w.start();
    expect(w.leading).toBe(true);
    await until(() => events.length === 1, 1000, 'the first tick');
    await sleep(100);
    expect(events).toEqual(['tick']);
    w.wake();
    await until(() => events.length === 2, 1000, 'the woken tick');
    fail = true;
    w.wake();
    await until(() => events.length === 3, 1000, 'the failing tick');
    const failedAt = Date.now();
    fail = false;
    await until(() => events.length === 4, 2000, 'the tick after the back-off');
    expect(Date.now() - failedAt).toBeGreaterThanOrEqual(200);
    expect(events).toEqual(['tick', 'tick', 'fail', 'tick']);
    expect(errors).toHaveLength(1);
    await w.stop();
    expect(w.running).toBe(false);
    // a pause inside a tick ends at once once stopped; the worker can start again
    expect(await Promise.race([w.pause(5000).then(() => 'ended'), sleep(50)])).toBe('ended');
    await w.start();
    await until(() => events.length === 5, 1000, 'a tick after the restart');
    await w.stop();
  });
});
