/**
 * Alerts over real servers on loopback: the proxy in front of its embedded sandbox, an SMTP server
 * (smtp-server) receiving the digest, an HTTP receiver verifying each webhook's signature, the
 * sandbox's advance producing changes, restarts between poll and delivery, a receiver that is down
 * for a while, and a 429 from the list endpoint.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { buildProxyApp, type ProxyApp } from '../app.ts';
import { openProxyDb } from '../db.ts';
import type { ProxyConfig } from '../context.ts';
import {
  CSRF,
  answerJson,
  captureLog,
  request,
  startFakeOrigin,
  embeddedSandboxConfig,
  testConfig,
  type FakeOrigin,
} from '../helpers.test-support.ts';
import type { AlertsConfig } from './config.ts';

const SECRET = 'whsec_test_0123456789abcdef';
const SMTP_PASSWORD = 'smtp-Pa55word-never-shown';
const PUBLIC_URL = 'https://desk.example.com';
/** A webhook subscription to a closed port on loopback (nothing is delivered). */
const CLOSED_PORT_HOOK = {
  kind: 'webhook',
  target: 'http://127.0.0.1:9/hook',
  channels: ['fleet'],
  severity: 'all',
  schedule: 'immediate',
};

interface Mail {
  raw: string;
  to: string[];
}

