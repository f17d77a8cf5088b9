/**
 * Proxy performance figures (printed, no assertions), all on 127.0.0.1:
 *
 * 1. Cached autocomplete (`q=ha`): requests/s and p50/p99 latency straight to a sandbox, through the
 *    proxy (answered from its cache), and through nginx `proxy_pass` adding the key (when `nginx` is
 *    installed; skipped otherwise). Same sandbox, one run, each target warmed up first.
 *    Then the added latency: sequential requests on one keep-alive connection (sub-ms detail).
 * 2. Soak: many connections (one user each) through a fresh proxy; errors, non-2xx, the proxy's RSS.
 *
 * The sandbox and the proxy run as separate Node processes (as in production); autocannon runs here.
 *
 *   npm run bench:proxy
 *   BENCH_SECONDS=3 BENCH_SOAK_SECONDS=5 npx tsx scripts/bench-proxy.ts
 *
 * BENCH_SECONDS (10) and BENCH_CONNECTIONS (10): each throughput run; BENCH_LATENCY_REQUESTS (2000):
 * the sequential latency probe; BENCH_SOAK_SECONDS (30) and BENCH_SOAK_CONNECTIONS (200): the soak;
 * BENCH_PROXY_LOG_LEVEL (warn): the proxy's LOG_LEVEL.
 */
import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const KEY = 'sk_test_bench';
const QUERY = 'q=ha';
const HOST = '127.0.0.1';

function setting(name: string, fallback: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new Error(`${name} must be a whole number from 1 to ${max}, got "${raw}"`);
  }
  return value;
}

const SECONDS = setting('BENCH_SECONDS', 10, 120);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 10, 1000);
const SOAK_SECONDS = setting('BENCH_SOAK_SECONDS', 30, 600);
const SOAK_CONNECTIONS = setting('BENCH_SOAK_CONNECTIONS', 200, 1000);
const LATENCY_REQUESTS = setting('BENCH_LATENCY_REQUESTS', 2000, 100_000);
const WARMUP_SECONDS = 2;
const SOAK_USER_HEADER = 'x-forwarded-user';

interface Service {
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
  const deadline = Date.now() + 60_000;
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
  throw new Error(`${name} did not start within 60 s (log: ${logFile})`);
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
  const url = await urlFromLog(child, logFile, listening, name);
  return { name, url, pid: child.pid, stop: () => stopChild(child) };
}

function startSandbox(dataDir: string): Promise<Service> {
  return startNodeService(
    dataDir,
    'sandbox',
    'server-proxy/src/sandbox/main.ts',
    {
      SANDBOX_HOST: HOST,
      SANDBOX_PORT: '0',
      SANDBOX_API_KEYS: KEY,
      SANDBOX_LOG_LEVEL: 'silent',
      SANDBOX_RATE_LIMITS: 'off',
      DATA_DIR: dataDir,
    },
    /Sandbox listening on (http:\/\/\S+)/,
  );
}

function startProxy(
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
      CARRIER_API_KEY: KEY,
      CARRIER_API_KEY_FILE: '',
      CARRIER_API_LEGACY: 'false',
      DASHBOARD_AUTH: 'none',
      MONTHLY_BUDGET_USD: '',
      DATA_DIR: dataDir,
      STATIC_DIR: join(dataDir, 'no-spa'),
      LOG_LEVEL: process.env.BENCH_PROXY_LOG_LEVEL ?? 'warn',
      // The per-user limit's ceiling; with DASHBOARD_AUTH=none the load generator is one user.
      USER_RATE_LIMIT_PER_MINUTE: '100000',
      ...extraEnv,
    },
    /carrier-desk proxy on (http:\/\/\S+)/,
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function hasNginx(): boolean {
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
      proxy_set_header Authorization "Bearer ${KEY}";
    }
  }
}
`;
}

async function startNginx(dir: string, sandboxUrl: string): Promise<Service> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const config = join(dir, 'nginx.conf');
  writeFileSync(config, nginxConfig(dir, port, sandboxUrl));
  const child = spawn('nginx', ['-p', dir, '-c', config, '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://${HOST}:${port}`;
  await waitForOk(`${url}/api/v2/autocomplete?${QUERY}`, {}, 'nginx');
  // SIGQUIT: nginx's graceful stop (finish requests, then exit).
  return { name: 'nginx', url, pid: child.pid, stop: () => stopChild(child, 'SIGQUIT') };
}

