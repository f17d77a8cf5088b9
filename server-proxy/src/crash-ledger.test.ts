/**
 * kill -9 during a bulk watch: every DOT the service added is in the proxy's ledger, because the
 * intent of each call is written before it is sent (pending rows, made uncertain at the next
 * start). A real sandbox on loopback, a relay in front of it that holds some answers back (the
 * sandbox has committed those adds; their answers are "on the wire"), the proxy as a child
 * process started with `tsx server-proxy/src/server.ts`, and its SQLite file read after the kill.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSandboxApp, type SandboxApp } from './sandbox/index.ts';
import { CSRF, startProxyProcess } from './helpers.test-support.ts';

const KEY = 'sk_test_crash_ledger';
const IDS = 500;
const CHUNK = 100;
/** chunks whose answers the relay delivers at once; the others are held until the kill */
const FAST_CHUNKS = 2;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'crash-ledger-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function startSandbox(): Promise<{ app: SandboxApp; url: string }> {
  const app = await buildSandboxApp({ dataDir: tempDir(), apiKeys: [KEY], population: 2000 });
  await app.listen({ host: '127.0.0.1', port: 0 });
  cleanups.push(() => app.close());
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/** `count` real profile ids of the sandbox's population (by DOT-prefix autocomplete). */
function profileIds(app: SandboxApp, count: number): string[] {
  const ids = new Map<string, string>();
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const prefixes = [...letters].flatMap((a) => [...letters].map((b) => a + b));
  for (const prefix of prefixes) {
    if (ids.size >= count) break;
    for (const carrier of app.sandbox.dataset.autocomplete(prefix, 100)) {
      ids.set(carrier.dot, carrier.docket ? `${carrier.dot}-${carrier.docket}` : carrier.dot);
    }
  }
  return [...ids.values()].slice(0, count);
}

interface Relay {
  url: string;
  /** monitoring/add answers the sandbox has given (held or delivered) */
  answered: () => number;
}

/**
 * Forwards every request to the sandbox at once; the answers of monitoring/add calls after the
 * first `fast` are held back (never delivered: the proxy is killed while it waits for them).
 */
async function startRelay(target: string, fast: number): Promise<Relay> {
  let adds = 0;
  let answered = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const isAdd = req.url?.startsWith('/v2/monitoring/add') ?? false;
      const hold = isAdd && (adds += 1) > fast;
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'accept']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      void fetch(`${target}${req.url ?? '/'}`, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      }).then(
        async (answer) => {
          const body = await answer.text();
          if (isAdd) answered += 1;
          if (hold) return;
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(body);
        },
        () => res.socket?.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answered: () => answered,
  };
}

/** The proxy as a child process (killed at the end if still running). */
function startChild(upstream: string, dataDir: string) {
  return startProxyProcess({
    upstream,
    dataDir,
    apiKey: KEY,
    onStart: (child) =>
      cleanups.push(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }),
  });
}

async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** DOTs the sandbox watches for KEY, read from the sandbox itself. */
async function watchedDots(sandboxUrl: string): Promise<string[]> {
  const dots: string[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await fetch(`${sandboxUrl}/v2/monitoring/list?pageSize=500&page=${page}`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    // items: {<profile id>: [change records]}
    const body = (await answer.json()) as { items: Record<string, unknown>; total_count: number };
    const ids = Object.keys(body.items);
    dots.push(...ids.map((profileId) => profileId.split('-')[0] ?? ''));
    if (ids.length === 0 || dots.length >= body.total_count) return dots;
  }
}

describe('kill -9 during a bulk watch', () => {
  it('leaves a ledger row for every DOT the service added', async () => {
    const sandbox = await startSandbox();
    const ids = profileIds(sandbox.app, IDS);
    expect(ids).toHaveLength(IDS);
    // the sandbox starts with a few curated carriers watched
    const before = new Set(await watchedDots(sandbox.url));
    const relay = await startRelay(sandbox.url, FAST_CHUNKS);
    const dataDir = tempDir();
    const { child, url } = await startChild(relay.url, dataDir);

    const chunks = Array.from({ length: IDS / CHUNK }, (_, i) =>
      ids.slice(i * CHUNK, (i + 1) * CHUNK),
    );
    let delivered = 0;
    for (const chunk of chunks) {
      void fetch(`${url}/api/v2/monitoring/add`, {
        method: 'POST',
        headers: { ...CSRF, 'content-type': 'application/json' },
        body: JSON.stringify({ profile_ids: chunk }),
      }).then(
        (answer) => {
          if (answer.ok) delivered += 1;
        },
        () => undefined,
      );
    }
    // Two chunks answered; the sandbox has committed all five; three answers are on the wire.
    await waitFor(
      () => delivered === FAST_CHUNKS && relay.answered() === chunks.length,
      20_000,
      'the chunks',
    );
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;

    const watched = (await watchedDots(sandbox.url)).filter((dot) => !before.has(dot));
    expect(watched.length).toBeGreaterThan(FAST_CHUNKS * CHUNK);
    const db = new Database(join(dataDir, 'proxy.sqlite'));
    try {
      const rows = db
        .prepare<[], { dot: string; state: string; price_mills: number }>(
          `SELECT dot, state, price_mills FROM spend_ledger WHERE endpoint = 'monitoring/add'`,
        )
        .all();
      const ledgered = new Set(rows.map((row) => row.dot));
      expect(watched.filter((dot) => !ledgered.has(dot))).toEqual([]);
      // the answered chunks are settled; the three killed in flight are still pending
      const states = new Map<string, number>();
      for (const row of rows) states.set(row.state, (states.get(row.state) ?? 0) + 1);
      expect(Object.fromEntries(states)).toEqual({
        settled: FAST_CHUNKS * CHUNK,
        pending: IDS - FAST_CHUNKS * CHUNK,
      });
    } finally {
      db.close();
    }
  }, 30_000);
});
