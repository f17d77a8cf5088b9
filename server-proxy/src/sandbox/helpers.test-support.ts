import { expect } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildSandboxApp, type SandboxApp, type SandboxAppOptions } from './app.ts';

export const TEST_KEY = 'sk_test_sandbox';
export const OTHER_KEY = 'sk_test_other_team';

export interface RunningSandbox {
  app: SandboxApp;
  /** e.g. http://127.0.0.1:53211 */
  url: string;
  dataDir: string;
  /** GET/POST/DELETE with the test key as Bearer unless `headers` says otherwise. */
  call(path: string, init?: CallInit): Promise<CallResult>;
  /** Close the app (keeps the data dir so a restart can reuse it). */
  stop(): Promise<void>;
  /** Close the app and delete the data dir. */
  close(): Promise<void>;
}

export interface CallInit {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Send this raw text as the body instead of JSON-encoding `body`. */
  rawBody?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
}

export function makeTempDir(): string {
  return mkdtempSync(join(tmpdir(), 'sandbox-test-'));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export async function request(url: string, init: CallInit = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: parseJson(text) };
}

/**
 * Build the sandbox on a temp (or given) data dir and listen on 127.0.0.1, port 0.
 * Population defaults to 2000 (builds in about 0.1 s).
 */
export async function startSandbox(opts: Partial<SandboxAppOptions> = {}): Promise<RunningSandbox> {
  const dataDir = opts.dataDir ?? makeTempDir();
  const app = await buildSandboxApp({
    apiKeys: [TEST_KEY, OTHER_KEY],
    population: 2000,
    ...opts,
    dataDir,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const call = (path: string, init: CallInit = {}) =>
    request(`${url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${TEST_KEY}`, ...init.headers },
    });
  const stop = () => app.close();
  return {
    app,
    url,
    dataDir,
    call,
    stop,
    async close() {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Assert an error response: the status, the `{error, code, hint}` body, and the code. */
export function expectError(result: CallResult, status: number, code: string): void {
  expect({
    status: result.status,
    code: (result.json as { code?: unknown } | undefined)?.code,
  }).toEqual({
    status,
    code,
  });
  expect(result.json).toEqual({
    error: expect.any(String) as unknown,
    code,
    hint: expect.any(String) as unknown,
  });
  expect(result.headers.get('content-type')).toMatch(/^application\/json/);
}

/** The items of a `{items, total_count}` body. */
export function itemsOf(result: CallResult): Record<string, unknown>[] {
  expect(result.status).toBe(200);
  const body = result.json as { items: Record<string, unknown>[]; total_count: number };
  expect(Array.isArray(body.items)).toBe(true);
  expect(typeof body.total_count).toBe('number');
  return body.items;
}
