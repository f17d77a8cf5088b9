#!/usr/bin/env node
/**
 * `npm run bench`: every benchmark of issue 6, one after another, each as a child process with its
 * output passed through — build, bundle sizes, sandbox at 1,000,000 carriers, autocomplete round
 * trip, proxy vs nginx, two proxy replicas on Redis vs one (issue 18), a bulk vetting job (issue
 * 14), the proxy's memory over a 5,000-carrier job (issue 31), a policy preview over 2,000 decisions (issue 29), tender checks held and cold (issue 33), browser (autocomplete, inbox, heavy profile), Lighthouse — then ONE table of every figure with its target, read from the JSON each
 * step wrote under bench/results/ (see scripts/bench-report.ts), also written to
 * bench/results/summary-<date>.json. Every step runs even when an earlier one failed (a failed
 * step's figures show as "no figures"); exits 1 if any failed.
 *
 *   npm run bench                      # full run (roughly 10–20 minutes on 2 cores)
 *   BENCH_QUICK=1 npm run bench        # smoke test: small populations, 1 run each (a few minutes)
 *   BENCH_STEPS=bundle,lighthouse npm run bench   # only these steps (build is added when needed)
 *
 * Settings are the scripts' own BENCH_* variables (docs/performance.md lists them); the defaults
 * below apply per step unless the variable is set. BENCH_POPULATION, when set, is every step's
 * population. The SPA is built once to BENCH_DIST (default /tmp/bench-dist, never dist/). The JSON
 * goes to BENCH_RESULTS_DIR (default bench/results): give a run its own folder when others may run
 * benchmarks at the same time, since each file is named after the benchmark and the day.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';

const QUICK = process.env.BENCH_QUICK === '1';
const DIST = process.env.BENCH_DIST ?? '/tmp/bench-dist';
// Every step writes its JSON here (scripts/bench-results.ts reads the same variable).
const RESULTS = process.env.BENCH_RESULTS_DIR || 'bench/results';
const today = () => new Date().toISOString().slice(0, 10);
const bin = (name) => `node_modules/.bin/${name}`;
const tsx = bin('tsx');

/** Each step's defaults: [full run, quick run]. */
const DEFAULTS = {
  sandbox: { BENCH_POPULATION: ['1000000', '20000'], BENCH_QUERIES: ['500', '100'] },
  autocomplete: { BENCH_POPULATION: ['100000', '20000'], BENCH_NAMES: ['40', '5'] },
  proxy: {
    BENCH_SECONDS: ['10', '2'],
    BENCH_LATENCY_REQUESTS: ['2000', '300'],
    BENCH_SOAK_SECONDS: ['30', '3'],
    BENCH_SOAK_CONNECTIONS: ['200', '50'],
  },
  browser: {
    BENCH_POPULATION: ['100000', '20000'],
    BENCH_WATCHED: ['10000', '1000'],
    BENCH_CHANGES: ['100000', '5000'],
    BENCH_QUERIES: ['60', '10'],
    BENCH_RUNS: ['5', '1'],
  },
  lighthouse: { BENCH_POPULATION: ['100000', '20000'], BENCH_LH_RUNS: ['3', '1'] },
  bulk: { BENCH_BULK_CARRIERS: ['1000', '200'] },
  'bulk-memory': { BENCH_BULK_MEMORY_CARRIERS: ['5000', '500'] },
  preview: { BENCH_PREVIEW_CARRIERS: ['2000', '500'], BENCH_RUNS: ['5', '1'] },
  tender: { BENCH_RUNS: ['15', '3'], BENCH_POPULATION: ['20000', '2000'] },
  replicas: {
    BENCH_SECONDS: ['10', '2'],
    BENCH_LATENCY_REQUESTS: ['2000', '300'],
    BENCH_ROUNDS: ['3', '1'],
  },
};

/** The step's defaults for this mode, each unless the variable is set in the environment. */
function stepEnv(label) {
  const env = { BENCH_DIST: DIST };
  for (const [name, [full, quick]] of Object.entries(DEFAULTS[label] ?? {})) {
    env[name] = process.env[name] || (QUICK ? quick : full);
  }
  return env;
}

const STEPS = [
  { label: 'build', command: bin('vite'), args: ['build', '--outDir', DIST, '--emptyOutDir'] },
  {
    label: 'bundle',
    command: process.execPath,
    args: ['scripts/bench-bundle.mjs', DIST, '--json', join(RESULTS, `bundle-${today()}.json`)],
    needsBuild: true,
  },
  { label: 'sandbox', command: tsx, args: ['scripts/bench-sandbox.ts'] },
  { label: 'autocomplete', command: tsx, args: ['scripts/bench-autocomplete.ts'] },
  { label: 'proxy', command: tsx, args: ['scripts/bench-proxy.ts'] },
  { label: 'replicas', command: tsx, args: ['scripts/bench-replicas.ts'] },
  { label: 'bulk', command: tsx, args: ['scripts/bench-bulk.ts'] },
  { label: 'bulk-memory', command: tsx, args: ['scripts/bench-bulk-memory.ts'] },
  { label: 'preview', command: tsx, args: ['scripts/bench-preview.ts'] },
  { label: 'tender', command: tsx, args: ['scripts/bench-tender.ts'] },
  { label: 'browser', command: tsx, args: ['scripts/bench-browser.ts'], needsBuild: true },
  { label: 'lighthouse', command: tsx, args: ['scripts/bench-lighthouse.ts'], needsBuild: true },
];

/** BENCH_STEPS=a,b: those steps (and the build when one of them needs it); all by default. */
function selectedSteps() {
  const wanted = process.env.BENCH_STEPS?.split(',').map((name) => name.trim());
  if (!wanted) return STEPS;
  const unknown = wanted.filter((name) => !STEPS.some((step) => step.label === name));
  if (unknown.length > 0) throw new Error(`BENCH_STEPS: unknown step(s) ${unknown.join(', ')}`);
  const needsBuild = STEPS.some((step) => step.needsBuild && wanted.includes(step.label));
  return STEPS.filter(
    (step) => wanted.includes(step.label) || (step.label === 'build' && needsBuild),
  );
}

function run({ label, command, args, echo = true }) {
  console.log(`\n=== ${label}${echo ? `: ${[command, ...args].join(' ')}` : ''}`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, ...stepEnv(label) },
  });
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  const how = result.status === 0 ? 'ok' : `FAILED (${result.signal ?? `exit ${result.status}`})`;
  return { label, ok: result.status === 0, how, seconds };
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

function main() {
  const since = Date.now();
  mkdirSync(RESULTS, { recursive: true });
  console.log(`bench: ${QUICK ? 'QUICK mode (smoke test, figures not comparable)' : 'full run'}`);
  console.log(`load average at the start: ${load()} (${availableParallelism()} cores)`);
  const results = [];
  for (const step of selectedSteps()) {
    const built = results.find((result) => result.label === 'build');
    if (step.needsBuild && built?.ok === false) {
      results.push({ label: step.label, ok: false, how: 'skipped (no build)', seconds: 0 });
      continue;
    }
    results.push(run(step));
  }
  console.log('\n=== steps');
  for (const { label, how, seconds } of results)
    console.log(`${label.padEnd(13)} ${how} (${seconds} s)`);
  const report = run({
    label: 'summary',
    command: tsx,
    args: [
      'scripts/bench-report.ts',
      '--since',
      String(since),
      '--mode',
      QUICK ? 'quick' : 'full',
      '--steps',
      JSON.stringify(results),
    ],
    echo: false,
  });
  if (!report.ok || results.some((result) => !result.ok)) process.exitCode = 1;
}

main();
