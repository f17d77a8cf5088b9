/**
 * Bulk job memory (issue 31 item 7): the proxy PROCESS's resident set while a job of
 * BENCH_BULK_MEMORY_CARRIERS (5,000) sandbox carriers runs. The sandbox runs as its own process
 * (its memory is printed apart, never counted as the proxy's); the proxy is a child process of this
 * script on a fresh DATA_DIR with a test key and rate limits off. While the job runs the script reads
 * it as the job's page does: `GET /api/local/bulk-jobs/:id?limit=5000` every 2 s (the page's poll),
 * plus a one-item read every 100 ms to see the end at once.
 *
 * RSS is read from /proc/<pid>/status every 100 ms (VmRSS; the peak is the kernel's VmHWM, which
 * also catches spikes between samples). Start: after start-up, a warm-up job of 20 carriers and
 * BENCH_BULK_MEMORY_SETTLE_S (45) seconds idle. End: after the job, a last full read (the page's last
 * poll) and the same idle time. Targets: peak ≤ 400 MB, end − start ≤ 50 MB. Writes
 * bench/results/bulk-memory-<date>.json.
 *
 *   npx tsx scripts/bench-bulk-memory.ts                  # alone (about 3 minutes on 2 busy cores)
 *   BENCH_STEPS=bulk-memory npm run bench                 # the same, with the summary table
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peakRssMiB, rssMiB, startProxy, startSandbox, type Service } from './bench-processes.ts';
import { metric, writeResultsFile } from './bench-results.ts';
import { API_HEADERS, setting } from './bench-servers.ts';

const CARRIERS = setting('BENCH_BULK_MEMORY_CARRIERS', 5000, 5000);
const SETTLE_SECONDS = setting('BENCH_BULK_MEMORY_SETTLE_S', 45, 600);
const PEAK_TARGET_MB = 400;
const RETURN_TARGET_MB = 50;
/** The page's poll of a running job (src/lib/freshness: bulkJobPoll) and its page size. */
const PAGE_POLL_MS = 2000;
const PAGE_LIMIT = 5000;
const SAMPLE_MS = 100;
/** DOTs of the sandbox population, from its first generated one. */
const FIRST_DOT = 5_000_000;

