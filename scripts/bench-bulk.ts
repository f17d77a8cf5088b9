/**
 * Bulk vetting through the proxy (issue 14): a job of BENCH_BULK_CARRIERS (1,000) carriers of the
 * sandbox's generated population, rate limits off, from the POST that creates it to the job's
 * `done`, polled every 50 ms. A sandbox process and a proxy process, as in
 * production (scripts/bench-processes.ts); every carrier is a new profile call through the mirror
 * (validation, budget reservation, upstream call, verdict, one committed row per carrier).
 * Target: ≥ 50 carriers a second. Writes bench/results/bulk-<date>.json.
 *
 *   npx tsx scripts/bench-bulk.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProxy, startSandbox, type Service } from './bench-processes.ts';
import { metric, writeResultsFile } from './bench-results.ts';
import { API_HEADERS, setting } from './bench-servers.ts';

const CARRIERS = setting('BENCH_BULK_CARRIERS', 1000, 5000);
const TARGET_PER_SECOND = 50;

interface JobAnswer {
  status: string;
  done: number;
  failed: number;
  total: number;
}

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

async function waitDone(proxy: string, id: string): Promise<JobAnswer> {
  for (;;) {
    const answer = await fetch(`${proxy}/api/local/bulk-jobs/${id}?limit=1`);
    const job = (await answer.json()) as JobAnswer;
    if (!['queued', 'running'].includes(job.status)) return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bulk-'));
  const services: Service[] = [];
  try {
    const sandbox = await startSandbox(join(dir, 'sandbox'), Math.max(5000, CARRIERS));
    services.push(sandbox);
    const proxy = await startProxy(join(dir, 'proxy'), sandbox.url, {
      UPSTREAM_RATE_LIMITS: 'off',
    });
    services.push(proxy);
    // Warm-up: a short job of other carriers (JIT, prepared statements, connections).
    const warm = Array.from({ length: 20 }, (_, i) => String(5_000_000 + CARRIERS + i));
    await waitDone(proxy.url, await postJob(proxy.url, warm));

    const dots = Array.from({ length: CARRIERS }, (_, i) => String(5_000_000 + i));
    const started = performance.now();
    const id = await postJob(proxy.url, dots);
    const job = await waitDone(proxy.url, id);
    const seconds = (performance.now() - started) / 1000;
    if (job.status !== 'done' || job.done !== CARRIERS) {
      throw new Error(
        `the job ended ${job.status} with ${job.done} of ${CARRIERS} done (${job.failed} failed)`,
      );
    }
    const perSecond = Math.round((CARRIERS / seconds) * 10) / 10;
    console.log(
      `bulk: ${CARRIERS} carriers in ${seconds.toFixed(2)} s = ${perSecond} carriers/s (target ≥ ${TARGET_PER_SECOND})`,
    );
    const file = writeResultsFile({
      bench: 'bulk',
      settings: { carriers: CARRIERS, rateLimits: 'off', upstream: 'sandbox process' },
      metrics: [
        metric({
          metric: 'bulk.carriers_per_second',
          label: `job of ${CARRIERS.toLocaleString('en-US')} sandbox carriers, rate limits off`,
          value: perSecond,
          unit: 'carriers/s',
          target: { op: '>=', value: TARGET_PER_SECOND },
        }),
      ],
      details: { seconds: Math.round(seconds * 100) / 100 },
    });
    console.log(`wrote ${file}`);
    if (perSecond < TARGET_PER_SECOND) process.exitCode = 1;
  } finally {
    for (const service of services.reverse()) await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
