/**
 * Lighthouse (desktop preset) on the search page and a profile page of the production build, served
 * by the real proxy in front of a sandbox (both in this process on 127.0.0.1, as in
 * scripts/bench-browser.ts), in headless Chromium (started here with a DevTools port, as chrome-launcher
 * would, without depending on it). Each page is audited
 * BENCH_LH_RUNS times; the median score of each category is printed with its range and target, and
 * for a category under its target, the audits that failed. Results go to
 * bench/results/lighthouse-<date>.json (shape: ./bench-results.ts).
 *
 *   npm run bench:lighthouse
 *   BENCH_POPULATION=20000 BENCH_LH_RUNS=1 npm run bench:lighthouse
 *
 * BENCH_POPULATION (100000), BENCH_LH_RUNS (3), BENCH_DIST (build here instead of a temp dir; an
 * existing build is reused), CHROMIUM_PATH (/usr/bin/chromium).
 *
 * The app is audited on http://127.0.0.1, which Chromium treats as a secure origin (like https), so
 * the best-practices audits about HTTPS judge it as they would a deployment behind TLS.
 */
import lighthouse, { desktopConfig } from 'lighthouse';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import {
  CATEGORIES,
  CATEGORY_TARGETS,
  categoryScore,
  failingAudits,
  mergeFailures,
  scoreEntries,
  type AuditFailures,
  type Category,
  type FailingAudit,
  type LhrLike,
} from './bench-lighthouse-scores.ts';
import { writeResultsFile, type MetricEntry } from './bench-results.ts';
import { chromiumPath, setting, startBenchSite } from './bench-servers.ts';

const POPULATION = setting('BENCH_POPULATION', 100_000, 5_000_000);
const RUNS = setting('BENCH_LH_RUNS', 3, 20);

/** DOT 568253 is the service's own example carrier (curated in the sandbox). */
const PAGES = [
  { name: 'search', path: '/' },
  { name: 'profile', path: '/carriers/568253/overview' },
] as const;

interface Chromium {
  process: ChildProcess;
  port: number;
}

const DEVTOOLS_LINE = /DevTools listening on ws:\/\/[^:]+:(\d+)\//;

/** Headless Chromium on an OS-chosen DevTools port (read from the line it prints on stderr). */
function startChromium(profileDir: string): Promise<Chromium> {
  const child = spawn(
    chromiumPath(),
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-background-networking',
      '--remote-debugging-port=0',
      `--user-data-dir=${profileDir}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const port = DEVTOOLS_LINE.exec(output)?.[1];
      if (port === undefined) return;
      child.stderr?.off('data', onData);
      child.stderr?.resume();
      resolve({ process: child, port: Number(port) });
    };
    child.stderr?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(
        new Error(`Chromium exited (${code}) before its DevTools port: ${output.slice(-500)}`),
      ),
    );
  });
}

async function stopChromium(chrome: Chromium | undefined): Promise<void> {
  if (!chrome || chrome.process.exitCode !== null) return;
  const exited = new Promise((resolve) => chrome.process.once('exit', resolve));
  chrome.process.kill();
  await exited;
}

/** Attempts per run: a busy machine sometimes spoils the trace (NO_NAVSTART, "run again"). */
const ATTEMPTS = 3;

async function auditOnce(url: string, port: number): Promise<LhrLike> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] },
    desktopConfig,
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { runtimeError } = result.lhr;
  if (runtimeError)
    throw new Error(`Lighthouse on ${url}: ${runtimeError.code} ${runtimeError.message}`);
  return result.lhr;
}

async function audit(url: string, port: number): Promise<LhrLike> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await auditOnce(url, port);
    } catch (error) {
      if (attempt >= ATTEMPTS) throw error;
      console.warn(`attempt ${attempt} failed, running again: ${String(error)}`);
    }
  }
}

interface PageResult {
  name: string;
  path: string;
  metrics: MetricEntry[];
  failures: Partial<Record<Category, AuditFailures[]>>;
}

async function auditPage(
  page: (typeof PAGES)[number],
  base: string,
  port: number,
): Promise<PageResult> {
  const scores: Record<Category, number[]> = {
    performance: [],
    accessibility: [],
    'best-practices': [],
    seo: [],
  };
  const failures: Record<Category, FailingAudit[][]> = {
    performance: [],
    accessibility: [],
    'best-practices': [],
    seo: [],
  };
  for (let run = 0; run < RUNS; run += 1) {
    const lhr = await audit(`${base}${page.path}`, port);
    for (const category of CATEGORIES) {
      const score = categoryScore(lhr, category);
      if (score !== null) scores[category].push(score);
      failures[category].push(failingAudits(lhr, category));
    }
  }
  const metrics = scoreEntries(page.name, scores);
  // Failing audits of every category short of 100, those without a target (SEO) for information.
  const below: PageResult['failures'] = {};
  for (const [index, category] of CATEGORIES.entries()) {
    const median = metrics[index]?.value;
    if (median !== null && median !== undefined && median < 100) {
      below[category] = mergeFailures(failures[category]);
    }
  }
  return { name: page.name, path: page.path, metrics, failures: below };
}

const TARGET_TEXT = { '<=': '≤', '>=': '≥', '=': '=' } as const;

function printPage(result: PageResult): void {
  console.log(`\n${result.name} page ${result.path}, ${RUNS} run(s), desktop preset`);
  console.table(
    result.metrics.map((entry) => ({
      category: entry.metric.split('.').at(-1),
      median: entry.value,
      'min–max': entry.spread ? `${entry.spread.min}–${entry.spread.max}` : '',
      target: entry.target ? `${TARGET_TEXT[entry.target.op]} ${entry.target.value}` : '—',
      verdict: entry.met === null ? '' : entry.met ? 'met' : 'MISSED',
    })),
  );
  for (const [category, audits] of Object.entries(result.failures)) {
    const target = CATEGORY_TARGETS[category as Category] ? '' : ' (no target)';
    console.log(`${category} under 100${target} on ${result.path}; failing audits (worst run):`);
    for (const failure of audits) {
      const value = [failure.displayValue, failure.detail]
        .filter((text) => text !== null)
        .map((text) => ` — ${text}`)
        .join('');
      console.log(
        `  ${failure.id}: ${failure.title}${value} (score ${failure.score}, failed in ${failure.runs}/${RUNS})`,
      );
    }
  }
}

async function main(): Promise<void> {
  const site = await startBenchSite('bench-lighthouse', POPULATION);
  const { servers } = site;
  let chrome: Chromium | undefined;
  try {
    chrome = await startChromium(join(site.work, 'chromium'));
    const pages: PageResult[] = [];
    const failed: string[] = [];
    for (const page of PAGES) {
      try {
        const result = await auditPage(page, servers.base, chrome.port);
        printPage(result);
        pages.push(result);
      } catch (error) {
        console.error(`${page.name} page failed:`, error);
        failed.push(page.name);
      }
    }
    const file = writeResultsFile({
      bench: 'lighthouse',
      settings: { population: POPULATION, runs: RUNS, preset: 'desktop' },
      metrics: pages.flatMap((page) => page.metrics),
      details: {
        pages: pages.map(({ name, path, failures }) => ({ name, path, failures })),
        failed,
      },
    });
    console.log(`\nresults written to ${file}`);
    if (failed.length > 0) process.exitCode = 1;
  } finally {
    await stopChromium(chrome);
    await site.close();
  }
}

await main();
