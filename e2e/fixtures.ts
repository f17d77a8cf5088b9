import {
  test as base,
  expect,
  type APIRequestContext,
  type APIResponse,
  type BrowserContext,
  type Page,
  type Response,
} from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { EMBEDDED_SANDBOX_KEY } from '../server-proxy/src/config.ts';

/** The secret no response may ever carry: the key the proxy holds for the embedded sandbox. */
export const SECRET_KEY = EMBEDDED_SANDBOX_KEY;

/** Where the key shows in one response (header names, "body"); empty when it does not. */
export function keyLeaks(headers: Record<string, string>, body: Buffer | string): string[] {
  const places = Object.entries(headers)
    .filter(([name, value]) => name.includes(SECRET_KEY) || value.includes(SECRET_KEY))
    .map(([name]) => `header ${name}`);
  const text = typeof body === 'string' ? body : body.toString('latin1');
  return text.includes(SECRET_KEY) ? [...places, 'body'] : places;
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

async function read(response: Response | APIResponse): Promise<[Record<string, string>, Buffer]> {
  return 'allHeaders' in response
    ? await Promise.all([response.allHeaders(), browserBody(response)])
    : [response.headers(), await response.body()];
}

async function scan(response: Response | APIResponse, refetch?: Refetch): Promise<string[]> {
  let headers: Record<string, string>;
  let body: Buffer;
  try {
    [headers, body] = await read(response);
  } catch (error) {
    // A page that navigated away (or closed) takes its response bodies with it. A GET is read
    // again from the same URL, so its body is still scanned; anything else stays a failure.
    const isBrowserGet = 'request' in response && response.request().method() === 'GET';
    if (!refetch || !isBrowserGet) throw error;
    [headers, body] = await read(await refetch(response.url()));
  }
  return keyLeaks(headers, body).map((place) => `${place} of ${response.url()}`);
}

/** Collects the scans of every response a test sees; `settle` waits for them and lists the leaks. */
export class KeyGuard {
  private readonly scans: Promise<string[]>[] = [];

  constructor(private readonly refetch?: Refetch) {}

  watch(response: Response | APIResponse): void {
    this.scans.push(
      scan(response, this.refetch).catch((error: unknown) => [
        `unreadable ${response.url()}: ${String(error)}`,
      ]),
    );
  }

  get scanned(): number {
    return this.scans.length;
  }

  async settle(): Promise<string[]> {
    return (await Promise.all(this.scans)).flat();
  }
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

/** Hands every response of `context` to the guard until the returned function is called. */
export function watchContext(context: BrowserContext, guard: KeyGuard): () => void {
  const onResponse = (response: Response) => guard.watch(response);
  context.on('response', onResponse);
  return () => context.off('response', onResponse);
}

interface Fixtures {
  /** Fails the test when the page logged a console error or threw an uncaught exception. */
  consoleGuard: void;
  /**
   * Fails the test when any response carries the key: every response of its browser context
   * (pages, assets, in-page fetch) and of the `request` fixture. `page.request` is not watched:
   * use `request` or `fetch` in the page.
   */
  keyGuard: KeyGuard;
}

export const test = base.extend<Fixtures>({
  consoleGuard: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      await use();
      expect(problems, 'the page logged errors').toEqual([]);
    },
    { auto: true },
  ],
  keyGuard: [
    async ({ context, playwright }, use) => {
      const again = await playwright.request.newContext();
      const guard = new KeyGuard((url) => again.get(url));
      const unwatch = watchContext(context, guard);
      await use(guard);
      unwatch();
      const leaks = await guard.settle();
      await again.dispose();
      expect(leaks, 'a response carried the API key').toEqual([]);
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
