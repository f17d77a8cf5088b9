/**
 * Other sites against the proxy, in real Chromium: a hostile page on another origin embeds the
 * proxy's billable GETs as images and no-cors fetches (a cross-site page can always send those),
 * and a DNS-rebinding page reaches the proxy under its own host name. Neither may reach the service:
 * the sandbox's ledger and the proxy's spend meter stay as they were.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Page } from '@playwright/test';
import { API_HEADERS, expect, test } from './fixtures.ts';
import { sandbox } from './sandbox.ts';

test.use({
  // The refused loads and the blocked CORS preflight are what the hostile page provokes.
  expectedConsoleErrors: /Failed to load resource|blocked by CORS policy|Failed to fetch/,
});

const DOT = '568253';

/** The proxy's GET routes that can make a billed call to the service. */
const BILLABLE_PATHS = [
  `/api/v2/profile?dot_number=${DOT}`,
  `/api/v2/profile-lite?dot_number=${DOT}`,
  `/api/v2/profile-fmcsa?dot_number=${DOT}`,
  '/api/v2/autocomplete?q=hansen',
  '/api/v2/monitoring/list?page=1',
  '/api/local/monitoring-view?page=1',
  '/api/local/monitoring-badge',
  `/api/local/profile-summary?dot_number=${DOT}`,
  `/api/local/verdict?dot_number=${DOT}`,
];

/**
 * The hostile page: every billable GET as an <img> and as no-cors fetches (with and without
 * cookies), a no-cors POST that would watch a carrier, and a CORS fetch that tries to add the
 * dashboard's header (needs a preflight the proxy never answers). Its title turns "done" when all
 * of them have settled.
 */
function hostilePage(target: string): string {
  const urls = JSON.stringify(BILLABLE_PATHS.map((path) => `${target}${path}`));
  return `<!doctype html><title>pending</title><body><script>
const urls = ${urls};
const image = (src) => new Promise((resolve) => {
  const img = new Image();
  img.onload = img.onerror = resolve;
  img.src = src;
  document.body.append(img);
});
const settle = (promise) => promise.then(() => undefined, () => undefined);
Promise.all([
  ...urls.map(image),
  ...urls.map((url) => settle(fetch(url, { mode: 'no-cors' }))),
  ...urls.map((url) => settle(fetch(url, { mode: 'no-cors', credentials: 'include' }))),
  settle(fetch(${JSON.stringify(`${target}/api/v2/monitoring/add`)}, {
    method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ profile_ids: ['${DOT}-MC277621'] }),
  })),
  settle(fetch(urls[0], { headers: { 'x-requested-with': 'carrier-desk' } })),
]).then(() => { document.title = 'done'; });
</script></body>`;
}

async function startHostileSite(target: string): Promise<{ port: number; server: Server }> {
  const server = createServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(hostilePage(target));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, server };
}

/** What the service billed (the sandbox's ledger) and what the proxy metered, together. */
async function spendState(request: APIRequestContext) {
  const usage = (await (await request.get('/api/local/usage')).json()) as {
    spentUsd: number;
    byCategory: { category: string; calls: number }[];
  };
  return { ledger: await sandbox.ledger(), spentUsd: usage.spentUsd, byCategory: usage.byCategory };
}

/**
 * Every request the page sent to the proxy's origin, with the status the proxy answered. Read from
 * the DevTools protocol: the browser blocks the page (and Playwright's response events) from these
 * answers (Cross-Origin-Resource-Policy), but the raw status still shows there.
 */
async function proxyAnswers(page: Page, origin: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const sent = new Map<string, string>();
  const statuses = new Map<string, number>();
  cdp.on('Network.requestWillBeSent', (event) => {
    const url = new URL(event.request.url);
    if (url.origin === origin) sent.set(event.requestId, `${event.request.method} ${url.pathname}`);
  });
  cdp.on('Network.responseReceivedExtraInfo', (event) => {
    statuses.set(event.requestId, event.statusCode);
  });
  return {
    list: () => [...sent].map(([id, request]) => [request, statuses.get(id)] as const),
    stop: () => cdp.detach(),
  };
}

for (const siteHost of ['localhost', '127.0.0.1'] as const) {
  // localhost:<port> is another site than 127.0.0.1:4179; 127.0.0.1:<port> is the same site on
  // another port. Either is another origin.
  test(`a hostile page on ${siteHost}:<other port> cannot spend the key`, async ({
    page,
    request,
    baseURL,
  }) => {
    const target = baseURL ?? '';
    const site = await startHostileSite(target);
    try {
      const before = await spendState(request);
      const answers = await proxyAnswers(page, new URL(target).origin);
      await page.goto(`http://${siteHost}:${site.port}/`);
      await expect(page).toHaveTitle('done', { timeout: 15_000 });
      // The images, both no-cors fetches of each path and the POST all went out and were answered
      // 403. The CORS fetch with the dashboard's header is stopped by its preflight: never sent.
      const answered = () => answers.list().filter(([, status]) => status !== undefined);
      await expect
        .poll(() => answered().length)
        .toBeGreaterThanOrEqual(BILLABLE_PATHS.length * 3 + 1);
      expect(answered().filter(([, status]) => status !== 403)).toEqual([]);
      expect(answers.list().filter(([, status]) => status === undefined)).toEqual([
        ['GET /api/v2/profile', undefined],
      ]);
      await answers.stop();
      expect(await spendState(request)).toEqual(before);

      // The same call from the dashboard's own origin does reach the service: the ledger above
      // would have shown one.
      await page.goto('/search');
      const control = async () => {
        await page.evaluate(
          async ([url, headers]) => {
            const response = await fetch(url, {
              headers: { ...headers, 'cache-control': 'no-cache' },
            });
            await response.text();
          },
          [BILLABLE_PATHS[0] ?? '', API_HEADERS] as const,
        );
        return spendState(request);
      };
      // Retried: a spec before this one may have left the upstream briefly refusing (circuit open).
      await expect
        .poll(control, { timeout: 20_000, intervals: [500, 1000, 2000] })
        .not.toEqual(before);
    } finally {
      site.server.closeAllConnections();
      site.server.close();
    }
  });
}

test('a DNS-rebinding page (a foreign host name resolving to the proxy) gets 421', async ({
  playwright,
  launchOptions,
  request,
  baseURL,
}) => {
  const port = new URL(baseURL ?? '').port;
  const browser = await playwright.chromium.launch({
    ...launchOptions,
    // What the attacker's DNS does after the page loaded: their name now points at loopback.
    args: [
      ...(launchOptions.args ?? []),
      '--host-resolver-rules=MAP rebind.evil.example 127.0.0.1',
    ],
  });
  try {
    const before = await spendState(request);
    const page = await browser.newPage();
    const rebound = `http://rebind.evil.example:${port}`;
    const pageAnswer = await page.goto(`${rebound}/search`);
    expect(pageAnswer?.status()).toBe(421);
    expect(await pageAnswer?.json()).toMatchObject({ code: 'misdirected_host' });
    // Same origin as far as the browser knows: its fetches carry any header they like.
    const answers = await page.evaluate(
      async (paths) => {
        const headers = { 'x-requested-with': 'carrier-desk' };
        return Promise.all(
          paths.map(async (path) => {
            const response = await fetch(path, { headers });
            return [path, response.status] as const;
          }),
        );
      },
      [...BILLABLE_PATHS, '/api/local/audit', '/api/local/usage', '/'],
    );
    expect(answers.filter(([, status]) => status !== 421)).toEqual([]);
    expect(await spendState(request)).toEqual(before);
  } finally {
    await browser.close();
  }
});
