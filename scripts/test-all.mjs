#!/usr/bin/env node
// The one test command: lint, format, typecheck, knip, npm audit, unit (Vitest), build, bundle
// budget, key leak in the built assets, e2e (Playwright).
// Every step runs even when an earlier one failed (the last three need the build), so one run shows
// everything. The last line is the total over all suites: "N passed, N failed, N skipped". Gate
// steps count as one check each; test suites count their test cases. A gate that exits 77 (the
// automake convention) is skipped, not failed: npm audit does so when the registry does not answer.
// The summary at the end names every failed test (and, when a runner failed without a failed test,
// the errors it printed), so the tail of a CI log is enough to know what broke.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const RESULTS = 'test-results';
const bin = (name) => `node_modules/.bin/${name}`;
mkdirSync(RESULTS, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
/** Skipped tests with their reasons, printed before the totals (unit: scripts/vitest-skip-reporter.ts). */
const skippedTests = [];
const UNIT_SKIPS = `${RESULTS}/unit-skips.json`;
process.env.VITEST_SKIPS_FILE = UNIT_SKIPS;
rmSync(UNIT_SKIPS, { force: true });
const summary = [];

const failures = [];

const SKIPPED = 77;
/** Lines of a runner's own error report kept for the summary when no failed test explains its exit. */
const ERROR_LINES = 40;

/**
 * Runs a command; resolves with its status and, when asked, its output. Its output is shown as it
 * comes, or with `buffered` (commands run side by side) as one block once it has finished.
 */
function run(label, command, args, { keepOutput = false, buffered = false } = {}) {
  const header = `\n=== ${label}: ${[command, ...args].join(' ')}`;
  if (!buffered) console.log(header);
  const started = Date.now();
  return new Promise((resolve) => {
    const piped = keepOutput || buffered;
    const child = spawn(command, args, {
      stdio: piped ? ['inherit', 'pipe', 'pipe'] : 'inherit',
      env: process.env,
    });
    const chunks = [];
    if (piped) {
      child.stdout.on('data', (chunk) => {
        if (!buffered) process.stdout.write(chunk);
        chunks.push(chunk);
      });
      child.stderr.on('data', (chunk) => {
        if (!buffered) process.stderr.write(chunk);
        chunks.push(chunk);
      });
    }
    const done = (status) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (buffered) {
        console.log(header);
        process.stdout.write(Buffer.concat(chunks));
      }
      resolve({
        status,
        ok: status === 0,
        seconds,
        output: Buffer.concat(chunks).toString('utf8'),
      });
    };
    child.on('error', (error) => {
      console.error(`${label}: ${error.message}`);
      done(null);
    });
    child.on('close', (status) => done(status));
  });
}

/** The runner's error section (Vitest: "Unhandled Errors"), colour codes stripped, cut short. */
function errorSection(output) {
  // eslint-disable-next-line no-control-regex
  const lines = output.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  const start = lines.findIndex((line) => /Unhandled|Error:|FAIL /.test(line));
  if (start < 0) return lines.slice(-ERROR_LINES);
  return lines.slice(start, start + ERROR_LINES);
}

async function gate(label, command, args) {
  return record(label, await run(label, command, args, { keepOutput: true }));
}

/**
 * Gates side by side: each is one single-threaded process, so two share the two cores and the
 * pair takes about as long as the slower one. Summary lines keep the order given.
 */
async function gatesTogether(gates) {
  const results = await Promise.all(
    gates.map(([label, command, args]) => run(label, command, args, { buffered: true })),
  );
  return gates.map(([label], index) => record(label, results[index]));
}

function record(label, { status, ok, seconds, output = '' }) {
  const outcome = ok ? 'passed' : status === SKIPPED ? 'skipped' : 'failed';
  if (outcome === 'skipped') {
    // a skipped gate's reason is the last line it printed
    const reason = output.trim().split('\n').at(-1) || 'skipped';
    skippedTests.push(`${label}: ${reason}`);
  }
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

async function suite(label, command, args, resultFile, count, failedNames) {
  rmSync(resultFile, { force: true });
  const { ok, seconds, output } = await run(label, command, args, { keepOutput: true });
  const report = existsSync(resultFile) ? readJson(resultFile) : undefined;
  const counted = report ? count(report) : { passed: 0, failed: 0, skipped: 0 };
  const names = report ? failedNames(report) : [];
  for (const name of names) failures.push(`${label}: ${name}`);
  // A runner that failed without reporting a failed test (crash, config error, an unhandled error
  // between tests) still fails the suite; its own error report goes into the summary.
  if (!ok && counted.failed === 0) {
    counted.failed = 1;
    failures.push(`${label}: the runner failed without a failed test; its report:`);
    for (const line of errorSection(output)) failures.push(`    ${line}`);
  }
  totals.passed += counted.passed;
  totals.failed += counted.failed;
  totals.skipped += counted.skipped;
  summary.push(
    `${label.padEnd(10)} ${counted.passed} passed, ${counted.failed} failed, ${counted.skipped} skipped (${seconds}s)`,
  );
}

/** Vitest's JSON report: the failed tests by file, and files that failed before their tests ran. */
function vitestFailures(report) {
  const names = [];
  for (const file of report.testResults ?? []) {
    const where = String(file.name ?? '').replace(`${process.cwd()}/`, '');
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) names.push(`${where} › ${test.fullName ?? test.title}`);
    if (failed.length === 0 && file.status === 'failed') {
      names.push(`${where}: ${String(file.message ?? 'failed').split('\n')[0]}`);
    }
  }
  return names;
}

