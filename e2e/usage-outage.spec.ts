/**
 * Spend and outages, in the browser against the real proxy:
 * - the Usage page shows what the proxy metered (also in sandbox mode, where nothing is billed),
 *   axe clean, and fits a 390 px phone;
 * - a live-key proxy shows this month's spend in the header;
 * - a profile tab whose code cannot be downloaded reloads the page once, then says so readably;
 * - the proxy going away (every connection refused) and coming back: one "Cannot reach the server —
 *   retrying" state, and the page recovers without a click.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { API_HEADERS, SECRET_KEY, axeViolations, expect, test } from './fixtures.ts';
import { startOwnProxy, type OwnProxy } from './own-proxy.ts';
import { SANDBOX_URL } from './slots.ts';

/** The live-key proxy's port (startOwnProxy shifts it with E2E_PORT). */
const LIVE_PORT = 4400;

/** Population carriers no other spec opens, so their profile calls are metered here. */
const METERED_DOT = '5000431';
const LIVE_DOT = '5000432';

/** What `GET /api/local/usage` answers, as far as these tests read it. */
interface UsageBody {
  spentUsd: number;
  byEndpoint: { endpoint: string; calls: number; usd: number }[];
  byUser: { user: string; calls: number; usd: number }[];
}

function usd(value: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(value);
}

async function usageOf(page: Page, origin = ''): Promise<UsageBody> {
  const answer = await page.request.get(`${origin}/api/local/usage`, { headers: API_HEADERS });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as UsageBody;
}

async function openProfile(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByTestId('fetched-at')).toBeVisible({ timeout: 15_000 });
}

test('the Usage page shows the metered spend by endpoint and by user, axe clean', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await openProfile(page, `/carriers/${METERED_DOT}/overview`);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
  const usage = await usageOf(page);
  const profile = usage.byEndpoint.find((line) => line.endpoint === 'profile');
  // The profile just opened was metered at the live price, though the sandbox bills nothing.
  expect(profile?.usd).toBeGreaterThanOrEqual(3);
  await expect(page.getByText(/^Not billed\./)).toBeVisible();

  const endpoints = page.getByRole('table', { name: 'Spend by endpoint this month' });
  const row = endpoints.getByRole('row', { name: /Full profile/ });
  await expect(row.getByRole('cell').last()).toHaveText(usd(profile?.usd ?? 0));
  const users = page.getByRole('table', { name: 'Spend by user this month' });
  const local = usage.byUser.find((line) => line.user === 'local');
  await expect(
    users
      .getByRole('row', { name: /^local/ })
      .getByRole('cell')
      .last(),
  ).toHaveText(usd(local?.usd ?? -1));
  await expect(
    page.getByTestId('spend-chart').locator('.recharts-bar-rectangle').first(),
  ).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});

test('the Usage page fits a 390 px phone without scrolling sideways', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/usage');
  await expect(page.getByRole('table', { name: 'Spend by endpoint this month' })).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await axeViolations(page)).toEqual([]);
});

/**
 * A stand-in for the live service: forwards to the shared e2e sandbox with the sandbox's key, so a
 * proxy holding an `sk_live_` key (which the sandbox refuses) gets real answers.
 */
async function startLiveStandIn(): Promise<{ url: string; server: Server }> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const headers: Record<string, string> = { authorization: `Bearer ${SECRET_KEY}` };
      const type = request.headers['content-type'];
      if (type) headers['content-type'] = type;
      fetch(`${SANDBOX_URL}${request.url ?? '/'}`, { method: request.method, headers, body })
        .then(async (answer) => {
          response.writeHead(answer.status, {
            'content-type': answer.headers.get('content-type') ?? 'application/json',
          });
          response.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => {
          response.writeHead(502).end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

test.describe('a live key', () => {
  let proxy: OwnProxy | undefined;
  let standIn: Server | undefined;

  test.beforeAll(async () => {
    // Starting a proxy of its own (tsx) is slow on a busy machine; its readiness wait is 30 s.
    test.setTimeout(60_000);
    const upstream = await startLiveStandIn();
    standIn = upstream.server;
    proxy = await startOwnProxy(LIVE_PORT, {
      CARRIER_API_BASE_URL: upstream.url,
      CARRIER_API_KEY: 'sk_live_e2e_stand_in_0000000000',
      MONTHLY_BUDGET_USD: '50',
    });
  });

  test.afterAll(async () => {
    await proxy?.stop();
    await new Promise((resolve) => standIn?.close(resolve));
  });

  test("shows this month's spend in the header, linking to the Usage page", async ({ page }) => {
    const origin = proxy?.url ?? '';
    await page.goto(`${origin}/search`);
    const spend = page.getByTestId('header-spend');
    await expect(spend).toHaveText('$0.00 this month of $50.00');
    await openProfile(page, `${origin}/carriers/${LIVE_DOT}/overview`);
    await spend.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
    const usage = await usageOf(page, origin);
    expect(usage.spentUsd).toBeGreaterThanOrEqual(3);
    await expect(spend).toHaveText(`${usd(usage.spentUsd)} this month of $50.00`);
    await expect(page.getByText(/^Billed\./)).toBeVisible();
  });
});

test.describe('a profile tab whose code cannot be downloaded', () => {
  /** Chromium logs the aborted script; React and the boundary report the failed import. */
  test.use({
    expectedConsoleErrors:
      /Failed to load resource: net::ERR_FAILED|Failed to fetch dynamically imported module|could not be downloaded/,
  });

  test('reloads the page once, then says so in plain words and recovers on reload', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await page.route('**/assets/SafetyTab-*.js', (route) => route.abort());
    let loads = 0;
    page.on('load', () => {
      loads += 1;
    });
    await page.goto('/carriers/568253/safety');
    const alert = page.getByRole('alert').filter({ hasText: 'could not be downloaded' });
    await expect(alert).toContainText('The Safety tab could not be downloaded.', {
      timeout: 15_000,
    });
    await expect(alert).toContainText('Reload the page to continue.');
    // The first load, and the one automatic reload: no loop.
    expect(loads).toBe(2);
    await expect(page.getByText(/Failed to fetch dynamically imported module/)).toHaveCount(0);

    await page.unroute('**/assets/SafetyTab-*.js');
    await alert.getByRole('button', { name: 'Reload page' }).click();
    await expect(alert).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByRole('heading', { level: 2, name: /BASIC/ }).first()).toBeVisible();
  });
});

test.describe('the server going away and coming back', () => {
  /** Chromium logs each refused connection while the server is away. */
  test.use({ expectedConsoleErrors: /Failed to load resource: net::ERR_CONNECTION_REFUSED/ });

  test('one "cannot reach the server" state, then the page recovers by itself', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await page.goto('/search?company=hansen');
    await expect(page.getByRole('table', { name: /Carriers matching/ })).toBeVisible({
      timeout: 15_000,
    });
    // The proxy goes away, as far as the browser can tell: every connection is refused.
    await page.route('**/*', (route) => route.abort('connectionrefused'));

    const form = page.getByRole('form', { name: 'Advanced search' });
    await form.getByRole('textbox').first().fill('ironclad');
    await form.getByRole('button', { name: 'Search' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toHaveCount(1, { timeout: 15_000 });
    await expect(alert).toContainText('Cannot reach the server — retrying');

    await page.unroute('**/*');
    // No click: the /healthz poll finds the proxy back and the failed search runs again.
    await expect(page.getByRole('table', { name: /Carriers matching/ })).toContainText(/IRONCLAD/, {
      timeout: 20_000,
    });
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});
