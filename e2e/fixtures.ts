import {
  test as base,
  expect,
  type APIRequestContext,
  type APIResponse,
  type Browser,
  type BrowserContext,
  type Page,
  type Response,
} from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { PROXY_URL, proxyEnv, SERVER_DIR, SLOT, slotDataDir } from './slots.ts';
import { EMBEDDED_SANDBOX_KEY } from '../server-proxy/src/config.ts';
import { configuredKeys, type Needle } from '../scripts/check-key-leak.ts';

/**
 * The header the SPA sends on every API call. The proxy refuses GETs that may be billed without it
 * (another site's <img> or no-cors fetch cannot send it), so direct API calls in specs send it too.
 */
export const API_HEADERS = { 'x-requested-with': 'carrier-desk' } as const;

/** The secret no response may ever carry: the key the proxy holds for the embedded sandbox. */
export const SECRET_KEY = EMBEDDED_SANDBOX_KEY;

/**
 * What a leak looks like: the embedded sandbox key (the e2e proxy's), `CARRIER_API_KEY` or the key
 * file when the shell sets them, each also as base64 (scripts/check-key-leak.ts).
 */
const NEEDLES: readonly Needle[] = configuredKeys(process.env);

/** Where the key shows in one response (header names, "body"); empty when it does not. */
export function keyLeaks(headers: Record<string, string>, body: Buffer | string): string[] {
  const holds = (text: string) => NEEDLES.some((needle) => text.includes(needle.text));
  const places = Object.entries(headers)
    .filter(([name, value]) => holds(name) || holds(value))
    .map(([name]) => `header ${name}`);
  const text = typeof body === 'string' ? body : body.toString('latin1');
  return holds(text) ? [...places, 'body'] : places;
}

async function browserBody(response: Response): Promise<Buffer> {
  try {
    return await response.body();
  } catch (error) {
    // Redirects have no body in the browser; their headers are still scanned.
    if (response.status() >= 300 && response.status() < 400) return Buffer.alloc(0);
    throw error;
  }
}

/** Fetches a URL again, for a browser response whose body the browser already discarded. */
export type Refetch = (url: string) => Promise<APIResponse>;

type Readout = [Record<string, string>, Buffer];

async function read(response: Response | APIResponse): Promise<Readout> {
  return 'allHeaders' in response
    ? await Promise.all([response.allHeaders(), browserBody(response)])
    : [response.headers(), await response.body()];
}

/**
 * The built app's hashed assets (`/assets/name-HASH.js`) already read clean in this worker, by URL and
 * ETag. Every test's fresh context loads the same bundles again (1.3 MB for the map alone); their
 * headers are still scanned every time, their bodies once. The proxy serves them `immutable` and
 * their name carries the hash of their content, so the same URL and ETag is the same content (the
 * whole build is also scanned before the e2e run: scripts/check-key-leak.ts).
 */
const cleanAssets = new Set<string>();

/** The key of a cacheable build asset in `cleanAssets`; undefined for anything else. */
function assetKey(response: Response, headers: Record<string, string>): string | undefined {
  const { pathname } = new URL(response.url());
  const immutable = /\bimmutable\b/.test(headers['cache-control'] ?? '');
  const etag = headers.etag;
  const plainGet = response.request().method() === 'GET' && response.status() === 200;
  if (!pathname.startsWith('/assets/') || !immutable || !etag || !plainGet) return undefined;
  return `${response.url()} ${etag}`;
}

/** A browser response: headers always; the body unless it is a build asset already read clean. */
async function readBrowser(response: Response): Promise<Readout> {
  const headers = await response.allHeaders();
  const key = assetKey(response, headers);
  if (key !== undefined && cleanAssets.has(key)) return [headers, Buffer.alloc(0)];
  const body = await browserBody(response);
  if (key !== undefined && keyLeaks(headers, body).length === 0) cleanAssets.add(key);
  return [headers, body];
}

/**
 * A write to the dashboard's own routes whose body the browser dropped on navigation: the app's
 * fire-and-forget writes on leaving a page (the inbox's last-visit PUT). Those routes answer with
 * JSON the proxy builds itself and never an upstream body (the mirror is /api/v2), so their headers
 * are scanned and the lost body is not a failure; repeating the write to read it would change state.
 */
function isDroppedLocalWrite(response: Response | APIResponse, error: unknown): boolean {
  if (!('request' in response) || response.request().method() === 'GET') return false;
  const local = new URL(response.url()).pathname.startsWith('/api/local/');
  return (
    local &&
    /navigated away|No resource with given identifier|page, context or browser has been closed/.test(
      String(error),
    )
  );
}

