/**
 * Decisions in alerts over real servers on loopback: the proxy in front of its embedded sandbox,
 * its SQLite file, and a webhook receiver. A policy save's standing changes
 * (`vetting_standing_change`, contract29.md) are announced once — not again by another poll, the
 * minute's digest check or a restart — and a daily digest lists them with the re-vet queue.
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxProfile } from '../../../src/test/sandbox-profiles.node.ts';
import { defaultSettings, evaluate, type PolicySettings } from '../../../src/lib/vetting/index.ts';
import { buildProxyApp, type ProxyApp } from '../app.ts';
import { openProxyDb } from '../db.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { CSRF, embeddedSandboxConfig, request } from '../helpers.test-support.ts';
import { createVettingSqlStore, type DecisionContent } from '../vetting/store.ts';
import { reasonsUnder } from './standing.ts';

const SECRET = 'whsec_test_0123456789abcdef';
const IRONCLAD = '2214589';

interface Body {
  type: string;
  text: string;
  carriers: unknown[];
  standing?: { dot: string; name?: string; standing_after: string; reasons?: string[] }[];
  revet_due?: { dot: string; due: string; expires_on: string }[];
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startReceiver() {
  const bodies: { path: string; body: Body }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
      bodies.push({ path: req.url ?? '', body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { bodies, url: `http://127.0.0.1:${port}` };
}

async function until(check: () => boolean, ms = 8000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every rule that yields Review yields Fail: a stricter policy, as a team might save it. */
function stricter(): PolicySettings {
  const settings = defaultSettings();
  for (const rule of Object.values(settings)) {
    if (rule.outcome === 'review') rule.outcome = 'fail';
  }
  return settings;
}

/** The carrier's real sandbox profile, evaluated by the default policy: a decision's evidence. */
function approvalOf(dot: string, expiresOn: string | null): DecisionContent {
  const profile = sandboxProfile(dot).parsed.value;
  const verdict = evaluate(profile, { version: 1, settings: defaultSettings() });
  return {
    dot_number: dot,
    decision: 'approved',
    note: null,
    conditions: null,
    expires_on: expiresOn,
    supersedes: null,
    user: { id: 'alice', name: 'Alice' },
    decided_at: '2026-11-20T12:00:00.000Z',
    verdict,
    policy_version: 1,
    profile: {
      snapshot_date: profile.snapshot_date ?? null,
      identity: [{ name: 'legal_name', value: profile.legal_name ?? null }],
    },
  };
}

/** What H2 records after the save (contract29.md); made here when that side is not in the tree. */
function recordStandingChange(db: Database.Database, decisionId: number, version: number) {
  db.exec(`CREATE TABLE IF NOT EXISTS vetting_standing_change (
     id INTEGER PRIMARY KEY AUTOINCREMENT, policy_version INTEGER NOT NULL,
     dot_number TEXT NOT NULL, decision_id INTEGER NOT NULL, standing_before TEXT NOT NULL,
     standing_after TEXT NOT NULL, verdict_after TEXT, created_at TEXT NOT NULL,
     announced_at TEXT)`);
  db.prepare(
    `INSERT INTO vetting_standing_change (policy_version, dot_number, decision_id,
       standing_before, standing_after, verdict_after, created_at)
     VALUES (?, ?, ?, 'holds', 'now_fails', 'fail', ?)`,
  ).run(version, IRONCLAD, decisionId, new Date().toISOString());
}

function config(receiverUrl: string) {
  return embeddedSandboxConfig(
    {
      publicUrl: 'https://desk.example.com',
      alerts: {
        pollIntervalSeconds: 0,
        emailTo: [],
        webhookUrl: `${receiverUrl}/team`,
        webhookSecret: SECRET,
        webhookHosts: ['127.0.0.1'],
      },
    },
    { retryDelayMs: 20 },
  );
}

