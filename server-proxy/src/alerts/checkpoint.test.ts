/**
 * Decision record checkpoints leaving the database (issue 31 item 2; docs/alerts.md): a daily
 * digest (webhook and e-mail) carries a signed checkpoint that `POST /api/local/decisions/verify`
 * accepts, the team destinations get one a UTC day (once, however many pollers and restarts), and
 * a checkpoint kept from before the chain was cut fails verify. Real proxy and sandbox, a real
 * SMTP server and webhook receiver on loopback, on SQLite and PostgreSQL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildProxyApp, type ProxyApp } from '../app.ts';
import type { ProxyConfig } from '../context.ts';
import {
  CSRF,
  embeddedSandboxConfig,
  makeTempDir,
  request,
  type CallInit,
  type CallResult,
} from '../helpers.test-support.ts';
import { forEachDatabase, forEachEngine } from '../sql/engines.test-support.ts';
import { sqlChainReader } from '../vetting/chain-reader.ts';
import { issueCheckpoint } from '../vetting/receipts.ts';
import { loadSigningKey } from '../vetting/signing.ts';
import { createVettingSqlStore } from '../vetting/store.ts';
import type { MirrorClient } from '../routes/mirror.ts';
import { CHECKPOINT_DAY_KEY, Poller } from './poller.ts';
import { createAlertStore } from './store.ts';
import type { SqlEngine } from '../sql/engine.ts';

const SECRET = 'whsec_test_checkpoint_0123456789';

interface Hook {
  path: string;
  body: { type: string; text: string; checkpoint?: Record<string, unknown> };
}

async function startReceiver() {
  const received: Hook[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Hook['body'],
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The plain-text part of a raw message, quoted-printable decoded. */
function plainText(raw: string): string {
  const part = /Content-Type: text\/plain[^]*?\r?\n\r?\n([^]*?)\r?\n--/.exec(raw)?.[1] ?? '';
  return part
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/(?:[\xc0-\xff][\x80-\xbf]+)/g, (bytes) =>
      Buffer.from(bytes, 'latin1').toString('utf8'),
    );
}