async function startSmtp() {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('bad credentials'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          raw: Buffer.concat(chunks).toString('utf8'),
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    mails,
    url: `smtp://alerts:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Received {
  path: string;
  id: string;
  verified: boolean;
  body: {
    id: string;
    type: string;
    text: string;
    carriers: { profile_id: string; inbox_url: string; changes: { channel: string | null }[] }[];
  };
}

/** The receiver documented in docs/alerts.md: verify `t.body` with the shared secret. */
function verify(header: string | undefined, body: string): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((part) => part.split('=')));
  const t = parts.t as string | undefined;
  const v1 = parts.v1 as string | undefined;
  if (!t || !v1) return false;
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex');
  return v1.length === expected.length && timingSafeEqual(Buffer.from(v1), Buffer.from(expected));
}

async function startReceiver() {
  const received: Received[] = [];
  let failuresLeft = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        res.writeHead(503).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({
        path: req.url ?? '',
        id: String(req.headers['x-carrierdesk-delivery']),
        verified: verify(req.headers['x-carrierdesk-signature'] as string | undefined, body),
        body: JSON.parse(body) as Received['body'],
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    url: `http://127.0.0.1:${port}`,
    failNext(count: number) {
      failuresLeft = count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sandboxConfig(alerts: Partial<AlertsConfig>, overrides: Partial<ProxyConfig> = {}) {
  return embeddedSandboxConfig(
    {
      publicUrl: PUBLIC_URL,
      // the loopback receivers are hosts the administrator allowed (webhook-guard.ts)
      alerts: { pollIntervalSeconds: 0, emailTo: [], webhookHosts: ['127.0.0.1'], ...alerts },
      ...overrides,
    },
    { retryDelayMs: 20 },
  );
}

async function listen(app: ProxyApp) {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return (path: string, init?: Parameters<typeof request>[1]) => request(`${url}${path}`, init);
}

async function advance(app: ProxyApp, days: number) {
  const sandbox = app.proxy.sandbox;
  if (!sandbox) throw new Error('no embedded sandbox');
  const answer = await request(`${sandbox.url}/__sandbox/advance`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
    body: { days },
  });
  expect(answer.status).toBe(200);
}

async function until(check: () => boolean, ms = 8000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('alerts end to end', () => {
  it('announces sandbox changes once, by e-mail and by signed webhook, and never leaks a secret', async () => {
    const smtp = await startSmtp();
    const receiver = await startReceiver();
    cleanups.push(smtp.close, receiver.close);
    const log = captureLog();
    const config = sandboxConfig(
      {
        smtpUrl: smtp.url,
        from: 'carrier-desk <alerts@example.com>',
        emailTo: ['team@example.com'],
        webhookUrl: `${receiver.url}/team`,
        webhookSecret: SECRET,
      },
      { logLevel: 'info' },
    );
    const app = await buildProxyApp(config, { sandbox: { population: 50 }, logStream: log });
    cleanups.push(async () => {
      await app.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    });
    const call = await listen(app);

    // a fleet-only webhook subscription of this user
    const created = await call('/api/local/alerts/subscriptions', {
      method: 'POST',
      headers: CSRF,
      body: {
        kind: 'webhook',
        target: `${receiver.url}/fleet`,
        channels: ['fleet'],
        severity: 'all',
        schedule: 'immediate',
      },
    });
    expect(created.status).toBe(201);

    const first = await call('/api/local/alerts/poll', { method: 'POST', headers: CSRF });
    expect(first.json).toMatchObject({ baseline: true, new_changes: 0, deliveries_queued: 0 });
    expect((first.json as { recorded: number }).recorded).toBeGreaterThan(0);

    await advance(app, 6);
    const second = await call('/api/local/alerts/poll', { method: 'POST', headers: CSRF });
    const result = second.json as {
      new_changes: number;
      deliveries_queued: number;
      baseline: boolean;
    };
    expect(result.baseline).toBe(false);
    expect(result.new_changes).toBeGreaterThan(0);
    expect(result.deliveries_queued).toBe(3);

    await until(() => smtp.mails.length === 1 && receiver.received.length === 2);
    const mail = smtp.mails[0] as Mail;
    expect(mail.to).toEqual(['team@example.com']);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(mail.raw).toContain('/monitoring?profile_id=');
    expect(mail.raw).toContain('desk.example.com');

    const team = receiver.received.find((r) => r.path === '/team') as Received;
    const fleet = receiver.received.find((r) => r.path === '/fleet') as Received;
    expect(team.verified).toBe(true);
    expect(fleet.verified).toBe(true);
    expect(team.id).toBe(team.body.id);
    expect(team.body.type).toBe('monitoring.changes');
    // the first line names the worst change and its carrier, then how many more
    expect(team.body.text).toMatch(
      /^carrier-desk: .+ — .*USDOT \d+.* · \d+ changes? on \d+ carriers?\n/,
    );
    expect(team.body.carriers[0]?.inbox_url).toMatch(
      /^https:\/\/desk\.example\.com\/monitoring\?profile_id=/,
    );
    const fleetChannels = fleet.body.carriers.flatMap((c) => c.changes.map((ch) => ch.channel));
    expect(new Set(fleetChannels)).toEqual(new Set(['fleet']));

    // the same list again: nothing new, nothing sent
    const third = await call('/api/local/alerts/poll', { method: 'POST', headers: CSRF });
    expect(third.json).toMatchObject({ new_changes: 0, deliveries_queued: 0 });

    const deliveries = await call('/api/local/alerts/deliveries');
    const states = (deliveries.json as { deliveries: { state: string }[] }).deliveries.map(
      (d) => d.state,
    );
    expect(states).toEqual(['delivered', 'delivered', 'delivered']);

    // secrets: never in an answer, never in a log line
    const overview = await call('/api/local/alerts');
    for (const text of [overview.text, deliveries.text, created.text, log.lines.join('\n')]) {
      expect(text).not.toContain(SMTP_PASSWORD);
      expect(text).not.toContain(SECRET);
    }
    expect(overview.text).not.toContain('/team');
    expect(log.lines.join('\n')).toMatch(/monitoring list polled/);
  });

  it('refuses writes without the CSRF header, and destinations the server cannot sign or send', async () => {
    const config = sandboxConfig({});
    const app = await buildProxyApp(config, { sandbox: { population: 20 } });
    cleanups.push(async () => {
      await app.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    });
    const call = await listen(app);
    const body = {
      kind: 'webhook',
      target: 'https://hooks.example.com/x',
      channels: ['insurance'],
      severity: 'fails',
      schedule: 'immediate',
    };
    expect((await call('/api/local/alerts/subscriptions', { method: 'POST', body })).status).toBe(
      403,
    );
    expect((await call('/api/local/alerts/poll', { method: 'POST' })).status).toBe(403);
    const unsigned = await call('/api/local/alerts/subscriptions', {
      method: 'POST',
      headers: CSRF,
      body,
    });
    expect(unsigned.status).toBe(409);
    expect(unsigned.json).toMatchObject({ code: 'webhook_signing_unavailable' });
    const bad = await call('/api/local/alerts/subscriptions', {
      method: 'POST',
      headers: CSRF,
      body: { ...body, kind: 'email', target: 'not an address' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'invalid_target', hint: expect.any(String) as unknown });
  });
  it('keeps page-made webhooks off internal addresses: refused when saved, and at send time', async () => {
    // a stand-in DNS: the one public name first resolves outside, later inside the network
    let teamHookAddress = '93.184.216.34';
    const resolve = (host: string) =>
      host === 'hooks.team.test'
        ? Promise.resolve([teamHookAddress])
        : Promise.reject(new Error(`getaddrinfo ENOTFOUND ${host}`));
    const config = sandboxConfig({ webhookSecret: SECRET, webhookHosts: [] });
    const app = await buildProxyApp(config, {
      sandbox: { population: 50 },
      alerts: { resolve, retryBaseMs: 60_000 },
    });
    cleanups.push(async () => {
      await app.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    });
    const call = await listen(app);
    const subscribe = (target: string) =>
      call('/api/local/alerts/subscriptions', {
        method: 'POST',
        headers: CSRF,
        body: {
          kind: 'webhook',
          target,
          channels: ['fleet'],
          severity: 'all',
          schedule: 'immediate',
        },
      });

    for (const [target, shown] of [
      ['http://127.0.0.1:9/hook', '127.0.0.1'],
      ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
      ['http://[::1]:8080/x', '::1'],
      ['http://[::ffff:10.1.2.3]/x', '::ffff:a01:203'],
      // IPv6 forms that carry a loopback IPv4 address (issue 31)
      ['http://[::127.0.0.1]:9/x', '::7f00:1'],
      ['http://[64:ff9b::7f00:1]:9/x', '64:ff9b::7f00:1'],
      ['http://[::ffff:0:7f00:1]:9/x', '::ffff:0:7f00:1'],
      ['https://nowhere.team.test/x', 'could not be resolved'],
    ]) {
      const refused = await subscribe(target as string);
      expect(refused.status, target).toBe(400);
      expect(refused.json).toMatchObject({
        code: 'webhook_target_refused',
        hint: expect.stringContaining('ALERT_WEBHOOK_HOSTS') as unknown,
      });
      expect((refused.json as { error: string }).error).toContain(shown);
    }
    const overview = (await call('/api/local/alerts')).json as { subscriptions: unknown[] };
    expect(overview.subscriptions).toHaveLength(0);

    expect((await subscribe('https://hooks.team.test/in')).status).toBe(201);
    await call('/api/local/alerts/poll', { method: 'POST', headers: CSRF });
    teamHookAddress = '10.0.0.7';
    await advance(app, 6);
    const polled = await call('/api/local/alerts/poll', { method: 'POST', headers: CSRF });
    expect((polled.json as { deliveries_queued: number }).deliveries_queued).toBeGreaterThan(0);
    type Listed = { deliveries: { state: string; attempts: number; last_error: string | null }[] };
    const failed = async () =>
      ((await call('/api/local/alerts/deliveries')).json as Listed).deliveries.filter(
        (d) => d.attempts > 0,
      );
    const end = Date.now() + 8000;
    while ((await failed()).length === 0 && Date.now() < end) {
      await new Promise((done) => setTimeout(done, 50));
    }
    const attempts = await failed();
    expect(attempts.length).toBeGreaterThan(0);
    for (const d of attempts) {
      expect(d.state).toBe('pending');
      expect(d.last_error).toContain('private, loopback or link-local address (10.0.0.7)');
    }
  });
});

describe('a database that refuses writes', () => {
  // as in durability.test.ts: root ignores chmod, so the proxy's own connection is made read-only
  it('answers the alert writes with 503 storage_unavailable, not 500, and reads still work', async () => {
    const config = sandboxConfig({ webhookSecret: SECRET });
    let db: Database.Database | undefined;
    const app = await buildProxyApp(config, {
      sandbox: { population: 20 },
      openDb: (path) => (db = openProxyDb(path, { busyTimeoutMs: 100 })),
    });
    cleanups.push(async () => {
      db?.pragma('query_only = OFF');
      await app.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    });
    const call = await listen(app);
    const body = CLOSED_PORT_HOOK;
    const created = await call('/api/local/alerts/subscriptions', {
      method: 'POST',
      headers: CSRF,
      body,
    });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: number }).id;
    db?.pragma('query_only = ON');

    const refused = [
      await call('/api/local/alerts/subscriptions', { method: 'POST', headers: CSRF, body }),
      await call(`/api/local/alerts/subscriptions/${id}`, { method: 'PUT', headers: CSRF, body }),
      await call(`/api/local/alerts/subscriptions/${id}/remove`, { method: 'POST', headers: CSRF }),
      await call('/api/local/alerts/test', { method: 'POST', headers: CSRF, body: {} }),
    ];
    for (const answer of refused) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.json).toMatchObject({ code: 'storage_unavailable' });
    }
    const overview = await call('/api/local/alerts');
    expect(overview.status).toBe(200);
    expect((overview.json as { subscriptions: unknown[] }).subscriptions).toHaveLength(1);
  });

  it('a subscription removed between the look-up and the update is a 404, not an empty 200', async () => {
    const config = sandboxConfig({ webhookSecret: SECRET });
    const app = await buildProxyApp(config, { sandbox: { population: 20 } });
    cleanups.push(async () => {
      await app.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    });
    const call = await listen(app);
    const body = CLOSED_PORT_HOOK;
    const created = await call('/api/local/alerts/subscriptions', {
      method: 'POST',
      headers: CSRF,
      body,
    });
    const id = (created.json as { id: number }).id;
    // another request removes it at the moment this one updates it (the real store does both)
    const store = app.proxy.alerts?.store;
    if (!store) throw new Error('the proxy has no alert store');
    const update = store.updateSubscription.bind(store);
    store.updateSubscription = async (...args) => {
      await store.deleteSubscription(id);
      return update(...args);
    };
    const answer = await call(`/api/local/alerts/subscriptions/${id}`, {
      method: 'PUT',
      headers: CSRF,
      body: { ...body, severity: 'fails' },
    });
    expect(answer.status, answer.text).toBe(404);
    expect(answer.json).toMatchObject({ code: 'unknown_subscription', hint: expect.any(String) });
  });
});

