/** Two pollers on one database: one polls (the lease holder), the other keeps a schedule it skips. */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openProxyDb } from '../db.ts';
import { makeTempDir } from '../helpers.test-support.ts';
import type { MirrorClient } from '../routes/mirror.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { createVettingSqlStore } from '../vetting/store.ts';
import { Poller } from './poller.ts';
import { createAlertStore } from './store.ts';

const cleanUps: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

it('polls on the lease holder only; the other reports its next poll ahead and takes over at a stop', async () => {
  const dir = makeTempDir();
  const sql = createSqliteEngine(openProxyDb(join(dir, 'proxy.sqlite')), { ownsDatabase: true });
  cleanUps.push(async () => {
    await sql.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const store = createAlertStore(sql);
  const calls: string[] = [];
  const poller = (label: string) => {
    // every poll reaches the mirror (it fails here: only who calls it counts)
    const mirror = {
      get: async () => {
        calls.push(label);
        throw new Error('no service in this test');
      },
    } as unknown as MirrorClient;
    const p = new Poller({
      store,
      mirror,
      vetting: createVettingSqlStore(sql),
      team: [],
      intervalSeconds: 1,
      onQueued: () => undefined,
      log: { info: () => undefined, warn: () => undefined },
      holder: label,
    });
    cleanUps.push(() => p.stop());
    return p;
  };
  const a = poller('a');
  const b = poller('b');
  await a.start();
  await b.start();
  expect(a.polling).toBe(true);
  expect(b.polling).toBe(false);
  // the first poll is due 5 s after start; B's schedule passes without a poll of its own
  await new Promise((resolve) => setTimeout(resolve, 6500));
  expect(calls).toContain('a');
  expect(calls).not.toContain('b');
  expect(b.nextPollAt?.getTime()).toBeGreaterThan(Date.now());
  // A stops and releases the lease: B polls from then on, within a heartbeat (1 s)
  await a.stop();
  const stoppedAt = Date.now();
  await expect.poll(() => b.polling, { timeout: 3000, interval: 50 }).toBe(true);
  expect(Date.now() - stoppedAt).toBeLessThan(2000);
  await expect.poll(() => calls.includes('b'), { timeout: 3000, interval: 50 }).toBe(true);
}, 20_000);
