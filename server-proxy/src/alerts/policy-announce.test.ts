/**
 * A policy save announced by alerts, end to end over loopback: the proxy in front of its embedded
 * sandbox, a decision recorded through the API, the policy saved through PUT /api/local/policy (the
 * vetting side records the standing change), then a poll: the team webhook hears "Approved carrier
 * now fails policy v2 — IRONCLAD FREIGHT SYSTEMS INC … (USDOT 2214589): 3 reasons" once.
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildProxyApp } from '../app.ts';
import { CSRF, embeddedSandboxConfig, request } from '../helpers.test-support.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a saved policy announced by alerts', () => {
  it('announces the approved carrier that now fails, with its reasons, once', async () => {
    const bodies: { type: string; text: string }[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof bodies)[number]);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          receiver.closeAllConnections();
          receiver.close(() => resolve());
        }),
    );
    const config = embeddedSandboxConfig(
      {
        publicUrl: 'https://desk.example.com',
        alerts: {
          pollIntervalSeconds: 0,
          emailTo: [],
          webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/team`,
          webhookSecret: 'whsec_test_0123456789abcdef',
          webhookHosts: ['127.0.0.1'],
        },
      },
      { retryDelayMs: 20 },
    );
    const app = await buildProxyApp(config, { sandbox: { population: 20 } });
    cleanups.push(async () => {
      await app.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const call = (path: string, init?: Parameters<typeof request>[1]) =>
      request(`${base}${path}`, init);

    // 2214589 needs review under policy v1 (Conditional rating, BASIC alerts, OOS rates)
    expect((await call('/api/v2/profile?dot_number=2214589')).status).toBe(200);
    const decided = await call('/api/local/decisions', {
      method: 'POST',
      headers: CSRF,
      body: {
        dot_number: '2214589',
        decision: 'approved',
        override_reason: 'Known lane partner; rating under appeal',
      },
    });
    expect(decided.status, decided.text).toBe(201);
    const first = await call('/api/local/alerts/poll', { method: 'POST', headers: CSRF });
    expect(first.json).toMatchObject({ standing_announced: 0 });

    const saved = await call('/api/local/policy', {
      method: 'PUT',
      headers: CSRF,
      body: {
        rules: {
          rating_conditional: { outcome: 'fail' },
          basic_alerts: { outcome: 'fail' },
          oos_rates: { outcome: 'fail' },
        },
        note: 'reviews of safety fail now',
      },
    });
    expect(saved.status).toBe(201);

    // the names the profile answer carried are kept (written 250 ms after an answer)
    await app.proxy.names.flush();
    const polled = await call('/api/local/alerts/poll', { method: 'POST', headers: CSRF });
    expect(polled.json).toMatchObject({ standing_announced: 1, deliveries_queued: 1 });
    const end = Date.now() + 8000;
    while (bodies.length === 0 && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(bodies).toHaveLength(1);
    expect(bodies[0]?.type).toBe('decisions.standing');
    expect(bodies[0]?.text).toMatch(
      /^carrier-desk: Approved carrier now fails policy v2 — IRONCLAD FREIGHT SYSTEMS INC \(DBA IRONCLAD XPRESS\) \(USDOT 2214589\)\n• <https:\/\/desk\.example\.com\/carriers\/2214589\/overview\|.*: 3 reasons \(/,
    );

    // once: the next poll has nothing to announce
    const again = await call('/api/local/alerts/poll', { method: 'POST', headers: CSRF });
    expect(again.json).toMatchObject({ standing_announced: 0, deliveries_queued: 0 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bodies).toHaveLength(1);
  });
});
