/**
 * Alert messages name carriers by the names the proxy has seen: the proxy in front of its embedded
 * sandbox, a webhook receiver on loopback, the sandbox's advance producing changes.
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildProxyApp } from '../app.ts';
import { sectionsOf, textOf } from '../alerts/render.ts';
import { CSRF, embeddedSandboxConfig, request } from '../helpers.test-support.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Carrier {
  profile_id: string;
  dot: string;
  name?: string;
}

async function startReceiver() {
  const bodies: { text: string; carriers: Carrier[] }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof bodies)[number]);
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
  return { bodies, url: `http://127.0.0.1:${port}/team` };
}

describe('alert messages', () => {
  it('name each carrier by its legal name (and DBA) and DOT', () => {
    const change = {
      id: 'c1-1',
      profileId: '4418207-MC1612093',
      dot: '4418207',
      field: 'usdot_status',
      channel: 'authority' as const,
      date: '2026-11-20',
      prior: 'ACTIVE',
      current: 'INACTIVE',
      impact: null,
    };
    const names = new Map([['4418207', { legal: 'SWIFTPATH EXPRESS LLC', dba: 'SWIFTPATH' }]]);
    const [named] = sectionsOf([change], names);
    expect(named).toMatchObject({ name: 'SWIFTPATH EXPRESS LLC', dba_name: 'SWIFTPATH' });
    const text = textOf({ type: 'changes', carriers: [named!] }, 'https://desk.example.com');
    expect(text).toContain('\nSWIFTPATH EXPRESS LLC (DBA SWIFTPATH) (USDOT 4418207)\n');
    // no name known: the DOT and the docket, never the bare profile id
    const [unnamed] = sectionsOf([change]);
    expect(unnamed).not.toHaveProperty('name');
    const bare = textOf({ type: 'changes', carriers: [unnamed!] }, 'https://x');
    expect(bare).toContain('\nUSDOT 4418207 (MC1612093)\n');
    expect(bare).not.toContain('4418207-MC1612093 (USDOT');
  });

  it('a poll names the changed carriers the proxy has seen in answers', async () => {
    const receiver = await startReceiver();
    const config = embeddedSandboxConfig(
      {
        publicUrl: 'https://desk.example.com',
        alerts: {
          pollIntervalSeconds: 0,
          emailTo: [],
          webhookUrl: receiver.url,
          webhookSecret: 'whsec_test_0123456789abcdef',
          webhookHosts: ['127.0.0.1'],
        },
      },
      { retryDelayMs: 20 },
    );
    const app = await buildProxyApp(config, { sandbox: { population: 50 } });
    cleanups.push(async () => {
      await app.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const call = (path: string, init?: Parameters<typeof request>[1]) =>
      request(`${base}${path}`, init);
    const sandbox = app.proxy.sandbox!;

    expect((await call('/api/local/alerts/poll', { method: 'POST', headers: CSRF })).status).toBe(
      200,
    );
    const advanced = await request(`${sandbox.url}/__sandbox/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKey}` },
      body: { days: 6 },
    });
    expect(advanced.status).toBe(200);

    // every watched carrier seen once in a lite profile (its name kept by the proxy)
    const list = await call('/api/v2/monitoring/list?pageSize=500');
    const items = (list.json as { items: Record<string, unknown> }).items;
    const dots = [...new Set(Object.keys(items).map((id) => id.split('-')[0]!))];
    const legal = new Map<string, string>();
    for (const dot of dots) {
      const lite = await call(`/api/v2/profile-lite?dot_number=${dot}`);
      const item = (lite.json as { items: { legal_name: string }[] }).items[0];
      if (item) legal.set(dot, item.legal_name);
    }
    expect(legal.size).toBeGreaterThan(0);
    await app.proxy.names.flush();

    const polled = await call('/api/local/alerts/poll', { method: 'POST', headers: CSRF });
    expect((polled.json as { new_changes: number }).new_changes).toBeGreaterThan(0);
    const end = Date.now() + 8000;
    while (receiver.bodies.length === 0 && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const [body] = receiver.bodies;
    expect(body?.carriers.length).toBeGreaterThan(0);
    for (const carrier of body!.carriers) {
      expect(carrier.name).toBe(legal.get(carrier.dot));
      const line = body!.text.split('\n').find((l) => l.includes(carrier.profile_id));
      expect(line).toContain(`${carrier.name}`);
    }
  });
});