interface JobAnswer {
  status: string;
  done: number;
  failed: number;
  total: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** MiB → MB (10^6 bytes, the unit the summary uses), to 0.1. */
const mb = (mib: number) => Math.round(((mib * 1024 * 1024) / 1e6) * 10) / 10;

async function postJob(proxy: string, identifiers: string[]): Promise<string> {
  const answer = await fetch(`${proxy}/api/local/bulk-jobs`, {
    method: 'POST',
    headers: { ...API_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ identifiers }),
  });
  if (answer.status !== 202)
    throw new Error(`POST bulk-jobs: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { id: string }).id;
}

async function readJob(proxy: string, id: string, limit: number): Promise<JobAnswer> {
  const answer = await fetch(`${proxy}/api/local/bulk-jobs/${id}?limit=${limit}`);
  if (!answer.ok) throw new Error(`GET bulk-jobs/${id}: ${answer.status}`);
  return (await answer.json()) as JobAnswer;
}

/** Until the job ends: the page's full read every 2 s, and a one-item read every 100 ms. */
async function followLikeThePage(proxy: string, id: string): Promise<JobAnswer> {
  let lastPageRead = 0;
  for (;;) {
    const now = Date.now();
    const full = now - lastPageRead >= PAGE_POLL_MS;
    if (full) lastPageRead = now;
    const job = await readJob(proxy, id, full ? PAGE_LIMIT : 1);
    if (!['queued', 'running'].includes(job.status)) return job;
    await sleep(100);
  }
}

class RssSampler {
  readonly samples: { at: number; mib: number }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly pid: number | undefined) {}

  now(): number {
    const mib = rssMiB(this.pid);
    if (mib === undefined) throw new Error('no /proc/<pid>/status: this benchmark needs Linux');
    this.samples.push({ at: Date.now(), mib });
    return mib;
  }

  start(): void {
    this.timer = setInterval(() => this.now(), SAMPLE_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  maxSince(at: number): number {
    return Math.max(...this.samples.filter((s) => s.at >= at).map((s) => s.mib));
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bulk-memory-'));
  const services: Service[] = [];
  try {
    const sandbox = await startSandbox(join(dir, 'sandbox'), CARRIERS + 100);
    services.push(sandbox);
    const proxy = await startProxy(join(dir, 'proxy'), sandbox.url, {
      UPSTREAM_RATE_LIMITS: 'off',
    });
    services.push(proxy);
    const proxyRss = new RssSampler(proxy.pid);
    proxyRss.start();

    // Warm-up: code paths, prepared statements, connections; then idle.
    const warm = Array.from({ length: 20 }, (_, i) => String(FIRST_DOT + CARRIERS + i));
    await followLikeThePage(proxy.url, await postJob(proxy.url, warm));
    await sleep(SETTLE_SECONDS * 1000);
    const start = proxyRss.now();
    const sandboxStart = rssMiB(sandbox.pid) ?? NaN;

    const dots = Array.from({ length: CARRIERS }, (_, i) => String(FIRST_DOT + i));
    const began = performance.now();
    const jobStarted = Date.now();
    const id = await postJob(proxy.url, dots);
    const job = await followLikeThePage(proxy.url, id);
    const seconds = (performance.now() - began) / 1000;
    if (job.status !== 'done' || job.done + job.failed !== CARRIERS) {
      throw new Error(`the job ended ${job.status}: ${job.done} done, ${job.failed} failed`);
    }
    const atDone = proxyRss.now();
    // the page's last read once the job is done (it then stops polling)
    await readJob(proxy.url, id, PAGE_LIMIT);
    await sleep(SETTLE_SECONDS * 1000);
    const end = proxyRss.now();
    proxyRss.stop();
    const peakSampled = proxyRss.maxSince(jobStarted);
    // VmHWM is the high-water mark since the process started, so it covers spikes between samples
    const peak = Math.max(peakSampled, peakRssMiB(proxy.pid) ?? 0);
    const sandboxEnd = rssMiB(sandbox.pid) ?? NaN;
    const grew = end - start;

    console.log(
      `bulk memory: ${CARRIERS} carriers in ${seconds.toFixed(1)} s (${job.done} done, ${job.failed} failed)`,
    );
    console.log(
      `  proxy RSS: start ${mb(start)} MB, peak ${mb(peak)} MB (target ≤ ${PEAK_TARGET_MB}), at done ${mb(atDone)} MB, ` +
        `end ${mb(end)} MB after ${SETTLE_SECONDS} s idle: ${grew >= 0 ? '+' : ''}${mb(grew)} MB (target ≤ ${RETURN_TARGET_MB})`,
    );
    console.log(
      `  sandbox RSS (its own process, not counted): ${mb(sandboxStart)} → ${mb(sandboxEnd)} MB`,
    );
    const file = writeResultsFile({
      bench: 'bulk-memory',
      settings: {
        carriers: CARRIERS,
        settleSeconds: SETTLE_SECONDS,
        pagePollMs: PAGE_POLL_MS,
        pageLimit: PAGE_LIMIT,
        rateLimits: 'off',
        upstream: 'sandbox process',
      },
      metrics: [
        metric({
          metric: 'bulk_memory.proxy_peak_rss',
          label: `proxy RSS peak during a job of ${CARRIERS.toLocaleString('en-US')} carriers`,
          value: mb(peak),
          unit: 'MB',
          target: { op: '<=', value: PEAK_TARGET_MB },
        }),
        metric({
          metric: 'bulk_memory.proxy_rss_kept',
          label: `proxy RSS after the job and ${SETTLE_SECONDS} s idle − before it`,
          value: mb(grew),
          unit: 'MB',
          target: { op: '<=', value: RETURN_TARGET_MB },
        }),
      ],
      details: {
        seconds: Math.round(seconds * 10) / 10,
        proxy: { startMB: mb(start), peakMB: mb(peak), atDoneMB: mb(atDone), endMB: mb(end) },
        sandbox: { startMB: mb(sandboxStart), endMB: mb(sandboxEnd) },
        samples: proxyRss.samples
          .filter((_, i) => i % 10 === 0)
          .map((s) => ({ t: s.at - jobStarted, mb: mb(s.mib) })),
      },
    });
    console.log(`wrote ${file}`);
    if (mb(peak) > PEAK_TARGET_MB || mb(grew) > RETURN_TARGET_MB) process.exitCode = 1;
  } finally {
    for (const service of services.reverse()) await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
