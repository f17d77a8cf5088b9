/**
 * The key guard itself: that it sees every kind of response a test can meet, and that what it finds
 * fails the test. A loopback server of the test's own plants the key where a leak could hide.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, expectNoLeaks, KeyGuard, SECRET_KEY, test, watchContext } from './fixtures.ts';

const BASE64_KEY = Buffer.from(`token=${SECRET_KEY}`).toString('base64');

/** path → [content type, body, extra headers]; the key sits in a different place on each. */
const LEAKY: Record<string, [string, string, Record<string, string>?]> = {
  '/': ['text/html', '<script src="/app.js"></script><p>clean page</p>'],
  '/app.js': [
    'text/javascript',
    'fetch("/data.json"); new Worker("/worker.js");',
    { 'x-debug-key': SECRET_KEY },
  ],
  '/data.json': ['application/json', `{"apiKey":"${SECRET_KEY}"}`],
  '/worker.js': ['text/javascript', 'fetch("/from-worker");'],
  '/from-worker': ['text/plain', BASE64_KEY],
  '/for-request': ['text/plain', `Bearer ${SECRET_KEY}`],
  '/clean': ['text/plain', 'nothing to see'],
};

async function leakServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/moved') {
      response.writeHead(302, { location: `/clean?${SECRET_KEY}` }).end();
      return;
    }
    const [type, body, headers] = LEAKY[path] ?? ['text/plain', 'not found'];
    response.writeHead(LEAKY[path] ? 200 : 404, { 'content-type': type, ...headers }).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

test('a guard sees the key in pages, assets, in-page and worker fetch, redirects and page.request', async ({
  browser,
  playwright,
}) => {
  const { url, server } = await leakServer();
  // A context of its own, watched by a guard of its own (taking it over from the automatic one),
  // which reads again what a page took with it when it navigated away, as the automatic one does.
  const context = await browser.newContext();
  const again = await playwright.request.newContext();
  const guard = new KeyGuard((address) => again.get(address));
  const unwatch = watchContext(context, guard);
  try {
    const page = await context.newPage();
    const fromWorker = page.waitForResponse(`${url}/from-worker`);
    await page.goto(`${url}/`);
    await fromWorker;
    await page.goto(`${url}/moved`);
    await page.request.get(`${url}/for-request`);
    await context.request.get(`${url}/clean`);
  } finally {
    unwatch();
    await context.close();
  }
  const leaks = await guard.settle();
  server.closeAllConnections();
  server.close();
  await again.dispose();
  expect(leaks.sort()).toEqual(
    [
      `body of ${url}/data.json`,
      `body of ${url}/for-request`,
      `body of ${url}/from-worker`,
      `header location of ${url}/moved`,
      `header x-debug-key of ${url}/app.js`,
    ].sort(),
  );
  // page, app.js, data.json, worker.js, from-worker, moved, clean, for-request, clean
  expect(guard.scanned).toBeGreaterThanOrEqual(9);
});

test('a failing guard fails the test and names each response', async () => {
  const guard = new KeyGuard();
  guard.watchFetch(new Response('all clear', { headers: { 'x-ok': '1' } }));
  await expectNoLeaks(guard);
  guard.watchFetch(
    new Response(`{"key":"${SECRET_KEY}"}`, { headers: { 'set-cookie': `k=${BASE64_KEY}` } }),
  );
  const failure = await expectNoLeaks(guard).then(
    () => 'no failure',
    (error: Error) => error.message,
  );
  expect(failure).toContain('a response carried the API key');
  expect(failure).toContain('header set-cookie of ');
  expect(failure).toContain('body of ');
});

test('the automatic guard watches Node fetch and the contexts a test creates', async ({
  browser,
  baseURL,
  keyGuard,
}) => {
  const before = keyGuard.scanned;
  expect((await fetch(`${baseURL}/readyz`)).ok).toBe(true);
  expect(keyGuard.scanned).toBe(before + 1);

  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/robots.txt');
  await page.request.get('/favicon.svg');
  await context.close();
  expect(keyGuard.scanned).toBeGreaterThanOrEqual(before + 3);
});
