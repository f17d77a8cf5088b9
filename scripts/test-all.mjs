#!/usr/bin/env node
// The one test command: lint, format, typecheck, knip, npm audit, unit (Vitest), build, bundle
// budget, key leak in the built assets, e2e (Playwright).
// Every step runs even when an earlier one failed (the last three need the build), so one run shows
// everything. The last line is the total over all suites: "N passed, N failed[, N skipped]". Gate
// steps count as one check each; test suites count their test cases. A gate that exits 77 (the
// automake convention) is skipped, not failed: npm audit does so when the registry does not answer.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const RESULTS = 'test-results';
const bin = (name) => `node_modules/.bin/${name}`;
mkdirSync(RESULTS, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const summary = [];

const SKIPPED = 77;

function run(label, command, args) {
  console.log(`\n=== ${label}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { status: result.status, ok: result.status === 0, seconds };
}

function gate(label, command, args) {
  const { status, ok, seconds } = run(label, command, args);
  const outcome = ok ? 'passed' : status === SKIPPED ? 'skipped' : 'failed';
  totals[outcome] += 1;
  const word = { passed: 'ok', skipped: 'skipped', failed: 'FAILED' }[outcome];
  summary.push(`${label.padEnd(10)} ${word} (${seconds}s)`);
  return ok;
}

function notRun(label, reason) {
  totals.failed += 1;
  summary.push(`${label.padEnd(10)} not run: ${reason}`);
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

function suite(label, command, args, resultFile, count) {
  rmSync(resultFile, { force: true });
  const { ok, seconds } = run(label, command, args);
  const report = existsSync(resultFile) ? readJson(resultFile) : undefined;
  const counted = report ? count(report) : { passed: 0, failed: 0, skipped: 0 };
  // A runner that failed without reporting a failed test (crash, config error) still fails the suite.
  if (!ok && counted.failed === 0) counted.failed = 1;
  totals.passed += counted.passed;
  totals.failed += counted.failed;
  totals.skipped += counted.skipped;
  summary.push(
    `${label.padEnd(10)} ${counted.passed} passed, ${counted.failed} failed, ${counted.skipped} skipped (${seconds}s)`,
  );
}

gate('lint', bin('eslint'), ['.', '--max-warnings=0']);
gate('format', bin('prettier'), ['--check', '.']);
gate('typecheck', 'sh', [
  '-c',
  `${bin('tsc')} -p tsconfig.app.json && ${bin('tsc')} -p tsconfig.node.json`,
]);
gate('knip', bin('knip'), []);
// Production dependencies, high and critical only; skipped (77) when the registry does not answer.
gate('audit', bin('tsx'), ['scripts/audit-gate.ts']);
suite(
  'unit',
  bin('vitest'),
  [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${RESULTS}/unit-results.json`,
  ],
  `${RESULTS}/unit-results.json`,
  (r) => ({
    passed: r.numPassedTests ?? 0,
    failed: (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0),
    skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
  }),
);
const built = gate('build', bin('vite'), ['build']);
if (built) {
  // The search page's initial JS (entry + modulepreloads), gzip, against its 150 kB budget.
  gate('bundle', 'node', ['scripts/bench-bundle.mjs', 'dist', '--check', '150']);
  // Every built file, source maps included, against the configured keys and key-shaped tokens.
  gate('key leak', bin('tsx'), ['scripts/check-key-leak.ts', 'dist']);
  suite('e2e', bin('playwright'), ['test'], `${RESULTS}/e2e-results.json`, (r) => ({
    passed: (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0),
    failed: r.stats?.unexpected ?? 0,
    skipped: r.stats?.skipped ?? 0,
  }));
} else {
  for (const label of ['bundle', 'key leak', 'e2e']) notRun(label, 'the build failed');
}

console.log('\n=== Summary');
for (const line of summary) console.log(line);
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(totals.failed === 0 ? 0 : 1);
