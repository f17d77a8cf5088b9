/**
 * Autocomplete round trip through the real proxy, as the omnibox makes it: a sandbox of 100,000
 * carriers embedded in the proxy (both app factories in-process, listening on 127.0.0.1), real
 * carrier names typed one keystroke at a time (every prefix from 2 characters), each prefix a
 * `GET /api/v2/autocomplete?q=...&limit=15` over a keep-alive connection. Cold = first time the
 * proxy sees the prefix (forwarded to the sandbox), warm = the same prefixes again (proxy cache).
 * Prints p50/p95/max and the omnibox's debounce; "last keystroke → request answered" is debounce +
 * round trip. Rendering time in the browser is not measured here.
 *
 *   npx tsx scripts/bench-autocomplete.ts
 *   BENCH_POPULATION=20000 BENCH_NAMES=10 npx tsx scripts/bench-autocomplete.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProxyApp } from '../server-proxy/src/app.ts';
import { loadConfig } from '../server-proxy/src/config.ts';
import {
  AUTOCOMPLETE_DEBOUNCE_MS,
  AUTOCOMPLETE_LIMIT,
  autocompleteTerm,
} from '../src/features/search/api/get-autocomplete.ts';
import { metric, summarise, writeResultsFile, type Summary } from './bench-results.ts';
import { API_HEADERS } from './bench-servers.ts';

const POPULATION = Number(process.env.BENCH_POPULATION ?? 100_000);
const NAMES = Number(process.env.BENCH_NAMES ?? 40);
const MAX_PREFIX = 14;
const FIRST_POPULATION_DOT = 5_000_000;
const TARGET_MS = 100;

const ms = (value: number) => `${value.toFixed(1)} ms`;

function report(label: string, durations: number[]): Summary {
  const summary = summarise(durations);
  console.log(
    `${label.padEnd(30)} n=${String(summary.n).padStart(4)}  p50 ${ms(summary.median)}  p95 ${ms(summary.p95)}  max ${ms(summary.max)}`,
  );
  return summary;
}

function roundTripMetric(kind: 'cold' | 'warm', summary: Summary) {
  return metric({
    metric: `autocomplete.${kind}.p95`,
    label: `autocomplete round trip through the proxy, ${kind === 'cold' ? 'cache miss' : 'cache hit'}, p95`,
    value: summary.p95,
    unit: 'ms',
    spread: { n: summary.n, min: summary.min, max: summary.max },
  });
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { headers: API_HEADERS });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return response.json() as Promise<unknown>;
}

/** Legal names of carriers spread over the population, read through the proxy's lite profile. */
async function sampleNames(base: string): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < NAMES; i += 1) {
    const dot = FIRST_POPULATION_DOT + Math.floor(((i + 0.5) * POPULATION) / NAMES);
    const body = (await getJson(`${base}/api/v2/profile-lite?dot_number=${dot}`)) as {
      items?: { legal_name?: string }[];
    };
    const name = body.items?.[0]?.legal_name;
    if (name) names.push(name);
  }
  return names;
}

/** Every prefix a user types on the way to the name, from 2 characters. */
function prefixes(name: string): string[] {
  const out: string[] = [];
  for (let length = 2; length <= Math.min(name.length, MAX_PREFIX); length += 1) {
    const term = autocompleteTerm(name.slice(0, length));
    if (term.length >= 2 && out.at(-1) !== term) out.push(term);
  }
  return out;
}

async function timeTyping(base: string, terms: readonly string[]): Promise<number[]> {
  const durations: number[] = [];
  for (const term of terms) {
    const url = `${base}/api/v2/autocomplete?q=${encodeURIComponent(term)}&limit=${AUTOCOMPLETE_LIMIT}`;
    const started = performance.now();
    await getJson(url);
    durations.push(performance.now() - started);
  }
  return durations;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-autocomplete-'));
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // One simulated user types far more than a person would in a minute: lift the per-user limit.
    USER_RATE_LIMIT_PER_MINUTE: '100000',
  });
  const startedAt = performance.now();
  const app = await buildProxyApp(config, { sandbox: { population: POPULATION } });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    console.log(
      `proxy + embedded sandbox (population ${POPULATION.toLocaleString('en-US')}) ready in ${ms(performance.now() - startedAt)}`,
    );
    const names = await sampleNames(base);
    const terms = names.flatMap(prefixes);
    console.log(
      `${names.length} names, ${terms.length} typed prefixes (2..${MAX_PREFIX} characters)`,
    );
    const cold = report('cold (proxy cache miss)', await timeTyping(base, terms));
    const warm = report('warm (proxy cache hit)', await timeTyping(base, terms));
    console.log(`omnibox debounce                ${ms(AUTOCOMPLETE_DEBOUNCE_MS)}`);
    for (const [label, summary] of [
      ['cold', cold],
      ['warm', warm],
    ] as const) {
      const total = AUTOCOMPLETE_DEBOUNCE_MS + summary.p95;
      const verdict = total <= TARGET_MS ? 'within' : 'over';
      console.log(
        `last keystroke → answer, ${label} p95 ≈ ${ms(total)} (debounce + round trip; ${verdict} the ${TARGET_MS} ms target, rendering not included)`,
      );
    }
    const file = writeResultsFile({
      bench: 'autocomplete',
      settings: { population: POPULATION, names: names.length, prefixes: terms.length },
      metrics: [roundTripMetric('cold', cold), roundTripMetric('warm', warm)],
      details: { debounceMs: AUTOCOMPLETE_DEBOUNCE_MS },
    });
    console.log(`results written to ${file}`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
