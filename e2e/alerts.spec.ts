/**
 * Alerts (issue 16): subscribe a webhook on the Alerts page, advance the sandbox, poll now, and see
 * the delivery recorded — and received, signed, by a real HTTP receiver. It writes alert state, so
 * it runs against a proxy of its own (fresh data directory, its own embedded sandbox).
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures.ts';
import { startOwnProxy, type OwnProxy } from './own-proxy.ts';

/** Ports of this spec's own proxy (and its sandbox, on the next port): no other spec uses them. */
const PORT = 4420;
const SECRET = 'e2e-alerts-signing-key-0123';
/** The embedded sandbox's fixture key (never a real one), as e2e/sandbox.ts sends it. */
const SANDBOX_KEY = 'sk_test_sandbox';

let proxy: OwnProxy | undefined;
let receiver: Server | undefined;
const received: { verified: boolean; id: string }[] = [];

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = String(req.headers['x-carrierdesk-signature'] ?? '');
      const t = /t=(\d+)/.exec(header)?.[1] ?? '';
      const v1 = /v1=([0-9a-f]+)/.exec(header)?.[1] ?? '';
      const expected = createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex');
      received.push({
        verified: v1 === expected,
        id: String(req.headers['x-carrierdesk-delivery']),
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve));
  // the receiver listens on loopback, which page-made webhooks may reach only when allowed
  const { port } = receiver.address() as AddressInfo;
  proxy = await startOwnProxy(PORT, {
    ALERT_WEBHOOK_SECRET: SECRET,
    ALERT_WEBHOOK_HOSTS: `127.0.0.1:${port}`,
  });
});

test.afterAll(async () => {
  await proxy?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

function ownUrl(path: string): string {
  if (!proxy) throw new Error('own proxy not started');
  return `${proxy.url}${path}`;
}

test('subscribe, advance the sandbox, poll now: the delivery is recorded and received', async ({
  page,
}) => {
  const hook = `http://127.0.0.1:${(receiver?.address() as AddressInfo).port}/hook`;
  await page.goto(ownUrl('/settings/alerts'));
  await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();
  const status = page.getByRole('status').filter({ hasText: /poll|change/i });

  // the first poll records what is there without announcing it
  await page.getByRole('button', { name: 'Poll now' }).click();
  await expect(page.getByText(/First poll: \d+ existing changes recorded/)).toBeVisible();

  await page.getByRole('radio', { name: 'Webhook' }).check();
  await page.getByRole('textbox', { name: 'Webhook URL' }).fill(hook);
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByText(`Webhook: ${hook}`)).toBeVisible();

  const sandboxUrl = ownUrl('').replace(/:(\d+)$/, (_, port: string) => `:${Number(port) + 1}`);
  const advanced = await fetch(`${sandboxUrl}/__sandbox/advance`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SANDBOX_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ days: 6 }),
  });
  expect(advanced.ok).toBe(true);

  await page.getByRole('button', { name: 'Poll now' }).click();
  await expect(status).toHaveText(/\d+ new changes?, 1 delivery queued/);
  const deliveries = page.getByRole('table');
  await expect(deliveries.getByRole('row').filter({ hasText: 'Delivered' })).toHaveCount(1, {
    timeout: 15_000,
  });
  await expect(deliveries).toContainText('127.0.0.1');
  // listed by its subject: the worst change and whose it is (docs/alerts.md)
  await expect(deliveries.getByRole('row').filter({ hasText: 'Delivered' })).toContainText(
    / — (.+ \(USDOT \d+\)|USDOT \d+ \(\w+\)) · \d+ changes on \d+ carriers/,
  );
  expect(received).toHaveLength(1);
  expect(received[0]?.verified).toBe(true);

  // on a phone the deliveries scroll inside their box: the page itself never scrolls sideways
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(deliveries).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
