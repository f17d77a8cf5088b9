/**
 * Shared setup of the team tests that put several proxies in front of one sandbox: a recording
 * pass-through that sees every call the proxies send the service (what it asked, what it was
 * answered), and a started sandbox with its ledger.
 */
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSandboxApp, type SandboxApp } from '../sandbox/index.ts';
import { makeTempDir } from '../helpers.test-support.ts';

/** One call that reached the service through the pass-through. */
interface SeenCall {
  /** the path without the query, e.g. `/v2/profile` */
  path: string;
  /** the query string without `?` */
  query: string;
  status: number;
  /** when the pass-through received it (ms since the epoch) */
  at: number;
}

export interface RecordingFront {
  url: string;
  seen: SeenCall[];
  /** the calls seen for `path` (e.g. `/v2/profile`) */
  callsTo(path: string): SeenCall[];
  close(): Promise<void>;
}

/** Headers the pass-through does not copy: fetch sets its own. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding']);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A pass-through in front of `target` that records each call's path, query and status, and holds
 * each answer `delayMs` (so that requests on several replicas overlap). Copies the body and the
 * `retry-after` header.
 */
export async function recordingFront(target: string, delayMs = 0): Promise<RecordingFront> {
  const seen: SeenCall[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const at = Date.now();
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !HOP_HEADERS.has(name)) headers[name] = value;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const upstream = await fetch(`${target}${req.url ?? '/'}`, {
        method: req.method,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      const [path = '', query = ''] = (req.url ?? '').split('?');
      seen.push({ path, query, status: upstream.status, at });
      await sleep(delayMs);
      const retryAfter = upstream.headers.get('retry-after');
      res.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
        ...(retryAfter === null ? {} : { 'retry-after': retryAfter }),
      });
      res.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    callsTo: (path) => seen.filter((call) => call.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One line of the sandbox's ledger (GET /__sandbox/ledger). */
interface SandboxLedgerLine {
  kind: string;
  calls: number;
  billed_calls: number;
  unique_dots: number;
  amount_usd: number;
}

export interface RunningSandbox {
  app: SandboxApp;
  url: string;
  /** this month's ledger lines of `apiKey`, as the sandbox bills them */
  ledger(apiKey: string): Promise<SandboxLedgerLine[]>;
  close(): Promise<void>;
}

/** The sandbox on loopback, port 0, in a temporary data dir that `close` removes. */
export async function startSandbox(options: {
  apiKeys: string[];
  rateLimits?: 'live' | 'off';
  population?: number;
}): Promise<RunningSandbox> {
  const dataDir = makeTempDir();
  const app = await buildSandboxApp({
    dataDir,
    apiKeys: options.apiKeys,
    population: options.population ?? 2000,
    rateLimits: options.rateLimits ?? 'off',
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    url,
    async ledger(apiKey) {
      const answer = await fetch(`${url}/__sandbox/ledger`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      const summary = (await answer.json()) as {
        keys: { months: { lines: SandboxLedgerLine[] }[] }[];
      };
      return summary.keys.flatMap((key) => key.months.flatMap((month) => month.lines));
    },
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
