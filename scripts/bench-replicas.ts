/**
 * Two proxy replicas against one (issue 18), on the cached autocomplete path (`q=ha`), all on
 * 127.0.0.1: a sandbox process, a throwaway Redis (and PostgreSQL as DATABASE_URL of the Redis
 * replicas when installed, as the team deployment runs; BENCH_REPLICAS_POSTGRES=off leaves it
 * out), and proxy processes started as `bench-proxy.ts` starts them.
 *
 * 1. Throughput: BENCH_CONNECTIONS connections for BENCH_SECONDS against one replica with
 *    REDIS_URL, then the same connections split evenly over two replicas on the same Redis (a
 *    load balancer's job, done here by the load generator itself so that no balancer's CPU is
 *    counted). Target: two ≥ 1.6 × one. For reference, one and two replicas without REDIS_URL
 *    (each with its own cache): how far the machine itself lets a second process scale, apart from
 *    Redis. The load generator (autocannon, this process) and Redis share the machine's cores with
 *    the replicas; their CPU shares are printed and kept, since on a small machine they bound the
 *    ratio; so do PostgreSQL's and the Redis commands per request. Configurations alternate over
 *    BENCH_ROUNDS rounds (3), each run after PostgreSQL has written the previous one's backlog;
 *    medians are kept.
 * 2. Added latency of the Redis path: BENCH_LATENCY_REQUESTS sequential requests on one keep-alive
 *    connection to a single replica with REDIS_URL minus the same to one without. Target ≤ 1 ms.
 *
 *   npx tsx scripts/bench-replicas.ts
 *   BENCH_STEPS=replicas npm run bench
 *
 * Needs redis-server; without it the step prints why and writes its figures as not measured.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { Redis } from 'ioredis';
import { join } from 'node:path';
import { sharedSigningKeyFile } from '../server-proxy/src/helpers.test-support.ts';
import {
  startPostgres,
  startRedis,
  type TestService,
} from '../server-proxy/src/team/services.test-support.ts';
import {
  QUERY,
  cpuSeconds,
  load,
  startProxy,
  startSandbox,
  type LoadFigures,
  type Service,
  type Target,
} from './bench-processes.ts';
import { metric, percentile, writeResultsFile, type MetricEntry } from './bench-results.ts';
import { API_HEADERS, setting } from './bench-servers.ts';

const SECONDS = setting('BENCH_SECONDS', 10, 120);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 10, 1000);
const LATENCY_REQUESTS = setting('BENCH_LATENCY_REQUESTS', 2000, 100_000);
const ROUNDS = setting('BENCH_ROUNDS', 3, 20);
const WARMUP_SECONDS = 2;
const RATIO_TARGET = 1.6;
const ADDED_P50_TARGET_MS = 1;
const PATH = `/api/v2/autocomplete?${QUERY}`;

/** One throughput run: the load over `replicas`, split evenly. */
interface Run {
  id: string;
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** this process's CPU time over the run ÷ (wall time × cores), in % of the machine */
  generatorCpuPercent: number;
  /** the replicas' CPU time per request, µs */
  replicaCpuMicros: number | undefined;
  /** Redis commands (all clients) per request served */
  redisCommandsPerRequest: number;
  /** redis-server's CPU time over the run ÷ (wall time × cores), % of the machine (0 if unused) */
  redisCpuPercent: number | undefined;
  /** PostgreSQL's (postmaster and backends) likewise, undefined without DATABASE_URL */
  postgresCpuPercent: number | undefined;
}

const target = (service: Service): Target => ({
  name: service.name,
  url: `${service.url}${PATH}`,
  headers: { ...API_HEADERS },
});

/** Each replica answers the query from its cache (so the run measures the cached path). */
async function expectCacheHit(replica: Service): Promise<void> {
  const response = await fetch(`${replica.url}${PATH}`, { headers: API_HEADERS });
  await response.arrayBuffer();
  const cache = response.headers.get('x-cache');
  if (response.status !== 200 || cache !== 'hit') {
    throw new Error(`a replica answered ${response.status} with x-cache: ${cache}, not a hit`);
  }
}

async function loadSplit(replicas: Service[], seconds: number): Promise<LoadFigures[]> {
  const each = Math.max(1, Math.floor(CONNECTIONS / replicas.length));
  return Promise.all(replicas.map((replica) => load(target(replica), each, seconds)));
}

