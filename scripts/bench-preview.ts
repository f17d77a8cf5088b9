/**
 * Policy preview for many carriers with current decisions (issue 29: ≤ 1 s at the proxy for 2,000):
 * a proxy (in this process, over 127.0.0.1) holds the profiles of BENCH_PREVIEW_CARRIERS sandbox
 * carriers (put in its cache as the mirror keeps them, so nothing is fetched), a decision is
 * recorded on each through POST /api/local/decisions, then POST /api/local/policy/preview is timed
 * (BENCH_RUNS runs, p50 and max): from the held profiles, and again with the cache emptied (every
 * verdict from the decision records). Printed, and written to bench/results/preview-<date>.json.
 *
 *   npx tsx scripts/bench-preview.ts
 *   BENCH_PREVIEW_CARRIERS=500 BENCH_RUNS=3 npx tsx scripts/bench-preview.ts
 */
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { buildProxyApp } from '../server-proxy/src/app.ts';
import { createDataset } from '../server-proxy/src/sandbox/data/index.ts';
import { dotOfRow } from '../server-proxy/src/sandbox/data/population-identity.ts';
import {
  CSRF,
  embeddedSandboxConfig,
  makeTempDir,
} from '../server-proxy/src/helpers.test-support.ts';
import { requestKey, validateRequest } from '../server-proxy/src/validate.ts';
import { metric, percentile, writeResultsFile } from './bench-results.ts';
import { setting } from './bench-servers.ts';

const CARRIERS = setting('BENCH_PREVIEW_CARRIERS', 2000, 100_000);
const RUNS = setting('BENCH_RUNS', 5, 100);
const TARGET_MS = 1000;
const BODY = {
  rules: { shared_identifiers: { outcome: 'fail' }, basic_alerts: { enabled: false } },
};

async function main() {
  const dataDir = makeTempDir();
  const config = embeddedSandboxConfig({
    dataDir,
    logLevel: 'silent',
    cache: {
      profileTtlMs: 3_600_000,
      autocompleteTtlMs: 300_000,
      maxBytes: 2 * 1024 * 1024 * 1024,
    },
  });
  const app = await buildProxyApp(config, { sandbox: { population: 0 } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...CSRF, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as unknown };
  };
  try {
    const dataset = createDataset({ seed: 1, population: CARRIERS });
    const started = performance.now();
    for (let row = 0; row < CARRIERS; row += 1) {
      const dot = dotOfRow(row);
      const profile = dataset.getProfile(dot);
      if (!profile) throw new Error(`no sandbox carrier ${dot}`);
      app.proxy.cache.set(
        requestKey(validateRequest('profile', { dot_number: dot }, undefined)),
        {
          status: 200,
          body: JSON.stringify({ items: [profile], total_count: 1 }),
          headers: { 'content-type': 'application/json' },
          fetchedAt: new Date(),
          dots: [dot],
        },
        3_600_000,
      );
      const decision = row % 4 === 3 ? 'rejected' : 'approved';
      let recorded = await post('/api/local/decisions', { dot_number: dot, decision });
      if (recorded.status === 409) {
        recorded = await post('/api/local/decisions', {
          dot_number: dot,
          decision,
          override_reason: 'Benchmark: approved against the verdict',
        });
      }
      if (recorded.status !== 201) throw new Error(`decision on ${dot}: ${recorded.status}`);
    }
    console.log(
      `${CARRIERS} decisions recorded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const time = async (label: string) => {
      const ms: number[] = [];
      let last: unknown;
      for (let run = 0; run < RUNS; run += 1) {
        const t0 = performance.now();
        const answer = await post('/api/local/policy/preview', BODY);
        ms.push(performance.now() - t0);
        if (answer.status !== 200) throw new Error(`preview: ${answer.status}`);
        last = answer.json;
      }
      const sorted = [...ms].sort((a, b) => a - b);
      const p50 = percentile(sorted, 50);
      const preview = last as Record<'would_fail' | 'would_review' | 'would_pass', unknown[]> & {
        unchanged: number;
      };
      console.log(
        `policy preview, ${CARRIERS} current decisions, ${label}: p50 ${p50.toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms over ${RUNS} runs ` +
          `(would fail ${preview.would_fail.length}, review ${preview.would_review.length}, pass ${preview.would_pass.length}, unchanged ${preview.unchanged}; target ≤ ${TARGET_MS} ms)`,
      );
      return { p50, max: Math.max(...ms) };
    };
    const held = await time('from held profiles');
    app.proxy.cache.invalidateDots(Array.from({ length: CARRIERS }, (_, row) => dotOfRow(row)));
    const records = await time('from the decision records (cache emptied)');
    const file = writeResultsFile({
      bench: 'preview',
      settings: { carriers: CARRIERS, runs: RUNS },
      metrics: [
        metric({
          metric: 'preview.held.p50',
          label: `policy preview, ${CARRIERS} decisions, held profiles (p50)`,
          value: Math.round(held.p50),
          unit: 'ms',
          target: { op: '<=', value: TARGET_MS },
        }),
        metric({
          metric: 'preview.records.p50',
          label: `policy preview, ${CARRIERS} decisions, from records (p50)`,
          value: Math.round(records.p50),
          unit: 'ms',
          target: { op: '<=', value: TARGET_MS },
        }),
      ],
    });
    console.log(`results: ${file}`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
