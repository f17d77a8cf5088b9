/**
 * What the server-process benchmarks share (`bench-proxy.ts`, `bench-load.ts`): a sandbox and the
 * proxy started as separate Node processes (as in production) on 127.0.0.1 with OS-chosen ports,
 * nginx when installed, autocannon load from this process, a process's RSS from /proc, and the
 * many-users load run ("soak") through a proxy in trusted-header mode.
 */
import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../server-proxy/src/team/services.test-support.ts';
import { API_HEADERS, BENCH_KEY } from './bench-servers.ts';

export const HOST = '127.0.0.1';
/** The cached autocomplete query every proxy benchmark sends. */
export const QUERY = 'q=ha';
const SOAK_USER_HEADER = 'x-forwarded-user';
/** USER_HZ, the unit of /proc/<pid>/stat times (100 on Linux). */
const CLOCK_TICKS_PER_SECOND = 100;

export interface Service {
  name: string;
  url: string;
  /** pid of the serving process, for its RSS */
  pid: number | undefined;
  stop(): Promise<void>;
}

/**
 * Waits for `pattern` in the child's log file; its first group is the service's URL. Logs go to a
 * file, not a pipe to this process: Node writes stdout pipes synchronously, so a pipe drained by
 * the busy load generator would stall the server and measure the harness instead.
 */
async function urlFromLog(child: ChildProcess, logFile: string, pattern: RegExp, name: string) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const log = readFileSync(logFile, 'utf8');
    const url = pattern.exec(log)?.[1];
    if (url !== undefined) return url;
    if (child.exitCode !== null) {
      throw new Error(
        `${name} exited with ${child.exitCode} before it listened:\n${log.slice(-2000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} did not start within 120 s (log: ${logFile})`);
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}

/** A Node service run through tsx's loader in one process (so its pid is the server's). */
async function startNodeService(
  logDir: string,
  name: string,
  entry: string,
  env: Record<string, string>,
  listening: RegExp,
): Promise<Service> {
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${name}.log`);
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...process.env, ...env },
    stdio: ['ignore', log, 'inherit'],
  });
  closeSync(log);
  try {
    const url = await urlFromLog(child, logFile, listening, name);
    return { name, url, pid: child.pid, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** A sandbox process (default population 5,000) with the bench key and no rate limits. */
export function startSandbox(dataDir: string, population?: number): Promise<Service> {
  return startNodeService(
    dataDir,
    'sandbox',
    'server-proxy/src/sandbox/main.ts',
    {
      SANDBOX_HOST: HOST,
      SANDBOX_PORT: '0',
      SANDBOX_API_KEYS: BENCH_KEY,
      SANDBOX_LOG_LEVEL: 'silent',
      SANDBOX_RATE_LIMITS: 'off',
      ...(population === undefined ? {} : { SANDBOX_POPULATION: String(population) }),
      DATA_DIR: dataDir,
    },
    /Sandbox listening on (http:\/\/\S+)/,
  );
}

/** A proxy process forwarding to `sandboxUrl` with the bench key; `extraEnv` overrides. */
export function startProxy(
  dataDir: string,
  sandboxUrl: string,
  extraEnv: Record<string, string> = {},
): Promise<Service> {
  return startNodeService(
    dataDir,
    'proxy',
    'server-proxy/src/server.ts',
    {
      HOST,
      PORT: '0',
      CARRIER_API_BASE_URL: sandboxUrl,
      CARRIER_API_KEY: BENCH_KEY,
      CARRIER_API_KEY_FILE: '',
      CARRIER_API_LEGACY: 'false',
      DASHBOARD_AUTH: 'none',
      MONTHLY_BUDGET_USD: '',
      DATA_DIR: dataDir,
      STATIC_DIR: join(dataDir, 'no-spa'),
      LOG_LEVEL: process.env.BENCH_PROXY_LOG_LEVEL ?? 'warn',
      // With DASHBOARD_AUTH=none the load generator is one user, and on a quiet machine it sends
      // more than 100,000 requests a minute: lift the per-user limit out of the way.
      USER_RATE_LIMIT_PER_MINUTE: '10000000',
      ...extraEnv,
    },
    /carrier-desk proxy on (http:\/\/\S+)/,
  );
}

/**
 * A proxy in DASHBOARD_AUTH=trusted-header mode trusting this host, so each load connection can
 * be a different signed-in user (`asUsers`) and the per-user rate limit applies as in real use.
 */
export function startMultiUserProxy(dataDir: string, sandboxUrl: string): Promise<Service> {
  return startProxy(dataDir, sandboxUrl, {
    DASHBOARD_AUTH: 'trusted-header',
    TRUSTED_USER_HEADER: SOAK_USER_HEADER,
    TRUSTED_PROXIES: HOST,
  });
}

export function hasNginx(): boolean {
  return spawnSync('sh', ['-c', 'command -v nginx'], { stdio: 'ignore' }).status === 0;
}

/** One nginx worker on a loopback port: `/api/v2/` → the sandbox's `/v2/`, key header added. */
function nginxConfig(dir: string, port: number, sandboxUrl: string): string {
  const upstream = new URL(sandboxUrl).host;
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  return `daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  # Keep connections open as long as autocannon does (the default closes one every 1000 requests).
  keepalive_requests 1000000;
  upstream sandbox { server ${upstream}; keepalive 64; keepalive_requests 1000000; }
  server {
    listen ${HOST}:${port};
    location /api/v2/ {
      proxy_pass http://sandbox/v2/;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Authorization "Bearer ${BENCH_KEY}";
    }
  }
}
`;
}

export async function startNginx(dir: string, sandboxUrl: string): Promise<Service> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const config = join(dir, 'nginx.conf');
  writeFileSync(config, nginxConfig(dir, port, sandboxUrl));
  const child = spawn('nginx', ['-p', dir, '-c', config, '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://${HOST}:${port}`;
  try {
    await waitForOk(`${url}/api/v2/autocomplete?${QUERY}`, 'nginx');
  } catch (error) {
    await stopChild(child, 'SIGQUIT');
    throw error;
  }
  // SIGQUIT: nginx's graceful stop (finish requests, then exit).
  return { name: 'nginx', url, pid: child.pid, stop: () => stopChild(child, 'SIGQUIT') };
}