/**
 * The pid of the process whose command line matches `pattern`, from /proc (undefined elsewhere):
 * redis-server rewrites its own to `redis-server 127.0.0.1:<port>`; PostgreSQL's postmaster keeps
 * `postgres -D <dir> -p <port> …`, its backends being its children.
 */
function pidOf(pattern: RegExp): number | undefined {
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^[0-9]+$/.test(entry)) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (pattern.test(command)) return Number(entry);
    }
  } catch {
    // no /proc, or a process that ended while being read
  }
  return undefined;
}

/**
 * CPU seconds of a process tree that forks and reaps children (PostgreSQL's postmaster): its own,
 * its children's that have exited (cutime, cstime) and its live children's.
 */
function treeCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const reaped = (Number(fields[13]) + Number(fields[14])) / 100;
    const live = cpuSeconds(pid);
    return live === undefined || !Number.isFinite(reaped) ? undefined : live + reaped;
  } catch {
    return undefined;
  }
}

/** The coordination servers whose CPU time is measured with each run. */
interface Helpers {
  redis: number | undefined;
  /** a client of that Redis, to read its command count */
  redisAdmin: Redis;
  postgres: number | undefined;
}

/** Commands Redis has processed since it started (INFO stats), or NaN. */
async function redisCommands(admin: Redis): Promise<number> {
  const info = await admin.info('stats').catch(() => '');
  const count = /total_commands_processed:([0-9]+)/.exec(info)?.[1];
  return count === undefined ? NaN : Number(count);
}

/**
 * Waits (up to 20 s) until PostgreSQL is quiet: with DATABASE_URL each request served leaves rows
 * that are written in batches, and a backlog from one run would otherwise load the next.
 */
async function settle(helpers: Helpers): Promise<void> {
  if (helpers.postgres === undefined) return;
  const deadline = performance.now() + 20_000;
  while (performance.now() < deadline) {
    const before = treeCpuSeconds(helpers.postgres) ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 500));
    // under 5 % of one core over the half second
    if ((treeCpuSeconds(helpers.postgres) ?? 0) - before < 0.025) return;
  }
}

async function throughput(
  id: string,
  name: string,
  replicas: Service[],
  helpers: Helpers,
): Promise<Run> {
  await loadSplit(replicas, WARMUP_SECONDS);
  for (const replica of replicas) await expectCacheHit(replica);
  await settle(helpers);
  const replicaCpu = () =>
    replicas.reduce<number | undefined>((sum, replica) => {
      const own = cpuSeconds(replica.pid);
      return sum === undefined || own === undefined ? undefined : sum + own;
    }, 0);
  const cpuBefore = replicaCpu();
  const redisBefore = cpuSeconds(helpers.redis);
  const postgresBefore = treeCpuSeconds(helpers.postgres);
  const commandsBefore = await redisCommands(helpers.redisAdmin);
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  const figures = await loadSplit(replicas, SECONDS);
  const wallSeconds = (performance.now() - started) / 1000;
  const own = process.cpuUsage(ownBefore);
  const cpuAfter = replicaCpu();
  const redisAfter = cpuSeconds(helpers.redis);
  const postgresAfter = treeCpuSeconds(helpers.postgres);
  const commandsAfter = await redisCommands(helpers.redisAdmin);
  const machinePercent = (seconds: number) =>
    Math.round((seconds / (wallSeconds * availableParallelism())) * 1000) / 10;
  const requests = figures.reduce((sum, f) => sum + f.requests, 0);
  const weighted = (pick: (f: LoadFigures) => number) =>
    requests === 0 ? NaN : figures.reduce((sum, f) => sum + pick(f) * f.requests, 0) / requests;
  return {
    id,
    name,
    requestsPerSecond: figures.reduce((sum, f) => sum + f.requestsPerSecond, 0),
    p50: Math.round(weighted((f) => f.p50) * 10) / 10,
    p99: Math.max(...figures.map((f) => f.p99)),
    errors: figures.reduce((sum, f) => sum + f.errors + f.timeouts, 0),
    non2xx: figures.reduce((sum, f) => sum + f.non2xx, 0),
    generatorCpuPercent: machinePercent((own.user + own.system) / 1e6),
    replicaCpuMicros:
      cpuBefore === undefined || cpuAfter === undefined || requests === 0
        ? undefined
        : Math.round(((cpuAfter - cpuBefore) / requests) * 1e6),
    redisCommandsPerRequest:
      requests === 0 ? NaN : Math.round(((commandsAfter - commandsBefore) / requests) * 100) / 100,
    redisCpuPercent:
      redisBefore === undefined || redisAfter === undefined
        ? undefined
        : machinePercent(redisAfter - redisBefore),
    postgresCpuPercent:
      postgresBefore === undefined || postgresAfter === undefined
        ? undefined
        : machinePercent(postgresAfter - postgresBefore),
  };
}