async function startSmtp() {
  const mails: { to: string[]; text: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          text: plainText(Buffer.concat(chunks).toString('latin1')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    mails,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(check: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const DOTS = ['568253', '3187452', '2214589'];

forEachDatabase('checkpoints in digests and once a day', (database) => {
  let app: ProxyApp;
  let config: ProxyConfig;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let call: (path: string, init?: CallInit) => Promise<CallResult>;
  // the alerts' clock (the decisions keep the real one)
  let clock = new Date('2026-11-29T07:00:00Z');
  let digestCheckpoint: Record<string, unknown>;
  let mailedCheckpoint: Record<string, unknown>;
  let dailyCheckpoint: Record<string, unknown>;

  const post = (path: string, body: unknown) => call(path, { method: 'POST', headers: CSRF, body });
  const verify = async (statement: unknown) =>
    (await post('/api/local/decisions/verify', { receipts: [statement] })).json as {
      ok: boolean;
      receipts: { ok: boolean; problem?: string }[];
    };

  beforeAll(async () => {
    receiver = await startReceiver();
    smtp = await startSmtp();
    config = embeddedSandboxConfig({
      publicUrl: 'https://desk.example.com',
      alerts: {
        pollIntervalSeconds: 0,
        emailTo: ['team@example.com'],
        smtpUrl: smtp.url,
        webhookUrl: `${receiver.url}/team`,
        webhookSecret: SECRET,
        webhookHosts: ['127.0.0.1'],
      },
      ...database.config,
    });
    app = await buildProxyApp(config, {
      sandbox: { population: 60 },
      alerts: { now: () => clock },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    call = (path, init) => request(`${url}${path}`, init);
    for (const dot of DOTS) {
      expect((await call(`/api/v2/profile?dot_number=${dot}`)).status).toBe(200);
      const recorded = await post('/api/local/decisions', {
        dot_number: dot,
        decision: 'rejected',
      });
      expect(recorded.status, recorded.text).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await smtp?.close();
    if (config) rmSync(config.dataDir, { recursive: true, force: true });
  });

  it('a daily digest, by webhook and by e-mail, carries a checkpoint that verifies', async () => {
    for (const [kind, target] of [
      ['webhook', `${receiver.url}/digest`],
      ['email', 'ops@example.com'],
    ]) {
      const made = await post('/api/local/alerts/subscriptions', {
        kind,
        target,
        channels: ['insurance', 'authority', 'safety', 'fleet', 'contact', 'risk'],
        severity: 'all',
        schedule: 'daily',
        digest_time: '08:00',
        time_zone: 'UTC',
      });
      expect(made.status, made.text).toBe(201);
    }
    expect((await post('/api/local/alerts/poll', {})).json).toMatchObject({ baseline: true });
    const sandbox = app.proxy.sandbox!;
    const advanced = await request(`${sandbox.url}/__sandbox/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKey}` },
      body: { days: 6 },
    });
    expect(advanced.status).toBe(200);
    clock = new Date('2026-11-29T07:30:00Z');
    const polled = (await post('/api/local/alerts/poll', {})).json as { new_changes: number };
    expect(polled.new_changes).toBeGreaterThan(0);

    clock = new Date('2026-11-29T08:01:00Z');
    expect(await app.proxy.alerts!.poller.digestsDue()).toBe(2);
    await until(
      () =>
        receiver.received.some((hook) => hook.path === '/digest') &&
        smtp.mails.some((mail) => mail.to.includes('ops@example.com')),
    );

    const digest = receiver.received.find((hook) => hook.path === '/digest')!;
    expect(digest.body.type).toBe('monitoring.changes');
    digestCheckpoint = digest.body.checkpoint!;
    expect(digestCheckpoint).toMatchObject({
      type: 'decision-checkpoint',
      chain_length: 3,
      head_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      issued_at: '2026-11-29T08:01:00.000Z',
      key_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      payload: expect.any(String),
      signature: expect.any(String),
    });
    expect(await verify(digestCheckpoint)).toMatchObject({ ok: true, receipts: [{ ok: true }] });

    const mail = smtp.mails.find((m) => m.to.includes('ops@example.com'))!;
    expect(mail.text).toContain(
      `Decision record checkpoint: 3 records, head ${String(digestCheckpoint.head_hash)}, signed 2026-11-29T08:01:00.000Z — keep this e-mail; it lets anyone show later that the record was not cut`,
    );
    const json = mail.text.split(/\r?\n/).find((line) => line.startsWith('{"type":'));
    mailedCheckpoint = JSON.parse(json ?? 'null') as Record<string, unknown>;
    expect(mailedCheckpoint).toEqual(digestCheckpoint);
    expect(await verify(mailedCheckpoint)).toMatchObject({ ok: true });
  }, 60_000);

  it('sends the team destinations one checkpoint a UTC day', async () => {
    const poller = app.proxy.alerts!.poller;
    const teamBefore = receiver.received.filter(
      (hook) => hook.body.type === 'decisions.checkpoint',
    );
    expect(teamBefore).toHaveLength(0);
    expect(await poller.dailyCheckpoint()).toBe(2);
    expect(await poller.dailyCheckpoint()).toBe(0);
    clock = new Date('2026-11-29T23:59:00Z');
    expect(await poller.dailyCheckpoint()).toBe(0);
    const teamCheckpointMail = () =>
      smtp.mails.find(
        (mail) =>
          mail.to.includes('team@example.com') &&
          mail.text.startsWith('Decision record checkpoint: 3 records'),
      );
    await until(
      () =>
        receiver.received.some((hook) => hook.body.type === 'decisions.checkpoint') &&
        teamCheckpointMail() !== undefined,
    );
    const hook = receiver.received.find((h) => h.body.type === 'decisions.checkpoint')!;
    expect(hook.path).toBe('/team');
    expect(hook.body.text).toMatch(/^carrier-desk: Decision record checkpoint: 3 records, head /);
    dailyCheckpoint = hook.body.checkpoint!;
    expect(dailyCheckpoint).toMatchObject({ chain_length: 3 });
    expect(await verify(dailyCheckpoint)).toMatchObject({ ok: true });
    expect(teamCheckpointMail()?.text).toMatch(
      /^Decision record checkpoint: 3 records, head [0-9a-f]{64}, signed 2026-11-29T08:01:00.000Z/,
    );

    // the next UTC day: one more
    clock = new Date('2026-11-30T00:01:00Z');
    expect(await poller.dailyCheckpoint()).toBe(2);
    expect(await poller.dailyCheckpoint()).toBe(0);
  }, 30_000);

  it('a checkpoint kept from before the chain was cut fails verify', async () => {
    // delete the newest record as someone with the database password would (triggers off)
    if (config.databaseUrl !== undefined) {
      const client = new pg.Client({ connectionString: config.databaseUrl });
      await client.connect();
      try {
        await client.query('ALTER TABLE vetting_decision DISABLE TRIGGER USER');
        await client.query(
          'DELETE FROM vetting_decision WHERE id = (SELECT MAX(id) FROM vetting_decision)',
        );
        await client.query('ALTER TABLE vetting_decision ENABLE TRIGGER USER');
      } finally {
        await client.end();
      }
    } else {
      const db = new Database(join(config.dataDir, 'proxy.sqlite'));
      try {
        db.exec(
          'DROP TRIGGER IF EXISTS vetting_decision_no_update; DROP TRIGGER IF EXISTS vetting_decision_no_delete',
        );
        db.exec('DELETE FROM vetting_decision WHERE id = (SELECT MAX(id) FROM vetting_decision)');
      } finally {
        db.close();
      }
    }
    // the chain check alone still passes
    expect((await call('/api/local/decisions/verify')).json).toMatchObject({ ok: true, count: 2 });
    for (const kept of [digestCheckpoint, mailedCheckpoint, dailyCheckpoint]) {
      expect(await verify(kept)).toMatchObject({
        ok: false,
        receipts: [{ ok: false, problem: expect.stringMatching(/holds 2 records; it held 3/) }],
      });
    }
  });
});

forEachEngine('the daily checkpoint with two pollers and a restart', (engine) => {
  it('is queued once a UTC day', async () => {
    const key = loadSigningKey({ dataDir: makeTempDir() });
    const team = [{ kind: 'webhook' as const, target: 'https://hooks.example.com/team' }];
    let clock = new Date('2026-11-29T00:00:30Z');
    const pollerOn = (sql: SqlEngine, holder: string) =>
      new Poller({
        store: createAlertStore(sql),
        mirror: {} as MirrorClient,
        vetting: createVettingSqlStore(sql),
        team,
        intervalSeconds: 0,
        onQueued: () => undefined,
        log: { info: () => undefined, warn: () => undefined },
        now: () => clock,
        holder,
        checkpoint: (at) => issueCheckpoint(key, sqlChainReader(sql), at),
      });
    // nothing recorded yet: nothing to anchor, and the day is not taken
    const a = pollerOn(engine.sql, 'a');
    expect(await a.dailyCheckpoint()).toBe(0);
    const vetting = createVettingSqlStore(engine.sql, key);
    for (const dot of ['568253', '3187452']) {
      await vetting.appendDecision({
        dot_number: dot,
        decision: 'rejected',
        note: null,
        conditions: null,
        expires_on: null,
        supersedes: null,
        user: { id: 'alice', name: 'Alice' },
        decided_at: clock.toISOString(),
        verdict: { verdict: 'pass', reasons: [] },
        policy_version: 1,
        profile: { snapshot_date: '2026-11-16' },
      });
    }
    // two replicas (PostgreSQL: two pools; SQLite: two connections) at the same moment
    const b = pollerOn(engine.another(), 'b');
    const first = await Promise.all([
      a.dailyCheckpoint(),
      b.dailyCheckpoint(),
      a.dailyCheckpoint(),
    ]);
    expect(first.reduce((sum, n) => sum + n, 0)).toBe(1);
    // a restart later that day
    clock = new Date('2026-11-29T17:00:00Z');
    const restarted = pollerOn(engine.another(), 'c');
    expect(await restarted.dailyCheckpoint()).toBe(0);
    // the next day, both again at once
    clock = new Date('2026-11-30T00:00:10Z');
    const next = await Promise.all([restarted.dailyCheckpoint(), b.dailyCheckpoint()]);
    expect(next.reduce((sum, n) => sum + n, 0)).toBe(1);

    const store = createAlertStore(engine.sql);
    const deliveries = await store.deliveries();
    expect(deliveries).toHaveLength(2);
    expect(deliveries.map((d) => d.payload.type)).toEqual(['checkpoint', 'checkpoint']);
    expect(deliveries.map((d) => d.payload.checkpoint?.chain_length)).toEqual([2, 2]);
    expect(deliveries.map((d) => d.payload.checkpoint?.issued_at).sort()).toEqual([
      '2026-11-29T00:00:30.000Z',
      '2026-11-30T00:00:10.000Z',
    ]);
    expect(await store.state.get(CHECKPOINT_DAY_KEY)).toBe('2026-11-30');
  });
});
