/**
 * Issue 18's own scenario over real HTTP: two proxy processes (the real server, as a balancer's
 * replicas would run it) on one PostgreSQL and one Redis, in front of the sandbox with its live
 * rate limits (5 profile calls a minute per key). A recording pass-through between the proxies and
 * the sandbox sees every call the service receives; the sandbox's ledger says what it billed.
 *
 * The three tests run in order on the same replicas: a burst, Redis stopped and restarted empty
 * during traffic, and the same burst again once the window and the pause have passed (about a
 * minute of real time: the sandbox's window is the service's, 60 s of real time).
 * Where redis-server or PostgreSQL is not installed each test is skipped by the runner with the
 * reason (sql/engines.test-support.ts, team/replicas.test-support.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { dotOfRow } from '../sandbox/index.ts';
import { usePostgres } from '../sql/engines.test-support.ts';
import {
  makeTempDir,
  request,
  sharedSigningKeyFile,
  startProxyProcess,
  type CallResult,
} from '../helpers.test-support.ts';
import { beforeFirstTest, useRedis } from './replicas.test-support.ts';
import {
  recordingFront,
  startSandbox,
  type RecordingFront,
  type RunningSandbox,
} from './two-proxies.test-support.ts';

const postgres = usePostgres();
const redis = useRedis();

const KEY = 'sk_test_two_replicas';
const PROFILE_PATH = '/v2/profile';
const WINDOW_MS = 60_000;
/** 12 distinct carriers of the sandbox's population */
const DOTS = Array.from({ length: 12 }, (_, i) => dotOfRow(10 + i));

let sandbox: RunningSandbox;
let front: RecordingFront;
const replicas: { url: string }[] = [];
const children: ChildProcess[] = [];
const dataDirs: string[] = [];

afterAll(async () => {
  await Promise.all(
    children
      .filter((child) => child.exitCode === null && child.signalCode === null)
      .map((child) => {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        return exited;
      }),
  );
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  await front?.close();
  await sandbox?.close();
});

/**
 * 30 concurrent profile requests for the 12 carriers, alternating between the two replicas so that
 * each carrier is asked on both (request i and i + 12 go to different replicas).
 */
async function burst(): Promise<{ dot: string; answer: CallResult }[]> {
  return Promise.all(
    Array.from({ length: 30 }, async (_, i) => {
      const dot = DOTS[i % DOTS.length] ?? '';
      const replica = replicas[(i + Math.floor(i / DOTS.length)) % 2]?.url ?? '';
      return { dot, answer: await request(`${replica}/api/v2/profile?dot_number=${dot}`) };
    }),
  );
}

/** 200, or a refusal the client can act on: 429/503 with Retry-After and exactly {error, code, hint}. */
function expectWellFormed(answer: CallResult): void {
  if (answer.status === 200) return;
  expect([429, 503], answer.text).toContain(answer.status);
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(answer.json).toEqual({
    error: expect.any(String),
    code: expect.any(String),
    hint: expect.any(String),
  });
}

/** The DOT each profile call that reached the service asked for. */
function calledDots(): string[] {
  return front
    .callsTo(PROFILE_PATH)
    .map((call) => new URLSearchParams(call.query).get('dot_number') ?? '');
}

/** The most profile calls the service received within any 60 s. */
function busiestMinute(): number {
  const times = front.callsTo(PROFILE_PATH).map((call) => call.at);
  return Math.max(
    0,
    ...times.map((start) => times.filter((t) => t >= start && t < start + WINDOW_MS).length),
  );
}

/**
 * Profile units billed, as each replica's usage page reports them. With DATABASE_URL the spend
 * ledger is one for the deployment, so both report the same total.
 */
async function billedByEachReplica(): Promise<number[]> {
  return Promise.all(
    replicas.map(async ({ url }) => {
      const usage = await request(`${url}/api/local/usage`);
      expect(usage.status).toBe(200);
      const lines = (usage.json as { byEndpoint: { endpoint: string; billedUnits: number }[] })
        .byEndpoint;
      return lines.find((line) => line.endpoint === 'profile')?.billedUnits ?? 0;
    }),
  );
}

/** What must hold at every point: the key's limit, one bill per carrier, everywhere. */
async function expectOneBudgetAndOneBillPerCarrier(): Promise<void> {
  expect(front.seen.filter((call) => call.status === 429)).toEqual([]);
  expect(busiestMinute()).toBeLessThanOrEqual(5);
  const dots = calledDots();
  expect(new Set(dots).size).toBe(dots.length);
  const profileLine = (await sandbox.ledger(KEY)).find((line) => line.kind === 'profile');
  expect(profileLine?.calls ?? 0).toBe(dots.length);
  expect(profileLine?.unique_dots ?? 0).toBe(dots.length);
  expect(await billedByEachReplica()).toEqual([dots.length, dots.length]);
}

