import { spawn, type ChildProcess } from 'node:child_process';
/** Test helpers: a fake origin, a configured proxy on port 0, a log capture. */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProxyApp, type ProxyApp, type ProxyAppOptions } from './app.ts';
import { EMBEDDED_SANDBOX_KEY } from './config.ts';
import type { ProxyConfig } from './context.ts';
import type { LogStream } from './logging.ts';

export const LIVE_KEY = 'sk_live_0123456789abcdefSECRET';
/** The CSRF header governance requires on state-changing requests. */
export const CSRF = { 'x-requested-with': 'carrier-desk' };

export function makeTempDir(): string {
  return mkdtempSync(join(tmpdir(), 'proxy-test-'));
}

/** A complete configuration for tests: loopback, port 0, no SPA, fast retries. */
/** Overrides of `testConfig`; `upstream` names only what differs from its live defaults. */
export type TestConfigOverrides = Omit<Partial<ProxyConfig>, 'upstream'> & {
  upstream?: Partial<ProxyConfig['upstream']>;
};

export function testConfig(overrides: TestConfigOverrides = {}): ProxyConfig {
  const base: ProxyConfig = {
    host: '127.0.0.1',
    port: 0,
    mode: 'live',
    upstream: {
      baseUrl: 'http://127.0.0.1:9',
      apiKey: LIVE_KEY,
      legacy: false,
      timeoutMs: 2000,
      retryDelayMs: 20,
    },
    embeddedSandbox: false,
    embeddedSandboxPort: 0,
    dataDir: makeTempDir(),
    auth: { kind: 'none' },
    secureCookies: false,
    cache: { profileTtlMs: 3_600_000, autocompleteTtlMs: 300_000, maxBytes: 8 * 1024 * 1024 },
    rateLimits: undefined,
    maxQueueWaitMs: 2000,
    userRateLimitPerMinute: 100_000,
    staticDir: join(tmpdir(), 'proxy-test-no-spa'),
    logLevel: 'silent',
  };
  const config = { ...base, ...overrides, upstream: { ...base.upstream, ...overrides.upstream } };
  // replicas on one database sign its decision chain with one key, as DATABASE_URL requires
  if (config.databaseUrl !== undefined && config.decisionSigningKeyFile === undefined) {
    config.decisionSigningKeyFile = sharedSigningKeyFile();
  }
  return config;
}

let sharedKeyFile: string | undefined;

/** One Ed25519 key file for every test proxy of this process that is on PostgreSQL. */
export function sharedSigningKeyFile(): string {
  if (sharedKeyFile === undefined) {
    const file = join(makeTempDir(), 'decision-signing-key.pem');
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    sharedKeyFile = file;
  }
  return sharedKeyFile;
}

/**
 * A test config whose upstream is the embedded sandbox with its fixture key, as `npm start` runs
 * without an API key; `upstream` adds to that upstream (e.g. a short `retryDelayMs`).
 */
export function embeddedSandboxConfig(
  overrides: Partial<ProxyConfig> = {},
  upstream: Partial<ProxyConfig['upstream']> = {},
): ProxyConfig {
  return testConfig({
    mode: 'sandbox',
    embeddedSandbox: true,
    upstream: {
      baseUrl: '',
      apiKey: EMBEDDED_SANDBOX_KEY,
      legacy: false,
      timeoutMs: 5000,
      ...upstream,
    },
    ...overrides,
  });
}

interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type OriginHandler = (req: RecordedRequest, res: ServerResponse) => void;

export interface FakeOrigin {
  url: string;
  requests: RecordedRequest[];
  /** replace the answer for the next requests */
  handle(handler: OriginHandler): void;
  close(): Promise<void>;
}

