/**
 * Sandbox performance figures: start-up time and memory with a large population, then server-side
 * latency of autocomplete and DOT lookups (through app.inject, so no network), and the serve time of
 * the heavy profile. Prints figures only.
 *
 *   npx tsx scripts/bench-sandbox.ts            # population 1,000,000
 *   BENCH_POPULATION=200000 BENCH_QUERIES=300 npx tsx scripts/bench-sandbox.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSandboxApp, type SandboxApp } from '../server-proxy/src/sandbox/app.ts';

const KEY = 'sk_test_bench';
const population = Number(process.env.BENCH_POPULATION ?? 1_000_000);
const queries = Number(process.env.BENCH_QUERIES ?? 500);

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const ms = (value: number) => `${value.toFixed(2)} ms`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Time each path through app.inject; returns sorted durations in ms. */
async function timeAll(app: SandboxApp, paths: string[]): Promise<number[]> {
  const durations: number[] = [];
  for (const url of paths) {
    const started = performance.now();
    const response = await app.inject({ url, headers: { authorization: `Bearer ${KEY}` } });
    durations.push(performance.now() - started);
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
  }
  return durations.sort((a, b) => a - b);
}

function report(label: string, sorted: number[]): void {
  console.log(
    `${label.padEnd(24)} n=${sorted.length}  p50 ${ms(percentile(sorted, 50))}  p95 ${ms(percentile(sorted, 95))}  max ${ms(sorted.at(-1) ?? NaN)}`,
  );
}

function sampleDots(app: SandboxApp, count: number): string[] {
  const { dataset } = app.sandbox;
  const names = ['tr', 'ex', 'lo', 'fr', 'ca', 'tra', 'exp', 'log', 'fre', 'car'];
  const seen = new Set<string>(dataset.curatedDots);
  for (const name of names) {
    for (const hit of dataset.autocomplete(name, 15)) seen.add(hit.dot);
  }
  return [...seen].slice(0, count);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
  const started = performance.now();
  const app = await buildSandboxApp({ dataDir, apiKeys: [KEY], population });
  const startup = performance.now() - started;
  try {
    console.log(
      `population ${population.toLocaleString('en-US')} (dataset size ${app.sandbox.dataset.size})`,
    );
    console.log(`start-up ${ms(startup)}  rss ${mib(process.memoryUsage().rss)}`);

    const prefixes = [
      'tr',
      'ex',
      'sa',
      'ha',
      'mo',
      'pr',
      'we',
      'no',
      'so',
      'ea',
      'hansen',
      '5682',
      '10',
      '20',
    ];
    const autocomplete = Array.from(
      { length: queries },
      (_, i) => `/v2/autocomplete?q=${prefixes[i % prefixes.length]}&limit=10`,
    );
    report('autocomplete', await timeAll(app, autocomplete));

    const dots = sampleDots(app, 100);
    const lookups = Array.from(
      { length: queries },
      (_, i) => `/v2/profile?dot_number=${dots[i % dots.length]}`,
    );
    report('profile by DOT', await timeAll(app, lookups));
    report(
      'profile-lite by DOT',
      await timeAll(
        app,
        lookups.map((p) => p.replace('/profile?', '/profile-lite?')),
      ),
    );

    const heavy = app.sandbox.dataset.heavyDot;
    const heavyRuns = await timeAll(
      app,
      Array.from({ length: 10 }, () => `/v2/profile?dot_number=${heavy}`),
    );
    const body = await app.inject({
      url: `/v2/profile?dot_number=${heavy}`,
      headers: { authorization: `Bearer ${KEY}` },
    });
    report(`heavy profile ${heavy}`, heavyRuns);
    console.log(`heavy profile body ${(body.body.length / 1024).toFixed(0)} KiB`);
    console.log(`rss after ${mib(process.memoryUsage().rss)}`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