describe('two proxy processes on one PostgreSQL and Redis', () => {
  // in the first test's hooks: where a service is missing the runner skips before it runs
  beforeFirstTest(async () => {
    sandbox = await startSandbox({ apiKeys: [KEY], rateLimits: 'live' });
    front = await recordingFront(sandbox.url);
    const databaseUrl = await postgres.freshDatabase();
    for (let i = 0; i < 2; i += 1) {
      const dataDir = makeTempDir();
      dataDirs.push(dataDir);
      replicas.push(
        await startProxyProcess({
          upstream: front.url,
          dataDir,
          apiKey: KEY,
          env: {
            REDIS_URL: redis.url,
            DATABASE_URL: databaseUrl,
            // one key for both, as a team gives its replicas (required with DATABASE_URL)
            DECISION_SIGNING_KEY_FILE: sharedSigningKeyFile(),
            UPSTREAM_RATE_LIMITS: 'published',
            MAX_QUEUE_WAIT_MS: '1000',
            UPSTREAM_TIMEOUT_MS: '5000',
            LOG_LEVEL: 'error',
          },
          onStart: (child) => {
            children.push(child);
            // a replica's errors, and why it exits if it does, show in the test's output
            child.stderr?.on('data', (chunk: Buffer) =>
              process.stderr.write(`replica ${i + 1}: ${chunk}`),
            );
          },
        }),
      );
    }
  }, 90_000);

  it('30 concurrent requests for 12 carriers: at most 5 profile calls, each carrier billed once', async () => {
    const answers = await burst();
    for (const { answer } of answers) expectWellFormed(answer);
    const dots = calledDots();
    expect(dots).toHaveLength(5);
    await expectOneBudgetAndOneBillPerCarrier();
    // every carrier that was called is answered, and every answer is one the service gave once
    const answered = new Set(answers.filter((a) => a.answer.status === 200).map((a) => a.dot));
    expect([...answered].sort()).toEqual([...dots].sort());
    const refused = answers.filter(({ answer }) => answer.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const { dot } of refused) expect(dots).not.toContain(dot);
    // each carrier called was asked on both replicas: one answer came from the service, the
    // others (the other replica's included) are cache hits
    for (const dot of dots) {
      const forDot = answers
        .filter((a) => a.dot === dot)
        .map((a) => a.answer.headers.get('x-cache'));
      expect(forDot.length).toBeGreaterThanOrEqual(2);
      expect(forDot.filter((cache) => cache === 'miss')).toHaveLength(1);
    }
  });

  it('Redis stopped and restarted during traffic: 503 meanwhile, no limit exceeded, service resumes', async () => {
    const answers: CallResult[] = [];
    let stop = false;
    let q = 0;
    // traffic on both replicas all along: carriers answered before, carriers not yet, and FMCSA
    // lookups (an endpoint without a published limit, so not paused when Redis comes back empty)
    const traffic = (async () => {
      while (!stop) {
        q += 1;
        const replica = replicas[q % 2]?.url ?? '';
        const round = await Promise.all([
          request(`${replica}/api/v2/profile?dot_number=${DOTS[q % DOTS.length] ?? ''}`),
          request(`${replica}/api/v2/profile-fmcsa?dot_number=${dotOfRow(100 + q)}`),
        ]);
        answers.push(...round);
        await sleep(50);
      }
    })();
    await sleep(500);
    await redis.stop();
    await sleep(2500);
    const during = answers.length;
    await redis.restart(); // empty: no persistence in tests
    // both replicas call the service again by themselves, without a restart
    const deadline = Date.now() + 10_000;
    let resumed = [false, false];
    while (!resumed.every(Boolean) && Date.now() < deadline) {
      q += 1;
      const dot = dotOfRow(1000 + q);
      resumed = await Promise.all(
        replicas.map(
          async ({ url }) =>
            (await request(`${url}/api/v2/profile-fmcsa?dot_number=${dot}`)).status === 200,
        ),
      );
      await sleep(200);
    }
    stop = true;
    await traffic;
    expect(resumed).toEqual([true, true]);
    for (const answer of answers) expectWellFormed(answer);
    const outage = answers.slice(0, during).filter((answer) => answer.status === 503);
    expect(outage.length).toBeGreaterThan(0);
    for (const answer of outage)
      expect(answer.json).toMatchObject({ code: 'coordination_unavailable' });
    await expectOneBudgetAndOneBillPerCarrier();
    // the restarted Redis forgot the slots: new profile calls wait out a full window
    const uncalled = DOTS.find((dot) => !calledDots().includes(dot)) ?? '';
    const paused = await request(`${replicas[0]?.url ?? ''}/api/v2/profile?dot_number=${uncalled}`);
    expect(paused.status).toBe(429);
    expect(Number(paused.headers.get('retry-after'))).toBeGreaterThanOrEqual(55);
  }, 60_000);

  it('once the window has passed the next carriers arrive, none billed twice', async () => {
    // a carrier not called yet says how long the endpoint stays paused
    const uncalled = DOTS.find((dot) => !calledDots().includes(dot)) ?? '';
    const probe = await request(`${replicas[1]?.url ?? ''}/api/v2/profile?dot_number=${uncalled}`);
    expectWellFormed(probe);
    const waitS = probe.status === 200 ? 0 : Number(probe.headers.get('retry-after'));
    await sleep(waitS * 1000 + 500);
    const before = calledDots();
    const answers = await burst();
    for (const { answer } of answers) expectWellFormed(answer);
    const after = calledDots();
    const added = after.slice(before.length);
    expect(added.length).toBeGreaterThan(0);
    expect(added.length).toBeLessThanOrEqual(5);
    for (const dot of added) expect(before).not.toContain(dot);
    await expectOneBudgetAndOneBillPerCarrier();
    // carriers answered before are answered again from the caches, free
    const answeredBefore = answers.filter(({ dot }) => before.includes(dot));
    for (const { answer } of answeredBefore) expect(answer.status).toBe(200);
  }, 100_000);
});