/** A JSON answer the fake origin sends by default: a one-profile envelope for DOT 568253. */
export function answerJson(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** An origin answering every profile lookup with an envelope for the DOT it asks for (568253 if none). */
export const profileByDot: OriginHandler = (req, res) => {
  const dot = new URL(req.url, 'http://origin').searchParams.get('dot_number') ?? '568253';
  answerJson(res, 200, { items: [{ dot_number: dot, doc_id: `${dot}-MC1`, legal_name: 'X' }] });
};

export const SAMPLE_PROFILE = {
  items: [{ dot_number: '568253', doc_id: '568253-MC277621', legal_name: 'HANSEN & ADKINS' }],
  total_count: 1,
};

/** An HTTP server on 127.0.0.1, port 0, that records every request and answers with `handler`. */
export async function startFakeOrigin(
  handler: OriginHandler = (_req, res) => answerJson(res, 200, SAMPLE_PROFILE),
): Promise<FakeOrigin> {
  const requests: RecordedRequest[] = [];
  let current = handler;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      current(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface CallInit {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export interface RunningProxy {
  app: ProxyApp;
  url: string;
  call(path: string, init?: CallInit): Promise<CallResult>;
  close(): Promise<void>;
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
  // The SPA sends the custom header on every call; billable GETs are refused without it.
  if ((init.method ?? 'GET') === 'GET') headers['x-requested-with'] ??= 'carrier-desk';
  let body = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: parseJson(text) };
}

/** Build the proxy and listen on 127.0.0.1, port 0; `close` also removes its data dir. */
export async function startProxy(
  config: ProxyConfig,
  opts: ProxyAppOptions = {},
): Promise<RunningProxy> {
  const app = await buildProxyApp(config, { sandbox: { population: 300 }, ...opts });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    url,
    call: (path, init) => request(`${url}${path}`, init),
    async close() {
      await app.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The answers of `calls` requests in a row to `path` on a fresh proxy in front of `handler`, with
 * the upstream calls each made. A refusal changes the proxy's state (a paused queue, an open
 * circuit), so two routes compared this way are each asked on a proxy of their own.
 */
export async function answersInARow(handler: OriginHandler, path: string, calls: number) {
  const origin = await startFakeOrigin(handler);
  const proxy = await startProxy(
    testConfig({ upstream: { baseUrl: origin.url, retryDelayMs: 1 } }),
  );
  try {
    const answers = [];
    for (let n = 0; n < calls; n += 1) {
      const before = origin.requests.length;
      const answer = await proxy.call(path);
      answers.push({
        status: answer.status,
        json: answer.json,
        retryAfter: answer.headers.get('retry-after'),
        upstreamCalls: origin.requests.length - before,
      });
    }
    return answers;
  } finally {
    await proxy.close();
    await origin.close();
  }
}

/** A log destination that keeps every line. */
export function captureLog(): LogStream & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    write(line: string) {
      lines.push(line);
      return true;
    },
  };
}

/** A proxy started as a child process (`startProxyProcess`): kill it with SIGKILL to crash it. */
interface ProxyProcess {
  child: ChildProcess;
  url: string;
}

/**
 * The real server as a child process against `upstream`, on a free port and `dataDir`; resolves with
 * its URL once it listens. Node itself runs it with tsx's loader, not the tsx CLI: the CLI runs the
 * server in a child of its own, so a SIGKILL sent to it would leave the real server running.
 * `onStart` receives the child at once, so the caller can register its cleanup before waiting.
 */
export async function startProxyProcess(options: {
  upstream: string;
  dataDir: string;
  apiKey: string;
  env?: NodeJS.ProcessEnv;
  onStart: (child: ChildProcess) => void;
}): Promise<ProxyProcess> {
  const { NODE_OPTIONS: _options, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server-proxy/src/server.ts'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: options.dataDir,
      CARRIER_API_BASE_URL: options.upstream,
      CARRIER_API_KEY: options.apiKey,
      CARRIER_API_KEY_FILE: '',
      CARRIER_API_LEGACY: '',
      DASHBOARD_AUTH: '',
      MONTHLY_BUDGET_USD: '',
      LOG_LEVEL: 'warn',
      // replicas on one database sign its decision chain with one key (required with DATABASE_URL)
      ...(options.env?.DATABASE_URL ? { DECISION_SIGNING_KEY_FILE: sharedSigningKeyFile() } : {}),
      ...options.env,
    },
  });
  options.onStart(child);
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`proxy did not start: ${err}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /proxy on (http:\/\/[^\s]+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`proxy exited (${code}): ${err}`)));
  });
  return { child, url };
}
