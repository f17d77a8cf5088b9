/**
 * Load check of the proxy (issue 6, not in CI): a sandbox and the proxy as separate processes on
 * 127.0.0.1, then BENCH_LOAD_CONNECTIONS connections (200), each a different signed-in user, for
 * BENCH_LOAD_SECONDS (30) against the proxy's cached autocomplete. Prints requests, errors,
 * timeouts, non-2xx and the proxy's RSS before, at its peak and after, and writes the figures to
 * bench/results/load-<date>.json.
 *
 * Exits 1 when any request failed (connection errors, timeouts or a non-2xx answer), or when the
 * proxy's RSS does not come back: within BENCH_LOAD_SETTLE_SECONDS (10) of the end of the load it
 * must be at most BENCH_LOAD_RSS_GROWTH_MIB (128) above its RSS before the load. The proxy's caches
 * and rate-limit buckets are bounded, so what stays is V8's grown heap, not per-request data; a
 * leak of even a few hundred bytes per request would exceed the bound at this request count.
 *
 *   npm run bench:load
 *   BENCH_LOAD_SECONDS=5 BENCH_LOAD_CONNECTIONS=50 npm run bench:load
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  rssMiB,
  soak,
  startMultiUserProxy,
  startSandbox,
  type Service,
  type SoakFigures,
} from './bench-processes.ts';
import { metric, writeResultsFile } from './bench-results.ts';
import { setting } from './bench-servers.ts';

const SECONDS = setting('BENCH_LOAD_SECONDS', 30, 3600);
const CONNECTIONS = setting('BENCH_LOAD_CONNECTIONS', 200, 5000);
const SETTLE_SECONDS = setting('BENCH_LOAD_SETTLE_SECONDS', 10, 600);
const RSS_GROWTH_MIB = setting('BENCH_LOAD_RSS_GROWTH_MIB', 128, 100_000);

interface Settled {
  /** RSS when it first came within the bound, or the last reading of the settle window */
  rss: number | undefined;
  /** seconds after the load until that reading */
  seconds: number;
}

/** Sample the proxy's RSS every 500 ms until it is within `bound` or the settle window ends. */
async function settle(proxy: Service, bound: number): Promise<Settled> {
  const started = performance.now();
  for (;;) {
    const rss = rssMiB(proxy.pid);
    const seconds = (performance.now() - started) / 1000;
    if (rss === undefined || rss <= bound || seconds >= SETTLE_SECONDS) {
      return { rss, seconds: Math.round(seconds * 10) / 10 };
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const mib = (value: number | undefined) =>
  value === undefined ? 'n/a' : `${value.toFixed(0)} MiB`;

function print(result: SoakFigures, settled: Settled, bound: number): void {
  const { figures, rss, peakRss } = result;
  console.log(
    `\nLoad: ${CONNECTIONS} connections (${result.users} users) for ${SECONDS} s through the proxy`,
  );
  console.table([
    {
      requests: figures.requests,
      'req/s': Math.round(figures.requestsPerSecond),
      'p50 ms': figures.p50,
      'p99 ms': figures.p99,
      errors: figures.errors,
      timeouts: figures.timeouts,
      'non-2xx': figures.non2xx,
    },
  ]);
  console.log(
    `proxy RSS before ${mib(rss[0])}, peak ${mib(peakRss)}, at the end of the load ${mib(rss.at(-1))}, ` +
      `${settled.seconds} s later ${mib(settled.rss)} (bound ${mib(bound)}: before + ${RSS_GROWTH_MIB} MiB)`,
  );
}

function failures(result: SoakFigures, settled: Settled, bound: number): string[] {
  const { errors, timeouts, non2xx } = result.figures;
  const out: string[] = [];
  if (errors > 0 || timeouts > 0) out.push(`${errors} errors, ${timeouts} timeouts`);
  if (non2xx > 0) out.push(`${non2xx} non-2xx answers`);
  if (settled.rss === undefined) out.push('RSS not readable (no /proc)');
  else if (settled.rss > bound) {
    out.push(`RSS ${mib(settled.rss)} after ${SETTLE_SECONDS} s is above ${mib(bound)}`);
  }
  return out;
}

function save(result: SoakFigures, settled: Settled, bound: number): string {
  const { figures, rss, peakRss } = result;
  const rounded = (value: number | undefined) => (value === undefined ? null : Math.round(value));
  return writeResultsFile({
    bench: 'load',
    settings: {
      seconds: SECONDS,
      connections: CONNECTIONS,
      settleSeconds: SETTLE_SECONDS,
      rssGrowthMiB: RSS_GROWTH_MIB,
    },
    metrics: [
      metric({
        metric: 'load.errors',
        label: `errors + timeouts + non-2xx, ${CONNECTIONS} connections for ${SECONDS} s`,
        value: figures.errors + figures.timeouts + figures.non2xx,
        unit: 'requests',
        target: { op: '=', value: 0 },
      }),
      metric({
        metric: 'load.requests',
        label: 'requests',
        value: figures.requests,
        unit: 'requests',
      }),
      metric({
        metric: 'load.rps',
        label: 'requests/s',
        value: Math.round(figures.requestsPerSecond),
        unit: 'req/s',
      }),
      metric({
        metric: 'load.rss.before',
        label: 'proxy RSS before',
        value: rounded(rss[0]),
        unit: 'MiB',
      }),
      metric({
        metric: 'load.rss.peak',
        label: 'proxy RSS peak',
        value: rounded(peakRss),
        unit: 'MiB',
      }),
      metric({
        metric: 'load.rss.after',
        label: `proxy RSS after (within ${SETTLE_SECONDS} s)`,
        value: rounded(settled.rss),
        unit: 'MiB',
        target: { op: '<=', value: Math.round(bound) },
      }),
    ],
    details: { figures, rssSamples: rss, settled },
  });
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'bench-load-'));
  const services: Service[] = [];
  try {
    const sandbox = await startSandbox(join(work, 'sandbox'));
    services.push(sandbox);
    const proxy = await startMultiUserProxy(join(work, 'proxy'), sandbox.url);
    services.push(proxy);
    const result = await soak(proxy, CONNECTIONS, SECONDS);
    const bound = (result.rss[0] ?? 0) + RSS_GROWTH_MIB;
    const settled = await settle(proxy, bound);
    print(result, settled, bound);
    console.log(`results: ${save(result, settled, bound)}`);
    const failed = failures(result, settled, bound);
    if (failed.length > 0) {
      console.error(`FAILED: ${failed.join('; ')}`);
      process.exitCode = 1;
    } else {
      console.log('passed: no failed requests, RSS came back within the bound');
    }
  } finally {
    for (const service of services.reverse()) await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
