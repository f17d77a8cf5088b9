/**
 * Sandbox performance figures against the targets (start-up ≤ 10 s, RSS ≤ 600 MB,
 * autocomplete and DOT lookup p95 ≤ 5 ms at 1,000,000 carriers), in two parts:
 *
 * 1. In this process: start-up time of `buildSandboxApp`, then server-side latency of autocomplete
 *    and DOT lookups through `app.inject` (no network), and the heavy profile's serve time.
 * 2. The sandbox as its own server process (`server-proxy/src/sandbox/main.ts`, as deployed): time
 *    to listening, and its RSS from /proc after start-up, after serving BENCH_PROFILES random
 *    profiles over HTTP, after the heavy profile 10 times, and its peak (VmHWM). This process's
 *    RSS would also count light-my-request's copies of every response body (four per heavy 13 MB
 *    body), which a server does not keep.
 *
 * Prints the figures with each target's verdict and writes them to
 * bench/results/sandbox-<date>.json. Figures only: the exit code does not depend on the verdicts.
 *
 *   npm run bench:sandbox                                          # population 1,000,000
 *   BENCH_POPULATION=200000 BENCH_QUERIES=300 npx tsx scripts/bench-sandbox.ts
 *
 * BENCH_QUERIES (500): requests per latency row; BENCH_PROFILES (5000): random profiles served
 * before the "after serving" RSS reading.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { buildSandboxApp, type SandboxApp } from '../server-proxy/src/sandbox/app.ts';
import { HEAVY_DOT } from '../server-proxy/src/sandbox/data/heavy.ts';
import { POPULATION_DOT_BASE } from '../server-proxy/src/sandbox/data/population-identity.ts';
import {
  metric,
  summarise,
  writeResultsFile,
  type MetricEntry,
  type Target,
} from './bench-results.ts';
import { peakRssMiB, rssMiB, startSandbox } from './bench-processes.ts';
import { BENCH_KEY, setting } from './bench-servers.ts';

const population = setting('BENCH_POPULATION', 1_000_000, 2_000_000);
const queries = setting('BENCH_QUERIES', 500, 100_000);
const profiles = setting('BENCH_PROFILES', 5000, 1_000_000);

const STARTUP_TARGET: Target = { op: '<=', value: 10_000 };
const RSS_TARGET: Target = { op: '<=', value: 600 };
const LATENCY_TARGET: Target = { op: '<=', value: 5 };
const PREFIXES = ['tr', 'ex', 'sa', 'ha', 'mo', 'pr', 'we', 'no', 'so', 'ea', 'hansen', '5682'];
const DOT_PREFIXES = ['10', '20', '50', '5001'];

/** MB as the results files count them (10^6 bytes), from a /proc reading in MiB. */
const megabytes = (mebibytes: number | undefined) =>
  mebibytes === undefined ? NaN : Math.round((mebibytes * 1024 * 1024) / 1e6);

/**
 * Time each path through app.inject; returns the durations in ms. Between requests the event loop
 * gets a turn, as it does in a server: light-my-request finishes each response in a setImmediate
 * callback, and a loop of awaited injects alone never reaches that phase, so every response body
 * would stay in memory (+~90 MB per 1,000 profiles, which once read as a leak).
 */
async function timeAll(app: SandboxApp, paths: readonly string[]): Promise<number[]> {
  const durations: number[] = [];
  for (const url of paths) {
    const started = performance.now();
    const response = await app.inject({ url, headers: { authorization: `Bearer ${BENCH_KEY}` } });
    durations.push(performance.now() - started);
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
    await nextTurn();
  }
  return durations;
}

/** Deterministic pseudo-random population DOTs, each at most once. */
function randomDots(count: number, salt: number): string[] {
  const dots = new Set<string>();
  let state = salt >>> 0;
  while (dots.size < Math.min(count, population)) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    dots.add(String(POPULATION_DOT_BASE + Math.floor((state / 2 ** 32) * population)));
  }
  return [...dots];
}

function cycle(count: number, make: (i: number) => string): string[] {
  return Array.from({ length: count }, (_, i) => make(i));
}

class Figures {
  readonly metrics: MetricEntry[] = [];

  latency(id: string, label: string, durations: number[], target: Target | null): void {
    const s = summarise(durations);
    this.metrics.push(
      metric({
        metric: `sandbox.${id}.p95`,
        label: `${label} p95`,
        value: s.p95,
        unit: 'ms',
        target,
        spread: { n: s.n, min: s.min, max: s.max },
      }),
    );
    const verdict = target
      ? `  target p95 ≤ ${target.value} ms: ${s.p95 <= target.value ? 'met' : 'MISSED'}`
      : '';
    console.log(
      `${label.padEnd(34)} n=${s.n}  p50 ${s.median} ms  p95 ${s.p95} ms  max ${s.max} ms${verdict}`,
    );
  }

