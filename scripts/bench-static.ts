/**
 * What loading the dashboard costs the proxy (printed, no assertions): a proxy process serves a
 * built SPA; each run is a fresh client (new connections, as a fresh browser context) fetching
 * index.html, then what it references (entry script, module preloads, stylesheets) six at a time,
 * with a browser's Accept-Encoding. A second pass fetches every asset (a walk over every route).
 * Prints the median and p90 wall time per run, the bytes on the wire and the proxy's CPU per run.
 *
 *   npx vite build --outDir test-results/dist-bench && \
 *     BENCH_STATIC_DIR=test-results/dist-bench npx tsx scripts/bench-static.ts
 *
 * BENCH_STATIC_DIR (dist): the built SPA; BENCH_RUNS (40): runs per pass, after one warm-up run.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { cpuSeconds, startProxy, type Service } from './bench-processes.ts';
import { percentile } from './bench-results.ts';
import { setting } from './bench-servers.ts';

const STATIC_DIR = resolve(process.env.BENCH_STATIC_DIR ?? 'dist');
const RUNS = setting('BENCH_RUNS', 40, 1000);
const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';
/** Chromium's connections per host over HTTP/1.1. */
const PARALLEL = 6;

interface Answer {
  status: number;
  encoding: string | undefined;
  body: Buffer;
}

function get(agent: Agent, url: string): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = request(url, { agent, headers: { 'accept-encoding': ACCEPT_ENCODING } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        done({
          status: res.statusCode ?? 0,
          encoding: res.headers['content-encoding'],
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

function decoded(answer: Answer): string {
  if (answer.encoding === 'br') return brotliDecompressSync(answer.body).toString('utf8');
  if (answer.encoding === 'gzip') return gunzipSync(answer.body).toString('utf8');
  return answer.body.toString('utf8');
}

/** The assets index.html loads before the app runs. */
function referencedAssets(html: string): string[] {
  const paths = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1] ?? '');
  return [...new Set(paths)];
}

/** One fresh client: index.html, then `paths` six at a time; bytes received. */
async function loadOnce(base: string, paths: readonly string[] | undefined): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: PARALLEL });
  try {
    const index = await get(agent, `${base}/`);
    if (index.status !== 200) throw new Error(`index.html: ${index.status}`);
    const queue = [...(paths ?? referencedAssets(decoded(index)))];
    let bytes = index.body.length;
    const worker = async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        const asset = await get(agent, `${base}${path}`);
        if (asset.status !== 200) throw new Error(`${path}: ${asset.status}`);
        bytes += asset.body.length;
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    return bytes;
  } finally {
    agent.destroy();
  }
}

async function pass(proxy: Service, name: string, paths: readonly string[] | undefined) {
  await loadOnce(proxy.url, paths); // warm-up: the server's first touch of each file
  const times: number[] = [];
  let bytes = 0;
  const cpuBefore = cpuSeconds(proxy.pid);
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    bytes = await loadOnce(proxy.url, paths);
    times.push(performance.now() - started);
  }
  const cpuAfter = cpuSeconds(proxy.pid);
  times.sort((a, b) => a - b);
  const cpuMs =
    cpuBefore === undefined || cpuAfter === undefined
      ? NaN
      : ((cpuAfter - cpuBefore) * 1000) / RUNS;
  return {
    pass: name,
    'p50 ms': Number(percentile(times, 50).toFixed(1)),
    'p90 ms': Number(percentile(times, 90).toFixed(1)),
    'kB on the wire': Math.round(bytes / 1024),
    'proxy CPU ms/run': Number(cpuMs.toFixed(1)),
  };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-static-'));
  const all = readdirSync(join(STATIC_DIR, 'assets'))
    .filter((file) => !file.endsWith('.map'))
    .map((file) => `/assets/${file}`);
  // No upstream is called: the base address only has to be well-formed.
  const proxy = await startProxy(dataDir, 'http://127.0.0.1:9', {
    STATIC_DIR,
    LOG_LEVEL: 'warn',
  });
  try {
    // let start-up work (e.g. compressing the assets) finish before measuring
    await new Promise((done) => setTimeout(done, 3000));
    const rows = [
      await pass(proxy, 'index + initial assets', undefined),
      await pass(proxy, `index + all ${all.length} assets`, all),
    ];
    console.log(`static assets, ${RUNS} runs per pass, ${STATIC_DIR}`);
    console.table(rows);
  } finally {
    await proxy.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