async function waitForOk(url: string, headers: Record<string, string>, name: string) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const ok = await fetch(url, { headers }).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} did not answer 200 at ${url}`);
}

/** The proxy figures mean "cached" only if the proxy says it answered from its cache. */
async function expectCacheHit(url: string): Promise<void> {
  const response = await fetch(url);
  await response.arrayBuffer();
  const cache = response.headers.get('x-cache');
  if (response.status !== 200 || cache !== 'hit') {
    throw new Error(
      `the proxy answered ${response.status} with x-cache: ${cache}, not a cache hit`,
    );
  }
}

interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

interface Figures {
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

interface Latency {
  p50: number;
  p99: number;
}

async function load(
  target: Target,
  connections: number,
  seconds: number,
  setupClient?: (client: autocannon.Client) => void,
): Promise<Figures> {
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

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** One keep-alive connection, requests one after another: latency with sub-millisecond detail. */
async function sequentialLatency(target: Target, count: number): Promise<Latency> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const durations: number[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const started = performance.now();
      const status = await getOnce(target, agent);
      durations.push(performance.now() - started);
      if (status !== 200) throw new Error(`${target.name} answered ${status}`);
    }
  } finally {
    agent.destroy();
  }
  durations.sort((a, b) => a - b);
  return { p50: percentile(durations, 50), p99: percentile(durations, 99) };
}

function getOnce(target: Target, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpGet(target.url, { agent, headers: target.headers ?? {} }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    request.once('error', reject);
  });
}

/** Warm the target (caches, JIT, keep-alive), measure throughput, then single-request latency. */
async function compare(target: Target) {
  await load(target, CONNECTIONS, WARMUP_SECONDS);
  const figures = await load(target, CONNECTIONS, SECONDS);
  return { figures, latency: await sequentialLatency(target, LATENCY_REQUESTS) };
}

type Comparison = Awaited<ReturnType<typeof compare>>;

/** Resident set size of a Linux process in MiB, or undefined elsewhere. */
function rssMiB(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * Many connections through a proxy of its own, each connection a different user behind a trusted
 * sign-in proxy (DASHBOARD_AUTH=trusted-header): 200 connections are 200 dashboard users, so the
 * per-user rate limit applies as it would in use. Samples the proxy's RSS every second.
 */
async function soak(proxy: Service) {
  const samples: number[] = [];
  const sample = () => {
    const rss = rssMiB(proxy.pid);
    if (rss !== undefined) samples.push(rss);
  };
  let users = 0;
  const asUser = (client: autocannon.Client) => {
    users += 1;
    client.setHeaders({ [SOAK_USER_HEADER]: `bench-user-${users}` });
  };
  const target = { name: 'proxy soak', url: `${proxy.url}/api/v2/autocomplete?${QUERY}` };
  sample();
  const timer = setInterval(sample, 1000);
  const figures = await load(target, SOAK_CONNECTIONS, SOAK_SECONDS, asUser).finally(() =>
    clearInterval(timer),
  );
  sample();
  return { figures, rss: samples, users };
}

const fixed = (value: number, digits = 2) => value.toFixed(digits);

function printComparison(rows: Comparison[]): void {
  console.log(
    `\nCached autocomplete (${QUERY}): ${CONNECTIONS} connections for ${SECONDS} s each (after ${WARMUP_SECONDS} s warm-up),` +
      ` then ${LATENCY_REQUESTS} sequential requests on one connection`,
  );
  console.table(
    rows.map(({ figures, latency }) => ({
      target: figures.target,
      'req/s': Math.round(figures.requestsPerSecond),
      'p50 ms (load)': figures.p50,
      'p99 ms (load)': figures.p99,
      errors: figures.errors,
      'non-2xx': figures.non2xx,
      'p50 ms (1 conn)': fixed(latency.p50, 3),
      'p99 ms (1 conn)': fixed(latency.p99, 3),
    })),
  );
  const [direct, proxy, nginx] = rows;
  if (direct && proxy) {
    const added = proxy.latency.p50 - direct.latency.p50;
    console.log(`proxy p50 minus direct p50 (1 connection): ${fixed(added, 3)} ms`);
  }
  if (proxy && nginx) {
    const ratio = proxy.figures.requestsPerSecond / nginx.figures.requestsPerSecond;
    console.log(`proxy / nginx requests/s: ${fixed(ratio)}`);
  }
}

function printSoak({ figures, rss, users }: Awaited<ReturnType<typeof soak>>): void {
  console.log(
    `\nSoak: ${SOAK_CONNECTIONS} connections (${users} users) for ${SOAK_SECONDS} s through the proxy`,
  );
  console.table([
    {
      'req/s': Math.round(figures.requestsPerSecond),
      'p50 ms': figures.p50,
      'p99 ms': figures.p99,
      requests: figures.requests,
      errors: figures.errors,
      timeouts: figures.timeouts,
      'non-2xx': figures.non2xx,
    },
  ]);
  console.log(
    rss.length === 0
      ? 'proxy RSS n/a (no /proc)'
      : `proxy RSS start ${fixed(rss[0] ?? NaN, 0)} MiB, peak ${fixed(Math.max(...rss), 0)} MiB, end ${fixed(rss.at(-1) ?? NaN, 0)} MiB`,
  );
}

async function runComparison(work: string, sandbox: Service, services: Service[]) {
  const proxy = await startProxy(join(work, 'proxy'), sandbox.url);
  services.push(proxy);
  const nginx = hasNginx() ? await startNginx(join(work, 'nginx'), sandbox.url) : undefined;
  if (nginx) services.push(nginx);
  else console.log('nginx is not installed: the nginx comparison is skipped');
  const proxied = `/api/v2/autocomplete?${QUERY}`;
  const rows = [
    await compare({
      name: 'sandbox direct',
      url: `${sandbox.url}/v2/autocomplete?${QUERY}`,
      headers: { authorization: `Bearer ${KEY}` },
    }),
    await compare({ name: 'proxy (cache hit)', url: `${proxy.url}${proxied}` }),
  ];
  await expectCacheHit(`${proxy.url}${proxied}`);
  if (nginx) rows.push(await compare({ name: 'nginx proxy_pass', url: `${nginx.url}${proxied}` }));
  printComparison(rows);
  await proxy.stop();
  await nginx?.stop();
}

async function runSoak(work: string, sandbox: Service, services: Service[]) {
  const proxy = await startProxy(join(work, 'proxy-soak'), sandbox.url, {
    DASHBOARD_AUTH: 'trusted-header',
    TRUSTED_USER_HEADER: SOAK_USER_HEADER,
    TRUSTED_PROXIES: HOST,
  });
  services.push(proxy);
  printSoak(await soak(proxy));
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'bench-proxy-'));
  const services: Service[] = [];
  try {
    const sandbox = await startSandbox(join(work, 'sandbox'));
    services.push(sandbox);
    await runComparison(work, sandbox, services);
    await runSoak(work, sandbox, services);
  } finally {
    for (const service of services.reverse()) await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