  single(id: string, label: string, value: number, unit: string, target: Target | null): void {
    const entry = metric({ metric: `sandbox.${id}`, label, value, unit, target });
    this.metrics.push(entry);
    const verdict = target
      ? `  target ${target.op === '<=' ? '≤' : '≥'} ${target.value.toLocaleString('en-US')} ${unit}: ${entry.met ? 'met' : 'MISSED'}`
      : '';
    console.log(`${label.padEnd(34)} ${value.toLocaleString('en-US')} ${unit}${verdict}`);
  }
}

async function measureLookups(app: SandboxApp, figures: Figures): Promise<void> {
  const { dataset } = app.sandbox;
  const autocomplete = cycle(queries, (i) => {
    const all = [...PREFIXES, ...DOT_PREFIXES];
    return `/v2/autocomplete?q=${all[i % all.length]}&limit=10`;
  });
  figures.latency('autocomplete', 'autocomplete', await timeAll(app, autocomplete), LATENCY_TARGET);

  const first = randomDots(queries, 1);
  const profilePath = (dot: string) => `/v2/profile?dot_number=${dot}`;
  figures.latency(
    'profile_first',
    'profile by DOT, first lookup',
    await timeAll(app, first.map(profilePath)),
    LATENCY_TARGET,
  );
  // The 100 looked up last are still in the profile LRU (128 entries) with the curated carriers.
  const known = [...dataset.curatedDots, ...first.slice(-100)];
  figures.latency(
    'profile_repeat',
    'profile by DOT, repeat lookup',
    await timeAll(
      app,
      cycle(queries, (i) => profilePath(known[i % known.length] ?? '')),
    ),
    LATENCY_TARGET,
  );
  figures.latency(
    'profile_lite_first',
    'profile-lite by DOT, first lookup',
    await timeAll(
      app,
      randomDots(queries, 2).map((dot) => `/v2/profile-lite?dot_number=${dot}`),
    ),
    LATENCY_TARGET,
  );
}

async function measureHeavy(app: SandboxApp, figures: Figures): Promise<void> {
  const heavy = app.sandbox.dataset.heavyDot;
  const path = `/v2/profile?dot_number=${heavy}`;
  figures.latency(
    `heavy_profile`,
    `heavy profile ${heavy}`,
    await timeAll(
      app,
      cycle(10, () => path),
    ),
    null,
  );
  const body = await app.inject({ url: path, headers: { authorization: `Bearer ${BENCH_KEY}` } });
  figures.single(
    'heavy_profile.body',
    'heavy profile body',
    Math.round(body.body.length / 1000),
    'kB',
    null,
  );
}

/** GET each path on one keep-alive connection (fetch's pool), checking for 200. */
async function getAll(base: string, paths: readonly string[]): Promise<void> {
  const headers = { authorization: `Bearer ${BENCH_KEY}` };
  for (const path of paths) {
    const response = await fetch(`${base}${path}`, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  }
}

async function measureInProcess(figures: Figures): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
  const started = performance.now();
  const app = await buildSandboxApp({ dataDir, apiKeys: [BENCH_KEY], population });
  try {
    figures.single(
      'startup',
      'start-up',
      Math.round(performance.now() - started),
      'ms',
      STARTUP_TARGET,
    );
    await measureLookups(app, figures);
    await measureHeavy(app, figures);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measureServerProcess(figures: Figures): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-bench-process-'));
  const started = performance.now();
  const sandbox = await startSandbox(dataDir, population);
  try {
    console.log('\nThe sandbox as a server process (real HTTP on 127.0.0.1):');
    figures.single(
      'process.startup',
      'start-up to listening',
      Math.round(performance.now() - started),
      'ms',
      STARTUP_TARGET,
    );
    const rss = (id: string, label: string) =>
      figures.single(id, label, megabytes(rssMiB(sandbox.pid)), 'MB', RSS_TARGET);
    rss('rss.startup', 'RSS after start-up');
    await getAll(
      sandbox.url,
      randomDots(profiles, 3).map((dot) => `/v2/profile?dot_number=${dot}`),
    );
    rss('rss.served', `RSS after ${profiles} random profiles`);
    const heavy = `/v2/profile?dot_number=${HEAVY_DOT}`;
    await getAll(
      sandbox.url,
      cycle(10, () => heavy),
    );
    rss('rss.end', 'RSS after the heavy profile 10×');
    figures.single('rss.peak', 'RSS peak', megabytes(peakRssMiB(sandbox.pid)), 'MB', RSS_TARGET);
  } finally {
    await sandbox.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`population ${population.toLocaleString('en-US')}; MB = 10^6 bytes`);
  const figures = new Figures();
  await measureInProcess(figures);
  await measureServerProcess(figures);
  const file = writeResultsFile({
    bench: 'sandbox',
    settings: { population, queries, profiles },
    metrics: figures.metrics,
  });
  console.log(`results: ${file}`);
}

await main();
