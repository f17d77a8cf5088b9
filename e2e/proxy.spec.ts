import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  axeViolations,
  expect,
  KeyGuard,
  keyLeaks,
  SECRET_KEY,
  test,
  watchContext,
} from './fixtures.ts';

// Everything here runs through the real proxy (playwright.config.ts `webServer`), with nothing
// configured: the embedded sandbox is the upstream and the proxy holds its key.

const DIST = 'dist';

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the dashboard loads in sandbox mode and says so (${colorScheme}, axe clean)`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto('/');
    await expect(page).toHaveURL(/\/search$/);
    const banner = page.getByRole('note', { name: 'Service mode' });
    await expect(banner).toHaveText('Sandbox — fictional data, nothing is billed');
    await expect(banner).toHaveAttribute('data-mode', 'sandbox');
    expect(await axeViolations(page)).toEqual([]);
  });
}

test('a profile through the page origin is a miss, then a hit', async ({ page }) => {
  await page.goto('/search');
  const answers = await page.evaluate(async () => {
    const url = '/api/v2/profile?dot_number=568253';
    const read = async (init: RequestInit) => {
      const response = await fetch(url, init);
      const body = (await response.json()) as { items?: { doc_id?: string }[] };
      return {
        status: response.status,
        cache: response.headers.get('x-cache'),
        fetchedAt: response.headers.get('x-fetched-at'),
        docId: body.items?.[0]?.doc_id,
      };
    };
    // The first call forces a refresh, so it is a miss whatever ran before it.
    // The SPA's header: without it the proxy refuses a GET that may be billed.
    const csrf = { 'x-requested-with': 'carrier-desk' };
    const first = await read({ headers: { ...csrf, 'cache-control': 'no-cache' } });
    const second = await read({ headers: csrf });
    return [first, second];
  });
  expect(answers.map((answer) => [answer.status, answer.cache, answer.docId])).toEqual([
    [200, 'miss', '568253-MC277621'],
    [200, 'hit', '568253-MC277621'],
  ]);
  // A hit replays the stored answer: same data age.
  expect(answers[1]?.fetchedAt).toBe(answers[0]?.fetchedAt);
});

/** `/x`, `./x` and bare `assets/x` references in a built file, as absolute paths. */
function referencedPaths(text: string, from: string): string[] {
  const dir = from.slice(0, from.lastIndexOf('/') + 1);
  const refs = text.matchAll(
    /(?:src|href)="(\/[^"]+)"|["'`(](\.\/[\w.-]+|\/?assets\/[\w.-]+)|sourceMappingURL=([\w.-]+)/g,
  );
  return [...refs].map(([, rooted, relative, map]) => {
    if (rooted !== undefined) return rooted;
    if (map !== undefined) return `${dir}${map}`;
    const ref = relative ?? '';
    if (ref.startsWith('./')) return `${dir}${ref.slice(2)}`;
    return ref.startsWith('/') ? ref : `/${ref}`;
  });
}

test('no asset of the built dashboard carries the key', async ({ request, keyGuard }) => {
  const seen = new Set<string>();
  const queue = ['/', ...referencedPaths(readFileSync(join(DIST, 'index.html'), 'utf8'), '/')];
  while (queue.length > 0 && seen.size < 200) {
    const path = queue.shift() ?? '/';
    if (seen.has(path)) continue;
    seen.add(path);
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const body = await response.body();
    expect(keyLeaks(response.headers(), body), path).toEqual([]);
    if (/\.(?:html|js|css)$|^\/$/.test(path)) queue.push(...referencedPaths(body.toString(), path));
  }
  const builtScripts = readdirSync(join(DIST, 'assets'))
    .filter((name) => name.endsWith('.js'))
    .map((name) => `/assets/${name}`);
  expect(builtScripts.length).toBeGreaterThan(0);
  expect(builtScripts.filter((path) => !seen.has(path))).toEqual([]);
  expect([...seen].some((path) => path.endsWith('.css'))).toBe(true);
  // The `request` fixture hands its responses to the automatic guard as well.
  expect(keyGuard.scanned).toBeGreaterThanOrEqual(seen.size);
});

test('source maps stay on disk: no bundle points at one and the proxy serves none', async ({
  request,
}) => {
  const assets = readdirSync(join(DIST, 'assets'));
  const maps = assets.filter((name) => name.endsWith('.map'));
  // Written (the key-leak scan reads them) ...
  expect(maps.length).toBeGreaterThan(0);
  // ... but referenced by no bundle, and never served: they hold the full source.
  for (const name of assets.filter((file) => /\.(?:js|css)$/.test(file))) {
    expect(readFileSync(join(DIST, 'assets', name), 'utf8'), name).not.toMatch(/sourceMappingURL=/);
  }
  for (const name of maps) {
    const response = await request.get(`/assets/${name}`);
    expect(response.status(), name).toBe(404);
    expect(await response.text(), name).not.toContain('sourcesContent');
  }
});

test('the key scanner finds the key in a header name or value, or a body', () => {
  expect(keyLeaks({ 'content-type': 'text/plain' }, 'nothing here')).toEqual([]);
  expect(keyLeaks({ authorization: `Bearer ${SECRET_KEY}` }, '')).toEqual(['header authorization']);
  expect(keyLeaks({}, Buffer.from(`{"key":"${SECRET_KEY}"}`))).toEqual(['body']);
});

test('the key guard reports a response that carries the key', async ({ browser, baseURL }) => {
  // A context of its own, so the planted leak does not fail this test through the automatic guard.
  const context = await browser.newContext({ baseURL });
  const guard = new KeyGuard();
  const unwatch = watchContext(context, guard);
  const page = await context.newPage();
  await page.route('**/leak.json', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: `"${SECRET_KEY}"` }),
  );
  await page.goto('/search');
  await page.evaluate(() => fetch('/leak.json').then((response) => response.text()));
  unwatch();
  await context.close();
  expect(guard.scanned).toBeGreaterThan(2);
  expect(await guard.settle()).toEqual([`body of ${baseURL}/leak.json`]);
});