async function waitForOk(url: string, name: string) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} did not answer 200 at ${url}`);
}

export interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

export interface LoadFigures {
  target: string;
  requestsPerSecond: number;
  /** autocannon's latencies (whole milliseconds under load) */
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

/** autocannon against one target; `setupClient` can give each connection its own headers. */
export async function load(
  target: Target,
  connections: number,
  seconds: number,
  setupClient?: (client: autocannon.Client) => void,
): Promise<LoadFigures> {
  const result = await autocannon({
    url: target.url,
    headers: target.headers ?? {},
    connections,
    duration: seconds,
    ...(setupClient ? { setupClient } : {}),
  });
  return {
    target: target.name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

function procStatusMiB(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

/** Resident set size of a Linux process in MiB, or undefined elsewhere (no /proc). */
export function rssMiB(pid: number | undefined): number | undefined {
  return procStatusMiB(pid, 'VmRSS');
}

/** The highest RSS the process has had so far (the kernel's VmHWM), in MiB. */
export function peakRssMiB(pid: number | undefined): number | undefined {
  return procStatusMiB(pid, 'VmHWM');
}

export interface SoakFigures {
  figures: LoadFigures;
  /** the proxy's RSS in MiB: before, once a second during, and after the run */
  rss: number[];
  /** the kernel's high-water mark of the proxy's RSS after the run, MiB */
  peakRss: number | undefined;
  users: number;
}

/**
 * `connections` connections for `seconds` against the cached autocomplete of a proxy started with
 * `startMultiUserProxy`, each connection a different user; samples the proxy's RSS every second.
 */
export async function soak(
  proxy: Service,
  connections: number,
  seconds: number,
): Promise<SoakFigures> {
  const samples: number[] = [];
  const sample = () => {
    const rss = rssMiB(proxy.pid);
    if (rss !== undefined) samples.push(rss);
  };
  let users = 0;
  const asUser = (client: autocannon.Client) => {
    users += 1;
    client.setHeaders({ ...API_HEADERS, [SOAK_USER_HEADER]: `bench-user-${users}` });
  };
  const target = {
    name: 'proxy soak',
    url: `${proxy.url}/api/v2/autocomplete?${QUERY}`,
    headers: { ...API_HEADERS },
  };
  sample();
  const timer = setInterval(sample, 1000);
  const figures = await load(target, connections, seconds, asUser).finally(() =>
    clearInterval(timer),
  );
  sample();
  return { figures, rss: samples, peakRss: peakRssMiB(proxy.pid), users };
}

function ownCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / CLOCK_TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

function childPids(pid: number): number[] {
  try {
    const list = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return list === '' ? [] : list.split(' ').map(Number);
  } catch {
    return [];
  }
}

/**
 * CPU time (user + system) a Linux process and its direct children (nginx's workers) have used so
 * far, in seconds, or undefined without /proc. Per request, it measures a server's own work even
 * when a shared machine is busy.
 */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const own = ownCpuSeconds(pid);
  if (own === undefined) return undefined;
  return childPids(pid).reduce((sum, child) => sum + (ownCpuSeconds(child) ?? 0), own);
}