describe('delivery guarantees', () => {
  it('a restart between poll and delivery loses nothing and sends nothing twice', async () => {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const config = sandboxConfig({ webhookUrl: `${receiver.url}/team`, webhookSecret: SECRET });
    cleanups.push(() => rmSync(config.dataDir, { recursive: true, force: true }));

    // 1: the poll queues a delivery; the process stops while it is being sent
    const stuck = await buildProxyApp(config, {
      sandbox: { population: 20 },
      alerts: { send: () => new Promise<void>(() => undefined) },
    });
    const call1 = await listen(stuck);
    await call1('/api/local/alerts/poll', { method: 'POST', headers: CSRF });
    await advance(stuck, 4);
    const polled = await call1('/api/local/alerts/poll', { method: 'POST', headers: CSRF });
    expect(polled.json).toMatchObject({ deliveries_queued: 1 });
    await stuck.close();
    expect(receiver.received).toHaveLength(0);

    // 2: the restarted proxy sends it, once, and announces nothing again
    const again = await buildProxyApp(config, { sandbox: { population: 20 } });
    const call2 = await listen(again);
    await until(() => receiver.received.length === 1);
    const repoll = await call2('/api/local/alerts/poll', { method: 'POST', headers: CSRF });
    expect(repoll.json).toMatchObject({ baseline: false, new_changes: 0, deliveries_queued: 0 });
    await again.close();

    // 3: another restart sends nothing more
    const third = await buildProxyApp(config, { sandbox: { population: 20 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const call3 = await listen(third);
    const list = await call3('/api/local/alerts/deliveries');
    await third.close();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.verified).toBe(true);
    expect((list.json as { deliveries: { state: string; attempts: number }[] }).deliveries).toEqual(
      [expect.objectContaining({ state: 'delivered', attempts: 2 })],
    );
  });

  it('a receiver down for a while gets the delivery once it is back; "send again" keeps the id', async () => {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const config = sandboxConfig({ webhookUrl: `${receiver.url}/team`, webhookSecret: SECRET });
    const app = await buildProxyApp(config, {
      sandbox: { population: 20 },
      alerts: { retryBaseMs: 40 },
    });
    cleanups.push(async () => {
      await app.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    });
    const call = await listen(app);
    receiver.failNext(3);
    const test = await call('/api/local/alerts/test', { method: 'POST', headers: CSRF, body: {} });
    expect(test.status).toBe(202);
    const [id] = (test.json as { ids: string[] }).ids;
    await until(() => receiver.received.length === 1);
    expect(receiver.received[0]).toMatchObject({ id, verified: true });
    const list = await call('/api/local/alerts/deliveries');
    expect((list.json as { deliveries: unknown[] }).deliveries[0]).toMatchObject({
      id,
      state: 'delivered',
      attempts: 4,
    });

    const resent = await call(`/api/local/alerts/deliveries/${id}/resend`, {
      method: 'POST',
      headers: CSRF,
    });
    expect(resent.status).toBe(200);
    await until(() => receiver.received.length === 2);
    expect(receiver.received[1]?.id).toBe(id);
  });
});

describe('polling the list', () => {
  let origin: FakeOrigin | undefined;
  afterEach(async () => {
    await origin?.close();
    origin = undefined;
  });

  it('backs off on a 429 from monitoring/list and does not call again before Retry-After', async () => {
    origin = await startFakeOrigin((_req, res) =>
      answerJson(res, 429, { error: 'slow down' }, { 'retry-after': '120' }),
    );
    const config = testConfig({
      upstream: {
        baseUrl: origin.url,
        apiKey: 'sk_test_0123456789abcdef',
        legacy: false,
        timeoutMs: 2000,
        retryDelayMs: 20,
      },
      mode: 'test',
      alerts: { pollIntervalSeconds: 60, emailTo: [], webhookHosts: [] },
    });
    const app = await buildProxyApp(config);
    cleanups.push(async () => {
      await app.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    });
    const call = await listen(app);
    const before = Date.now();
    const refused = await call('/api/local/alerts/poll', { method: 'POST', headers: CSRF });
    expect(refused.status).toBe(429);
    const calls = origin.requests.filter((r) => r.url.includes('/monitoring/list')).length;
    expect(calls).toBeGreaterThan(0);

    const held = await call('/api/local/alerts/poll', { method: 'POST', headers: CSRF });
    expect(held.status).toBe(429);
    expect(held.json).toMatchObject({ code: 'poll_backing_off' });
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(50);
    expect(origin.requests.filter((r) => r.url.includes('/monitoring/list'))).toHaveLength(calls);

    const overview = (await call('/api/local/alerts')).json as {
      poll: { failures: number; next_poll_at: string; backing_off_until: string };
    };
    expect(overview.poll.failures).toBe(1);
    // the 60 s interval doubled
    expect(Date.parse(overview.poll.next_poll_at) - before).toBeGreaterThanOrEqual(119_000);
    expect(overview.poll.backing_off_until).not.toBeNull();
  });
});