async function readPlaywright(response: Response | APIResponse, refetch?: Refetch) {
  try {
    return 'allHeaders' in response ? await readBrowser(response) : await read(response);
  } catch (error) {
    // A page that navigated away (or closed) takes its response bodies with it. A GET is read
    // again from the same URL, so its body is still scanned; a dropped local write keeps its
    // headers scanned; anything else stays a failure.
    if (isDroppedLocalWrite(response, error) && 'allHeaders' in response) {
      // a closed page's extra headers may be gone too; the ones the response arrived with are not
      const headers = await response.allHeaders().catch(() => response.headers());
      return [headers, Buffer.alloc(0)] satisfies Readout;
    }
    const isBrowserGet = 'request' in response && response.request().method() === 'GET';
    if (!refetch || !isBrowserGet) throw error;
    return await read(await refetch(response.url()));
  }
}

/** A Node `fetch` response, read from a clone so the test can still read the original. */
async function readFetch(response: globalThis.Response): Promise<Readout> {
  const headers = Object.fromEntries(response.headers.entries());
  return [headers, Buffer.from(await response.arrayBuffer())];
}

/** Collects the scans of every response a test sees; `settle` waits for them and lists the leaks. */
export class KeyGuard {
  private readonly scans: Promise<string[]>[] = [];

  constructor(private readonly refetch?: Refetch) {}

  /** A response of a browser context (page, asset, in-page or worker fetch) or of a request context. */
  watch(response: Response | APIResponse): void {
    this.track(response.url(), readPlaywright(response, this.refetch));
  }

  /** A response of Node's own `fetch` in the test process. */
  watchFetch(response: globalThis.Response): void {
    this.track(response.url, readFetch(response.clone()));
  }

  private track(url: string, readout: Promise<Readout>): void {
    this.scans.push(
      readout.then(
        ([headers, body]) => keyLeaks(headers, body).map((place) => `${place} of ${url}`),
        (error: unknown) => [`unreadable ${url}: ${String(error)}`],
      ),
    );
  }

  get scanned(): number {
    return this.scans.length;
  }

  async settle(): Promise<string[]> {
    return (await Promise.all(this.scans)).flat();
  }
}

/** How the automatic guard ends every test: the test fails, listing each response with the key. */
export async function expectNoLeaks(guard: KeyGuard): Promise<void> {
  expect(await guard.settle(), 'a response carried the API key').toEqual([]);
}

const API_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'fetch']);
type ApiMethod = (...args: unknown[]) => Promise<APIResponse>;

/** The same request context, with every response handed to the guard before the test sees it. */
function guardedRequests(request: APIRequestContext, guard: KeyGuard): APIRequestContext {
  return new Proxy(request, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !API_METHODS.has(property)) return value;
      const method = value as ApiMethod;
      return async (...args: unknown[]) => {
        const response = await method.apply(target, args);
        guard.watch(response);
        return response;
      };
    },
  });
}

/** The guard that watches each context; a context has one guard at a time. */
const contextGuards = new WeakMap<BrowserContext, () => void>();

/**
 * Hands every response of `context` to the guard until the returned function is called: browser
 * responses (pages, assets, in-page and worker fetch) and `context.request` / `page.request`,
 * which the browser's response events do not include. Takes the context over from the guard that
 * watched it before (the automatic one, for a context a test creates): the caller then asserts on
 * its own guard.
 */
export function watchContext(context: BrowserContext, guard: KeyGuard): () => void {
  contextGuards.get(context)?.();
  const unguarded = context.request;
  const guardPage = (page: Page) => {
    page.request = context.request;
  };
  const onResponse = (response: Response) => guard.watch(response);
  context.request = guardedRequests(unguarded, guard);
  context.pages().forEach(guardPage);
  context.on('page', guardPage);
  context.on('response', onResponse);
  const unwatch = () => {
    if (contextGuards.get(context) !== unwatch) return; // another guard took the context over
    contextGuards.delete(context);
    context.off('response', onResponse);
    context.off('page', guardPage);
    context.request = unguarded;
    context.pages().forEach(guardPage);
  };
  contextGuards.set(context, unwatch);
  return unwatch;
}

/** Watches every context `browser` creates from now on, until the returned function is called. */
function watchNewContexts(browser: Browser, guard: KeyGuard): () => void {
  const watched: (() => void)[] = [];
  const onContext = (context: BrowserContext) => watched.push(watchContext(context, guard));
  browser.on('context', onContext);
  return () => {
    browser.off('context', onContext);
    watched.forEach((unwatch) => unwatch());
  };
}