function getOnce(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { agent, headers: API_HEADERS }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    request.once('error', reject);
  });
}

/** p50 of `count` sequential requests on one keep-alive connection, ms with sub-ms detail. */
async function sequentialP50(replica: Service, count: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const durations: number[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const started = performance.now();
      const status = await getOnce(`${replica.url}${PATH}`, agent);
      durations.push(performance.now() - started);
      if (status !== 200) throw new Error(`${replica.name} answered ${status}`);
    }
  } finally {
    agent.destroy();
  }
  return percentile(
    durations.sort((a, b) => a - b),
    50,
  );
}

/** The runs of one configuration over the rounds, and their median requests/s. */
interface Config {
  id: string;
  name: string;
  runs: Run[];
  medianRps: number;
}

/** The middle value (the mean of the two middle ones), unrounded; NaN when empty. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle] ?? NaN;
  return ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

function print(configs: Config[], ratio: number, added: number, latency: Latency[]): void {
  console.log(
    `\nCached autocomplete (${QUERY}): ${CONNECTIONS} connections for ${SECONDS} s each ` +
      `(after ${WARMUP_SECONDS} s warm-up), split evenly over the replicas; ${ROUNDS} rounds ` +
      `(medians); ${availableParallelism()} cores shared by the replicas, Redis and the load generator`,
  );
  const tenth = (values: number[]) => Math.round(median(values) * 10) / 10;
  console.table(
    configs.map(({ name, runs, medianRps }) => ({
      replicas: name,
      'req/s': Math.round(medianRps),
      'p50 ms (load)': tenth(runs.map((run) => run.p50)),
      'p99 ms (load)': tenth(runs.map((run) => run.p99)),
      errors: runs.reduce((sum, run) => sum + run.errors, 0),
      'non-2xx': runs.reduce((sum, run) => sum + run.non2xx, 0),
      'replicas CPU µs/req': Math.round(median(runs.map((run) => run.replicaCpuMicros ?? NaN))),
      'load generator CPU %': tenth(runs.map((run) => run.generatorCpuPercent)),
      'redis CPU %': tenth(runs.map((run) => run.redisCpuPercent ?? NaN)),
      'redis commands/req': tenth(runs.map((run) => run.redisCommandsPerRequest)),
      'postgres CPU %': tenth(runs.map((run) => run.postgresCpuPercent ?? NaN)),
    })),
  );
  console.log('(CPU %: of the whole machine, all cores)');
  console.log(
    `two replicas / one replica requests/s: ${ratio.toFixed(2)} (target ≥ ${RATIO_TARGET})`,
  );
  console.log(
    `p50 on one connection: ${median(latency.map((l) => l.local)).toFixed(3)} ms without REDIS_URL, ` +
      `${median(latency.map((l) => l.redis)).toFixed(3)} ms with; added ${added.toFixed(3)} ms ` +
      `(median of the ${latency.length} rounds' differences; target ≤ ${ADDED_P50_TARGET_MS} ms)`,
  );
}

function metrics(configs: Config[], ratio: number | null, added: number | null): MetricEntry[] {
  const rows = configs.flatMap(({ id, name, runs, medianRps }) => [
    metric({
      metric: `replicas.rps.${id}`,
      label: `${name}: req/s`,
      value: Math.round(medianRps),
      unit: 'req/s',
    }),
    metric({
      metric: `replicas.generator_cpu.${id}`,
      label: `${name}: load generator's CPU, % of the machine`,
      value: median(runs.map((run) => run.generatorCpuPercent)),
      unit: '%',
    }),
  ]);
  return [
    ...rows,
    metric({
      metric: 'replicas.ratio_two',
      label: 'two replicas ÷ one replica req/s (both with REDIS_URL)',
      value: ratio === null ? null : Math.round(ratio * 100) / 100,
      unit: 'ratio',
      target: { op: '>=', value: RATIO_TARGET },
    }),
    metric({
      metric: 'replicas.added_p50_redis',
      label: 'added p50, one replica with REDIS_URL − without (1 connection)',
      value: added === null ? null : Math.round(added * 1000) / 1000,
      unit: 'ms',
      target: { op: '<=', value: ADDED_P50_TARGET_MS },
    }),
  ];
}

interface Latency {
  local: number;
  redis: number;
}

const settings = {
  query: QUERY,
  seconds: SECONDS,
  connections: CONNECTIONS,
  latencyRequests: LATENCY_REQUESTS,
  rounds: ROUNDS,
  cores: availableParallelism(),
};

async function main(): Promise<void> {
  const redisStarted = await startRedis();
  if (typeof redisStarted === 'string') {
    console.log(`replicas: not measured: ${redisStarted}`);
    writeResultsFile({ bench: 'replicas', settings, metrics: metrics([], null, null) });
    return;
  }
  const redis: TestService = redisStarted;
  const postgresStarted =
    process.env.BENCH_REPLICAS_POSTGRES === 'off'
      ? 'BENCH_REPLICAS_POSTGRES=off'
      : await startPostgres();
  const postgres = typeof postgresStarted === 'string' ? undefined : postgresStarted;
  if (postgres === undefined) {
    console.log(`replicas: without DATABASE_URL: ${String(postgresStarted)}`);
  }
  const work = mkdtempSync(join(tmpdir(), 'bench-replicas-'));
  const services: Service[] = [];
  const admins: Redis[] = [];
  let sandbox: Service = undefined as never;
  const start = async (name: string, env: Record<string, string>) => {
    const service = await startProxy(join(work, name), sandbox.url, env);
    services.push(service);
    return { ...service, name };
  };
  const team = {
    REDIS_URL: redis.url,
    ...(postgres === undefined
      ? {}
      : { DATABASE_URL: postgres.url, DECISION_SIGNING_KEY_FILE: sharedSigningKeyFile() }),
  };
  try {
    sandbox = await startSandbox(join(work, 'sandbox'));
    services.push(sandbox);
    const local = await start('one replica, no REDIS_URL', {});
    const otherLocal = await start('second replica, no REDIS_URL', {});
    const first = await start('replica 1', team);
    const second = await start('replica 2', team);
    const redisAdmin = new Redis(redis.url);
    admins.push(redisAdmin);
    const helpers: Helpers = {
      redis: pidOf(new RegExp(`redis-server.*[: ]${redis.port}\\b`)),
      redisAdmin,
      postgres:
        postgres === undefined
          ? undefined
          : pidOf(new RegExp(`/postgres .*-p ${postgres.port}\\b`)),
    };
    const configs: Config[] = [
      { id: 'one_local', name: 'one replica, no REDIS_URL', runs: [], medianRps: NaN },
      { id: 'two_local', name: 'two replicas, no REDIS_URL', runs: [], medianRps: NaN },
      { id: 'one', name: 'one replica, REDIS_URL', runs: [], medianRps: NaN },
      { id: 'two', name: 'two replicas, REDIS_URL', runs: [], medianRps: NaN },
    ];
    const replicasOf = [[local], [local, otherLocal], [first], [first, second]];
    const latency: Latency[] = [];
    const ratios: number[] = [];
    // Rounds alternate the configurations, so that a change in the machine's other load during
    // the run touches them alike; the ratio is the median of the rounds' own ratios.
    for (let round = 0; round < ROUNDS; round += 1) {
      latency.push({
        local: await sequentialP50(local, LATENCY_REQUESTS),
        redis: await sequentialP50(first, LATENCY_REQUESTS),
      });
      const runs: Run[] = [];
      for (const [index, config] of configs.entries()) {
        const run = await throughput(config.id, config.name, replicasOf[index] ?? [], helpers);
        config.runs.push(run);
        runs.push(run);
      }
      ratios.push((runs[3]?.requestsPerSecond ?? NaN) / (runs[2]?.requestsPerSecond ?? NaN));
    }
    for (const config of configs) {
      config.medianRps = median(config.runs.map((run) => run.requestsPerSecond));
    }
    const ratio = median(ratios);
    const added = median(latency.map((l) => l.redis - l.local));
    print(configs, ratio, added, latency);
    const file = writeResultsFile({
      bench: 'replicas',
      settings: { ...settings, databaseUrl: postgres !== undefined },
      metrics: metrics(configs, ratio, added),
      details: { configs, ratios, latency },
    });
    console.log(`results: ${file}`);
  } finally {
    for (const service of services.reverse()) await service.stop();
    for (const admin of admins) admin.disconnect();
    await redis.stop();
    await postgres?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