async function start(cfg: ReturnType<typeof config>, now?: () => Date) {
  let db: Database.Database | undefined;
  const app = await buildProxyApp(cfg, {
    sandbox: { population: 20 },
    openDb: (path) => (db = openProxyDb(path)),
    ...(now && { alerts: { now } }),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const call = (path: string, init?: Parameters<typeof request>[1]) =>
    request(`${base}${path}`, init);
  if (!db) throw new Error('no database');
  return { app, db, call, vetting: createVettingSqlStore(createSqliteEngine(db)) };
}

const poll = async (call: Awaited<ReturnType<typeof start>>['call']) =>
  (await call('/api/local/alerts/poll', { method: 'POST', headers: CSRF })).json as {
    standing_announced: number;
    deliveries_queued: number;
  };

describe('policy standing changes in alerts', () => {
  it('announces each once, naming the carrier and the reasons; polls and a restart do not repeat it', async () => {
    const receiver = await startReceiver();
    const cfg = config(receiver.url);
    cleanups.push(() => rmSync(cfg.dataDir, { recursive: true, force: true }));
    let app: ProxyApp | undefined;
    cleanups.push(() => app?.close());

    const first = await start(cfg);
    app = first.app;
    const record = await first.vetting.appendDecision(approvalOf(IRONCLAD, null));
    const saved = await first.vetting.savePolicy(
      { id: 'alice', name: 'Alice' },
      stricter(),
      'reviews fail now',
      new Date(),
    );
    expect(saved?.version).toBe(2);
    recordStandingChange(first.db, record.id, 2);

    expect(await poll(first.call)).toMatchObject({ standing_announced: 1, deliveries_queued: 1 });
    await until(() => receiver.bodies.length === 1);
    const body = receiver.bodies[0]!.body;
    expect(body.type).toBe('decisions.standing');
    const name = sandboxProfile(IRONCLAD).parsed.value.legal_name;
    expect(body.text.split('\n')[0]).toBe(
      `carrier-desk: Approved carrier now fails policy v2 — ${name} (USDOT ${IRONCLAD})`,
    );
    const notice = body.standing?.[0];
    expect(notice).toMatchObject({ dot: IRONCLAD, name, standing_after: 'now_fails' });
    // the rules the recorded evidence now fails on: those that were Review under policy v1
    const wasReview = (record.verdict as { reasons: { outcome: string; label: string }[] }).reasons
      .filter((r) => r.outcome === 'review')
      .map((r) => r.label);
    expect(wasReview.length).toBeGreaterThan(0);
    expect(new Set(notice?.reasons)).toEqual(new Set(wasReview));
    expect(body.text).toContain(`${wasReview.length} reason`);
    const row = first.db.prepare('SELECT announced_at FROM vetting_standing_change').get() as {
      announced_at: string | null;
    };
    expect(row.announced_at).not.toBeNull();

    // the Alerts page lists it by its subject
    const listed = (await first.call('/api/local/alerts/deliveries')).json as {
      deliveries: { type: string; summary: string; decisions: number }[];
    };
    expect(listed.deliveries[0]).toMatchObject({
      type: 'standing',
      decisions: 1,
      summary: `Approved carrier now fails policy v2 — ${name} (USDOT ${IRONCLAD})`,
    });

    // another poll, and the digest check of the minute, announce nothing
    expect(await poll(first.call)).toMatchObject({ standing_announced: 0, deliveries_queued: 0 });
    expect(await first.app.proxy.alerts?.poller.digestsDue()).toBe(0);
    await first.app.close();

    // restarted on the same file: nothing again
    const second = await start(cfg);
    app = second.app;
    expect(await poll(second.call)).toMatchObject({ standing_announced: 0, deliveries_queued: 0 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.bodies).toHaveLength(1);
  });

  it('a daily digest lists the standing changes announced since and the re-vet queue', async () => {
    const receiver = await startReceiver();
    const cfg = config(receiver.url);
    cleanups.push(() => rmSync(cfg.dataDir, { recursive: true, force: true }));
    let clock = new Date('2026-11-29T07:00:00Z');
    const { app, db, call, vetting } = await start(cfg, () => clock);
    cleanups.push(() => app.close());

    const daily = await call('/api/local/alerts/subscriptions', {
      method: 'POST',
      headers: CSRF,
      body: {
        kind: 'webhook',
        target: `${receiver.url}/daily`,
        channels: ['insurance'],
        severity: 'attention',
        schedule: 'daily',
        digest_time: '08:00',
        time_zone: 'UTC',
      },
    });
    expect(daily.status, daily.text).toBe(201);
    // re-vet dates relative to the test's clock: one passed, one within 14 days, one later
    const overdue = await vetting.appendDecision(approvalOf('4418207', '2026-11-20'));
    await vetting.appendDecision(approvalOf('568253', '2026-12-05'));
    await vetting.appendDecision(approvalOf('2987310', '2027-03-01'));
    const ironclad = await vetting.appendDecision(approvalOf(IRONCLAD, null));
    await vetting.savePolicy({ id: 'alice', name: 'Alice' }, stricter(), null, clock);
    recordStandingChange(db, ironclad.id, 2);

    clock = new Date('2026-11-29T07:30:00Z');
    // announced at once to the team destination; the daily subscription waits for 08:00
    expect(await poll(call)).toMatchObject({ standing_announced: 1 });
    await until(() => receiver.bodies.length === 1);
    expect(receiver.bodies[0]?.path).toBe('/team');

    clock = new Date('2026-11-29T08:01:00Z');
    expect(await app.proxy.alerts?.poller.digestsDue()).toBe(1);
    await until(() => receiver.bodies.length === 2);
    const digest = receiver.bodies[1]!;
    expect(digest.path).toBe('/daily');
    expect(digest.body.standing?.map((n) => n.dot)).toEqual([IRONCLAD]);
    expect(digest.body.revet_due).toEqual([
      expect.objectContaining({ dot: '4418207', due: 'overdue', expires_on: '2026-11-20' }),
      expect.objectContaining({ dot: '568253', due: 'soon', expires_on: '2026-12-05' }),
    ]);
    const name = sandboxProfile('4418207').parsed.value.legal_name;
    expect(digest.body.text).toContain(`${name} (USDOT 4418207) — re-vet overdue since 2026-11-20`);
    expect(overdue.id).toBeGreaterThan(0);

    // the next day: the standing change is not repeated, the queue is (still due)
    clock = new Date('2026-11-30T08:01:00Z');
    expect(await app.proxy.alerts?.poller.digestsDue()).toBe(1);
    await until(() => receiver.bodies.length === 3);
    expect(receiver.bodies[2]?.body.standing).toBeUndefined();
    expect(receiver.bodies[2]?.body.revet_due?.map((n) => n.dot)).toEqual(['4418207', '568253']);
  });
});

describe('reasonsUnder', () => {
  it('names the rules the recorded evidence fails on, and nothing when it disagrees', () => {
    const record = { verdict: approvalOf(IRONCLAD, null).verdict } as Parameters<
      typeof reasonsUnder
    >[0];
    const strict = { version: 2, settings: stricter() };
    const reasons = reasonsUnder(record, strict, 'fail');
    expect(reasons?.length).toBeGreaterThan(0);
    // a verdict the evidence cannot reproduce: no reasons rather than wrong ones
    expect(
      reasonsUnder(record, { version: 1, settings: defaultSettings() }, 'fail'),
    ).toBeUndefined();
  });
});