/** Hands every response of Node's `fetch` in this worker to the guard, until the returned call. */
function watchFetch(guard: KeyGuard): () => void {
  const unguarded = globalThis.fetch;
  globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
    const response = await unguarded(...args);
    guard.watchFetch(response);
    return response;
  };
  return () => {
    globalThis.fetch = unguarded;
  };
}

interface Options {
  /**
   * Console errors a spec provokes on purpose (Chromium logs every failed load, e.g. an injected
   * 503); set with `test.use`. Any other console error still fails the test.
   */
  expectedConsoleErrors: RegExp | undefined;
}

interface Fixtures {
  /**
   * Fails the test when the page logged a console error (other than `expectedConsoleErrors`) or threw
   * an uncaught exception.
   */
  consoleGuard: void;
  /**
   * Fails the test when any response carries the key: every response of its browser context and of
   * any context the test creates (pages, assets, in-page and worker fetch, `page.request`,
   * `context.request`), of the `request` fixture, and of Node's `fetch` in the test (the sandbox's
   * test endpoints, a proxy of the test's own).
   */
  keyGuard: KeyGuard;
}

interface WorkerFixtures {
  /** This worker's own proxy (slot > 0); slot 0 uses the webServer's. Started once per worker. */
  slotProxy: void;
}

/** The runner's environment without its Node options (its loader must not reach the proxy). */
function plainEnv(): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _options, ...env } = process.env;
  return env;
}

async function waitReady(url: string, child: ChildProcess, stderr: string[]): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`slot proxy exited: ${stderr.join('')}`);
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`slot proxy not ready after 60 s: ${stderr.join('')}`);
}

/** Starts slot `SLOT`'s proxy: the webServer's compiled server and environment, on its own ports. */
async function startSlotProxy(): Promise<() => Promise<void>> {
  const dataDir = slotDataDir(SLOT);
  const fresh = spawn('node', ['e2e/fresh-data-dir.mjs', dataDir], { stdio: 'inherit' });
  const [code] = (await once(fresh, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`could not empty ${dataDir}`);
  const child = spawn('node', [`${SERVER_DIR}/server.mjs`], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...plainEnv(), ...proxyEnv(SLOT) },
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  await waitReady(PROXY_URL, child, stderr);
  return async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
}

export const test = base.extend<Options & Fixtures, WorkerFixtures>({
  slotProxy: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from it
    async ({}, use) => {
      const stop = SLOT === 0 ? undefined : await startSlotProxy();
      await use();
      await stop?.();
    },
    { scope: 'worker', auto: true, timeout: 90_000 },
  ],
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from it
  baseURL: async ({}, use) => {
    await use(PROXY_URL);
  },
  expectedConsoleErrors: [undefined, { option: true }],
  consoleGuard: [
    async ({ page, expectedConsoleErrors }, use) => {
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && !expectedConsoleErrors?.test(message.text())) {
          problems.push(`console.error: ${message.text()}`);
        }
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      await use();
      expect(problems, 'the page logged errors').toEqual([]);
    },
    { auto: true },
  ],
  keyGuard: [
    async ({ browser, context, playwright }, use) => {
      const again = await playwright.request.newContext();
      const guard = new KeyGuard((url) => again.get(url, { headers: API_HEADERS }));
      const stops = [
        watchContext(context, guard),
        watchNewContexts(browser, guard),
        watchFetch(guard),
      ];
      await use(guard);
      stops.forEach((stop) => stop());
      await expectNoLeaks(guard).finally(() => again.dispose());
    },
    { auto: true },
  ],
  request: async ({ request, keyGuard }, use) => {
    await use(guardedRequests(request, keyGuard));
  },
});

export { expect };

/** WCAG 2.1 A/AA plus best practices; returns the violations for a readable failure diff. */
export async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
}

/**
 * axe in the light theme, then the dark one, on the same loaded page: the theme follows the system
 * setting live (src/app/theme.ts), so one page load serves both checks. Load the page in the light
 * theme (the default colour scheme).
 */
export async function expectAxeCleanInBothThemes(page: Page): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const html = page.locator('html');
    await (scheme === 'dark'
      ? expect(html).toHaveClass(/\bdark\b/)
      : expect(html).not.toHaveClass(/\bdark\b/));
    expect(await axeViolations(page), `${scheme} theme`).toEqual([]);
  }
}
