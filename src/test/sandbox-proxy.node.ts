/**
 * A real proxy with its embedded sandbox in a child process on 127.0.0.1, for jsdom tests of any
 * feature, and a `fetch` that sends the SPA's same-origin calls (`/api/...`) to it. jsdom has no
 * origin server, so this is the one redirection; validation, storage and answers are the real ones.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { vi } from 'vitest';

// import.meta.url is not a file URL under jsdom: resolve from the project root (vitest's cwd).
const SERVER = join(process.cwd(), 'src', 'test', 'serve-proxy.node.ts');

export interface SandboxProxy {
  /** Methods, paths and queries of the API calls the page made, in order. */
  calls: string[];
  stop: () => Promise<void>;
}

async function readUrl(child: ChildProcess): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const parsed = JSON.parse(line) as { url?: unknown };
    if (typeof parsed.url === 'string') return parsed.url;
  }
  throw new Error('the test proxy exited before listening');
}

/** `env`: more of the child's environment (serve-proxy.node.ts reads PROXY_TEST_ALERTS). */
export async function startSandboxProxy(
  options: { env?: Record<string, string> } = {},
): Promise<SandboxProxy> {
  const child = spawn('node_modules/.bin/tsx', [SERVER], {
    cwd: process.cwd(),
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await readUrl(child);
  const calls: string[] = [];
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const path = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!path.startsWith('/')) return realFetch(input, init);
    calls.push(`${init?.method ?? 'GET'} ${path}`);
    return realFetch(`${url}${path}`, init);
  });
  return {
    calls,
    stop: async () => {
      vi.unstubAllGlobals();
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    },
  };
}
