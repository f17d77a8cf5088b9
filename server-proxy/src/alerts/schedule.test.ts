/** Daily digests at a local time, and the alert variables of the environment. */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig } from '../config.ts';
import { openProxyDb } from '../db.ts';
import type { MirrorClient } from '../routes/mirror.ts';
import { makeTempDir } from '../helpers.test-support.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { createVettingSqlStore } from '../vetting/store.ts';
import { Poller, lastDigestSlot } from './poller.ts';
import { createAlertStore, type SeenChange } from './store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('lastDigestSlot', () => {
  it('is the latest time the local clock read hh:mm', () => {
    const at = new Date('2026-11-26T15:30:00Z'); // 09:30 in Chicago (CST, UTC-6)
    expect(lastDigestSlot(at, '08:00', 'America/Chicago').toISOString()).toBe(
      '2026-11-26T14:00:00.000Z',
    );
    expect(lastDigestSlot(at, '10:00', 'America/Chicago').toISOString()).toBe(
      '2026-11-25T16:00:00.000Z',
    );
    expect(lastDigestSlot(at, '15:30', 'UTC').toISOString()).toBe('2026-11-26T15:30:00.000Z');
  });
});

describe('daily digests', () => {
  it('queues one digest per day at the local time, with the changes first seen since the last', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const sql = createSqliteEngine(openProxyDb(join(dir, 'proxy.sqlite')), { ownsDatabase: true });
    const store = createAlertStore(sql);
    let now = new Date('2026-11-26T07:00:00Z');
    const sub = await store.createSubscription(
      'alice',
      {
        kind: 'email',
        target: 'a@example.com',
        channels: ['insurance'],
        severity: 'all',
        schedule: 'daily',
        digest_time: '08:00',
        time_zone: 'UTC',
      },
      now,
    );
    const change = (id: string, channel: SeenChange['channel']): SeenChange => ({
      id,
      profileId: '568253-MC277621',
      dot: '568253',
      field: channel === 'insurance' ? 'indicator_insurance' : 'total_power_units',
      channel,
      date: '2026-11-26',
      prior: true,
      current: false,
      impact: null,
    });
    // the first poll is the baseline (nothing announced); these changes come after it
    await store.recordPoll([], new Date('2026-11-26T07:10:00Z'), () => []);
    await store.recordPoll(
      [change('c1-00000000000001', 'insurance'), change('c1-00000000000002', 'fleet')],
      new Date('2026-11-26T07:30:00Z'),
      () => [],
    );
    let queued = 0;
    const poller = new Poller({
      store,
      mirror: {} as MirrorClient,
      vetting: createVettingSqlStore(sql),
      team: [],
      intervalSeconds: 0,
      onQueued: () => (queued += 1),
      log: { info: () => undefined, warn: () => undefined },
      now: () => now,
    });
    now = new Date('2026-11-26T07:59:00Z');
    expect(await poller.digestsDue()).toBe(0);
    now = new Date('2026-11-26T08:01:00Z');
    expect(await poller.digestsDue()).toBe(1);
    expect(await poller.digestsDue()).toBe(0);
    expect(queued).toBe(1);
    const [delivery] = await store.deliveries();
    expect(delivery).toMatchObject({ subscription_id: sub.id, kind: 'email', state: 'pending' });
    expect(delivery?.payload.carriers[0]?.changes.map((c) => c.channel)).toEqual(['insurance']);
    // the next day with nothing new: no empty digest
    now = new Date('2026-11-27T08:05:00Z');
    expect(await poller.digestsDue()).toBe(0);
    await sql.close();
  });
});

describe('alert variables', () => {
  it('polls every 900 s by default, 0 turns it off', () => {
    expect(loadConfig({}).alerts?.pollIntervalSeconds).toBe(900);
    expect(loadConfig({ MONITOR_POLL_INTERVAL: '0' }).alerts?.pollIntervalSeconds).toBe(0);
  });

  it('refuses an unsigned webhook, e-mail without SMTP, and never quotes SMTP_URL', () => {
    let problems = '';
    try {
      loadConfig({
        ALERT_WEBHOOK_URL: 'https://hooks.example.com/x',
        ALERT_EMAIL_TO: 'a@example.com',
        SMTP_URL: 'http://u:secretpw@x',
      });
    } catch (err) {
      problems = (err as ConfigError).message;
    }
    expect(problems).toMatch(/ALERT_WEBHOOK_SECRET/);
    expect(problems).toMatch(/SMTP_URL must be/);
    expect(problems).not.toContain('secretpw');
  });

  it('reads the webhook host allow-list and names an entry that is not a host', () => {
    expect(loadConfig({}).alerts?.webhookHosts).toEqual([]);
    expect(
      loadConfig({ ALERT_WEBHOOK_HOSTS: 'hooks.slack.com, *.example.com,127.0.0.1:9000' }).alerts
        ?.webhookHosts,
    ).toEqual(['hooks.slack.com', '*.example.com', '127.0.0.1:9000']);
    expect(() => loadConfig({ ALERT_WEBHOOK_HOSTS: 'https://hooks.slack.com/x' })).toThrow(
      /ALERT_WEBHOOK_HOSTS entry is not a host.*https:\/\/hooks\.slack\.com\/x/,
    );
  });
});