/** Playwright's JSON report: every spec whose outcome was unexpected, with its title path. */
function playwrightFailures(report) {
  const names = [];
  const walk = (suiteNode, path) => {
    const here = suiteNode.title ? [...path, suiteNode.title] : path;
    for (const spec of suiteNode.specs ?? []) {
      const unexpected = (spec.tests ?? []).some((test) => test.status === 'unexpected');
      if (unexpected) names.push(`${[...here, spec.title].join(' › ')} (line ${spec.line})`);
    }
    for (const child of suiteNode.suites ?? []) walk(child, here);
  };
  for (const top of report.suites ?? []) walk(top, []);
  return names;
}

/** Playwright's JSON report: every skipped test, with the reason its annotation gives. */
function playwrightSkips(report) {
  const lines = [];
  const walk = (suiteNode, path) => {
    const here = suiteNode.title ? [...path, suiteNode.title] : path;
    for (const spec of suiteNode.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'skipped') continue;
        const note = (test.annotations ?? []).find((a) => a.type === 'skip')?.description;
        lines.push(`e2e: ${[...here, spec.title].join(' › ')} — ${note ?? 'skipped'}`);
      }
    }
    for (const child of suiteNode.suites ?? []) walk(child, here);
  };
  for (const top of report?.suites ?? []) walk(top, []);
  return lines;
}

await gatesTogether([
  ['lint', bin('eslint'), ['.', '--max-warnings=0']],
  [
    'typecheck',
    'sh',
    ['-c', `${bin('tsc')} -p tsconfig.app.json && ${bin('tsc')} -p tsconfig.node.json`],
  ],
]);
await gatesTogether([
  ['format', bin('prettier'), ['--check', '.']],
  ['knip', bin('knip'), []],
]);
// Production dependencies, high and critical only; skipped (77) when the registry does not answer.
await gate('audit', bin('tsx'), ['scripts/audit-gate.ts']);
// Every JSON answer a contract route sends under Vitest is checked against its contract, and each
// checked (route, status) is recorded here for the "contracts" step (docs/api.md, "Contracts").
const CONTRACT_COVERAGE = `${process.cwd()}/${RESULTS}/contract-coverage`;
rmSync(CONTRACT_COVERAGE, { recursive: true, force: true });
process.env.CARRIER_DESK_CONTRACT_COVERAGE = CONTRACT_COVERAGE;
await suite(
  'unit',
  bin('vitest'),
  [
    'run',
    '--reporter=default',
    '--reporter=json',
    '--reporter=./scripts/vitest-skip-reporter.ts',
    `--outputFile.json=${RESULTS}/unit-results.json`,
  ],
  `${RESULTS}/unit-results.json`,
  (r) => ({
    passed: r.numPassedTests ?? 0,
    failed: (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0),
    skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
  }),
  vitestFailures,
);
// One more check, counted as one test: "contract: every route's responses validated" (a success
// of every /api route checked against its contract by some unit test, and no mismatch).
const contracts = await run(
  'contracts',
  bin('tsx'),
  ['scripts/contract-coverage.ts', CONTRACT_COVERAGE],
  {
    keepOutput: true,
  },
);
record('contracts', contracts);
if (!contracts.ok) {
  failures.push("contracts: contract: every route's responses validated");
  for (const line of contracts.output.trim().split('\n').slice(1))
    failures.push(`    ${line.trim()}`);
}
const built = await gate('build', bin('vite'), ['build']);
if (built) {
  // The search page's initial JS (entry + modulepreloads), gzip, against its 150 kB budget.
  await gate('bundle', 'node', ['scripts/bench-bundle.mjs', 'dist', '--check', '150']);
  // Every built file, source maps included, against the configured keys and key-shaped tokens.
  await gate('key leak', bin('tsx'), ['scripts/check-key-leak.ts', 'dist']);
  await suite(
    'e2e',
    bin('playwright'),
    ['test'],
    `${RESULTS}/e2e-results.json`,
    (r) => ({
      passed: (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0),
      failed: r.stats?.unexpected ?? 0,
      skipped: r.stats?.skipped ?? 0,
    }),
    playwrightFailures,
  );
} else {
  for (const label of ['bundle', 'key leak', 'e2e']) notRun(label, 'the build failed');
}

for (const test of readJson(UNIT_SKIPS) ?? [])
  skippedTests.push(`unit: ${test.name} — ${test.reason}`);
skippedTests.push(...playwrightSkips(readJson(`${RESULTS}/e2e-results.json`)));

console.log('\n=== Summary');
for (const line of summary) console.log(line);
if (failures.length > 0) {
  console.log('\n=== Failed');
  for (const line of failures) console.log(line);
  console.log('');
}
if (skippedTests.length > 0) {
  console.log('\n=== Skipped');
  for (const line of skippedTests) console.log(line);
  console.log('');
}
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed === 0 ? 0 : 1);
