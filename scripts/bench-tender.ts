/**
 * Tender checks at the proxy (issue 33, "Numbers"): `POST /api/local/tender-checks` timed over
 * 127.0.0.1 against a proxy with its embedded sandbox (in this process). A cold check fetches the
 * carrier's profile and runs one phone search and one e-mail search through the sandbox
 * (BENCH_RUNS carriers, each checked once, so every call is a cache miss); a held check repeats
 * each of them with `max_cost_usd: 0`, every search answered from the proxy's cache (no billed
 * call). Medians against the targets (held ≤ 150 ms, cold ≤ 1.5 s). Printed, and written to
 * bench/results/tender-<date>.json.
 *
 *   npx tsx scripts/bench-tender.ts
 *   BENCH_RUNS=5 BENCH_POPULATION=2000 npx tsx scripts/bench-tender.ts
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
import { emailSearchValue } from '../server-proxy/src/tender/gather.ts';
import { tenderCheckAnswerSchema } from '../src/lib/tender/contract.ts';
import { metric, summarise, writeResultsFile } from './bench-results.ts';
import { setting } from './bench-servers.ts';

const RUNS = setting('BENCH_RUNS', 15, 1000);
const POPULATION = setting('BENCH_POPULATION', 20_000, 1_000_000);
const HELD_TARGET_MS = 150;
const COLD_TARGET_MS = 1500;
const SEED = 1;

async function main() {
  const dataDir = makeTempDir();
  const config = embeddedSandboxConfig({ dataDir, logLevel: 'silent' });
  const app = await buildProxyApp(config, { sandbox: { population: POPULATION, seed: SEED } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const check = async (body: unknown) => {
    const t0 = performance.now();
    const response = await fetch(`${base}/api/local/tender-checks`, {
      method: 'POST',
      headers: { ...CSRF, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as unknown;
    const ms = performance.now() - t0;
    if (response.status !== 201)
      throw new Error(`tender check: ${response.status} ${JSON.stringify(json)}`);
    return { ms, answer: tenderCheckAnswerSchema.parse(json) };
  };
  try {
    // carriers of the population with a phone and an e-mail, each checked once
    const dataset = createDataset({ seed: SEED, population: POPULATION });
    const bodies: Record<string, unknown>[] = [];
    // each phone and e-mail search once, so no cold check finds another's answer held
    const searched = new Set<string>();
    for (let row = 0; bodies.length < RUNS && row < POPULATION; row += 1) {
      const dot = dotOfRow(row);
      const profile = dataset.getProfile(dot) as Record<string, unknown> | undefined;
      const phone = profile?.telephone_number;
      const email = profile?.email_address;
      if (typeof phone !== 'string' || typeof email !== 'string') continue;
      const keys = [`phone:${phone}`, `email:${emailSearchValue(email.toLowerCase())}`];
      if (keys.some((key) => searched.has(key))) continue;
      for (const key of keys) searched.add(key);
      bodies.push({
        dot_number: dot,
        phone,
        email,
        load: { cargo_value: 50_000, cargo_classes: ['general_freight'], equipment: 'dry_van' },
        max_cost_usd: 20,
      });
    }
    if (bodies.length < RUNS)
      throw new Error(`only ${bodies.length} carriers with a phone and e-mail`);
    // one warm-up on a carrier not timed (module loading, first SQLite statements)
    await check({ dot_number: '568253', phone: '5626027220', max_cost_usd: 20 });

    const cold: number[] = [];
    for (const body of bodies) {
      const { ms, answer } = await check(body);
      const ran = answer.identity.searches.map((s) => s.status);
      if (answer.pending.length > 0 || ran.some((s) => s === 'held')) {
        throw new Error(`a cold check was not cold: ${JSON.stringify(ran)}`);
      }
      cold.push(ms);
    }
    const held: number[] = [];
    for (const body of bodies) {
      const { ms, answer } = await check({ ...body, max_cost_usd: 0 });
      const ran = answer.identity.searches.map((s) => s.status);
      if (answer.cost_usd !== 0 || ran.some((s) => s !== 'held')) {
        throw new Error(
          `a held check was not held: ${JSON.stringify(ran)}, ${answer.cost_usd} USD`,
        );
      }
      held.push(ms);
    }
    const coldSpread = summarise(cold);
    const heldSpread = summarise(held);
    console.log(
      `tender check, cold (profile + phone search + e-mail search through the sandbox), ${RUNS} carriers: median ${coldSpread.median} ms, p95 ${coldSpread.p95} ms (target ≤ ${COLD_TARGET_MS} ms)`,
    );
    console.log(
      `tender check, held (every search in the proxy's cache, nothing billed), ${RUNS} carriers: median ${heldSpread.median} ms, p95 ${heldSpread.p95} ms (target ≤ ${HELD_TARGET_MS} ms)`,
    );
    const file = writeResultsFile({
      bench: 'tender',
      settings: { runs: RUNS, population: POPULATION },
      metrics: [
        metric({
          metric: 'tender.held.p50',
          label: `tender check, all searches held (median of ${RUNS})`,
          value: heldSpread.median,
          unit: 'ms',
          target: { op: '<=', value: HELD_TARGET_MS },
        }),
        metric({
          metric: 'tender.cold.p50',
          label: `tender check, cold: profile + phone + e-mail search (median of ${RUNS})`,
          value: coldSpread.median,
          unit: 'ms',
          target: { op: '<=', value: COLD_TARGET_MS },
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
