#!/usr/bin/env node
/**
 * All benchmarks, one after another, each as a child process with its output passed through:
 * build + bundle sizes, sandbox, autocomplete round trip, proxy, browser. Every step runs even when
 * an earlier one failed; the last lines say which ran and how each ended. Exits 1 if any failed.
 *
 *   node scripts/bench.mjs
 *   BENCH_POPULATION=200000 node scripts/bench.mjs   # the sandbox step's population (default 1,000,000)
 *
 * The SPA is built once to BENCH_DIST (default /tmp/bench-dist, never dist/) and the browser step
 * reuses that build. Other BENCH_* settings reach the scripts unchanged.
 */
import { spawnSync } from 'node:child_process';

const DIST = process.env.BENCH_DIST ?? '/tmp/bench-dist';
const bin = (name) => `node_modules/.bin/${name}`;

const STEPS = [
  { label: 'build', command: bin('vite'), args: ['build', '--outDir', DIST, '--emptyOutDir'] },
  { label: 'bundle', command: process.execPath, args: ['scripts/bench-bundle.mjs', DIST] },
  {
    label: 'sandbox',
    command: bin('tsx'),
    args: ['scripts/bench-sandbox.ts'],
    env: { BENCH_POPULATION: process.env.BENCH_POPULATION ?? '1000000' },
  },
  { label: 'autocomplete', command: bin('tsx'), args: ['scripts/bench-autocomplete.ts'] },
  { label: 'proxy', command: bin('tsx'), args: ['scripts/bench-proxy.ts'] },
  {
    label: 'browser',
    command: bin('tsx'),
    args: ['scripts/bench-browser.ts'],
    // The browser step has its own population default (100,000) unless one was given here.
    env: { BENCH_DIST: DIST, BENCH_POPULATION: process.env.BENCH_POPULATION ?? '100000' },
  },
];

function run({ label, command, args, env = {} }) {
  console.log(`\n=== ${label}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  const how = ok ? 'ok' : `FAILED (${result.signal ?? `exit ${result.status}`})`;
  return { label, ok, line: `${label.padEnd(13)} ${how} (${seconds}s)` };
}

const results = [];
for (const step of STEPS) {
  // Without a build there is nothing to measure in the bundle and browser steps.
  if ((step.label === 'bundle' || step.label === 'browser') && results[0]?.ok === false) {
    results.push({
      label: step.label,
      ok: false,
      line: `${step.label.padEnd(13)} skipped (no build)`,
    });
    continue;
  }
  results.push(run(step));
}

console.log('\n=== benchmarks');
for (const { line } of results) console.log(line);
if (results.some((result) => !result.ok)) process.exitCode = 1;
