import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ProxyConfig, RegisterGovernance } from '../context.ts';
import { openProxyDb } from '../db.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from './csrf.ts';
import { registerGovernance, type GovernanceDeps, type GovernanceParts } from './index.ts';

/** A key the tests look for in every response: it must never appear. */
export const SECRET_KEY = 'sk_live_SECRET_d0_not_leak_4242';

export function makeTempDir(): string {
  return mkdtempSync(join(tmpdir(), 'governance-test-'));
}

export function testConfig(overrides: Partial<ProxyConfig> = {}): ProxyConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    mode: 'live',
    upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: SECRET_KEY, legacy: false, timeoutMs: 1000 },
    embeddedSandbox: false,
    embeddedSandboxPort: 0,
    dataDir: '/unused',
    auth: { kind: 'none' },
    secureCookies: false,
    cache: { profileTtlMs: 60_000, autocompleteTtlMs: 300_000, maxBytes: 1_000_000 },
    rateLimits: undefined,
    maxQueueWaitMs: 1000,
    userRateLimitPerMinute: 1000,
    staticDir: '/unused',
    logLevel: 'silent',
    ...overrides,
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export interface GovernedApp {
  url: string;
  parts: GovernanceParts;
  app: FastifyInstance;
  /** fetch with no redirects followed; JSON bodies encoded; `browser` adds same-origin + CSRF headers */
  call(path: string, init?: CallInit): Promise<Reply>;
  close(): Promise<void>;
}

interface CallInit {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  form?: Record<string, string>;
  /** send Origin = our origin and the custom CSRF header, as the SPA does */
  browser?: boolean;
}

/** A small Fastify app with governance and two dummy routes under /api/v2, on 127.0.0.1:0. */
export async function startGovernedApp(
  config: ProxyConfig,
  extra: Omit<GovernanceDeps, 'config' | 'db'> = {},
): Promise<GovernedApp> {
  const dir = makeTempDir();
  const db = openProxyDb(join(dir, 'proxy.sqlite'));
  const app = Fastify({ logger: false });
  // `satisfies` proves at compile time that the factory fits the contract the core calls.
  const register = registerGovernance satisfies RegisterGovernance;
  const parts = await register(app, { config, db, ...extra });
  app.get('/api/v2/profile', async (request) => ({ user: request.user ?? null }));
  app.post('/api/v2/monitoring/add', async (request) => ({ user: request.user ?? null }));
  app.get('/', async (_request, reply) => reply.type('text/html').send('<p>dashboard</p>'));
  app.get('/healthz', async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    url,
    parts,
    app,
    call: (path, init = {}) => send(url, path, init),
    async close() {
      await app.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function send(url: string, path: string, init: CallInit): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined;
  if (init.browser) {
    headers.origin ??= url;
    headers[CSRF_HEADER] ??= CSRF_HEADER_VALUE;
  }
  // As the SPA does: billable GETs are refused without the custom header.
  if ((init.method ?? 'GET') === 'GET') headers[CSRF_HEADER] ??= CSRF_HEADER_VALUE;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  } else if (init.form !== undefined) {
    body = new URLSearchParams(init.form).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  }
  const response = await fetch(url + path, {
    method: init.method ?? 'GET',
    headers,
    body,
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: parseJson(text) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The `name=value` part of a Set-Cookie header, for sending it back. */
export function cookieOf(reply: Reply): string {
  const header = reply.headers.get('set-cookie') ?? '';
  return header.split(';')[0] ?? '';
}
