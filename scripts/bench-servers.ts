/**
 * What the browser benchmarks share: their settings from the environment, a production build of
 * the SPA, and a sandbox with the proxy in front of it serving that build, both in this process on
 * 127.0.0.1 (OS-chosen ports), as `scripts/bench-browser.ts` and `scripts/bench-lighthouse.ts` use
 * them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProxyApp, type ProxyApp } from '../server-proxy/src/app.ts';
import { loadConfig } from '../server-proxy/src/config.ts';
import { buildSandboxApp, type SandboxApp } from '../server-proxy/src/sandbox/app.ts';

export const BENCH_KEY = 'sk_test_bench';
/**
 * The header the SPA sends on every API call; the proxy refuses GETs that may be billed without it
 * (docs/proxy-security.md), so load generators send it too.
 */
export const API_HEADERS: Readonly<Record<string, string>> = { 'x-requested-with': 'carrier-desk' };
const HOST = '127.0.0.1';

/** A whole number from the environment (`fallback` when unset), checked against 1…max. */
export function setting(name: string, fallback: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new Error(`${name} must be a whole number from 1 to ${max}, got "${raw}"`);
  }
  return value;
}

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/** `vite build` into outDir, unless BENCH_DIST names a directory that already holds a build. */
export function buildSpa(outDir: string): void {
  if (existsSync(join(outDir, 'index.html')) && process.env.BENCH_DIST) return;
  const result = spawnSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`vite build failed with ${result.status}`);
}

export interface BenchServers {
  sandbox: SandboxApp;
  proxy: ProxyApp;
  /** the proxy's origin, e.g. http://127.0.0.1:41234 */
  base: string;
}

/**
 * A sandbox with `population` generated carriers (data under work/sandbox) and the proxy forwarding
 * to it with the bench key, serving the build in `dist` (data under work/proxy).
 */
export async function startServers(
  work: string,
  dist: string,
  population: number,
): Promise<BenchServers> {
  const sandbox = await buildSandboxApp({
    dataDir: join(work, 'sandbox'),
    apiKeys: [BENCH_KEY],
    population,
  });
  try {
    await sandbox.listen({ host: HOST, port: 0 });
    const sandboxUrl = `http://${HOST}:${(sandbox.server.address() as AddressInfo).port}`;
    const proxy = await buildProxyApp(
      loadConfig({
        HOST,
        PORT: '0',
        CARRIER_API_BASE_URL: sandboxUrl,
        CARRIER_API_KEY: BENCH_KEY,
        STATIC_DIR: dist,
        DATA_DIR: join(work, 'proxy'),
        LOG_LEVEL: 'silent',
        // One browser is one user doing far more than a person would in a minute.
        USER_RATE_LIMIT_PER_MINUTE: '100000',
      }),
    );
    await proxy.listen({ host: HOST, port: 0 });
    const base = `http://${HOST}:${(proxy.server.address() as AddressInfo).port}`;
    return { sandbox, proxy, base };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}

export async function closeServers(servers: BenchServers | undefined): Promise<void> {
  await servers?.proxy.close();
  await servers?.sandbox.close();
}

export interface BenchSite {
  /** a temp folder of the run's own (removed by `close`) */
  work: string;
  servers: BenchServers;
  /** Stops the servers and removes the temp folder. */
  close(): Promise<void>;
}

/**
 * What a browser benchmark starts from: a temp folder, the SPA built into it (or `BENCH_DIST`
 * reused), and the sandbox and proxy serving it. Fails with everything it started stopped again.
 */
export async function startBenchSite(name: string, population: number): Promise<BenchSite> {
  const work = mkdtempSync(join(tmpdir(), `${name}-`));
  const dist = process.env.BENCH_DIST ?? join(work, 'dist');
  const removeWork = () => rmSync(work, { recursive: true, force: true });
  try {
    buildSpa(dist);
    const servers = await startServers(work, dist, population);
    console.log(
      `proxy ${servers.base} → sandbox (population ${population.toLocaleString('en-US')}), SPA from ${dist}`,
    );
    return {
      work,
      servers,
      async close() {
        await closeServers(servers);
        removeWork();
      },
    };
  } catch (error) {
    removeWork();
    throw error;
  }
}
