/**
 * The set-up the team tests share: a Redis server for the scope (`useRedis`), one sandbox in front
 * of which the replicas run, optionally behind a recording pass-through (`useSandbox`), and
 * replicas — in-process proxies configured as a team deploys them (trusted-header auth from
 * loopback, the sandbox as upstream, the database and Redis given) — closed when the scope ends
 * (`useReplicas`). PostgreSQL comes from `usePostgres` (sql/engines.test-support.ts).
 *
 * A missing Redis skips the scope's tests through the runner's skip with the reason (the run lists
 * them), or fails them with TEAM_SERVICES_REQUIRED=1; never an early `return`. Call the `use…`
 * functions while tests are collected (at the top of a file or of a `describe`).
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { LogStream } from '../logging.ts';
import {
  CSRF,
  startProxy,
  testConfig,
  type RunningProxy,
  type TestConfigOverrides,
} from '../helpers.test-support.ts';
import { startRedis, type TestService } from './services.test-support.ts';
import {
  recordingFront,
  startSandbox,
  type RecordingFront,
  type RunningSandbox,
} from './two-proxies.test-support.ts';

/**
 * Headers of a request by `user` as the team's reverse proxy sends them (trusted-header auth:
 * the user, and the role in the default role header, admin unless said), with the CSRF header.
 */
export function asUser(
  user: string,
  role: 'admin' | 'analyst' | 'viewer' = 'admin',
): Record<string, string> {
  return { ...CSRF, 'x-forwarded-user': user, 'x-forwarded-role': role };
}

/** What a started service or a sandbox offers inside hooks and tests. */
function running<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not running (used outside a test?)`);
  return value;
}

/** The Redis server of a scope's tests, as `useRedis` gives it (inside hooks and tests). */
interface TestRedis {
  readonly url: string;
  readonly service: TestService;
  /** stop the server, as an outage (its port stays the scope's; `restart` brings it back) */
  stop(): Promise<void>;
  /** an empty Redis on the same port (a restart without persistence), stopping it first if up */
  restart(): Promise<void>;
}

/**
 * A Redis server of its own for the tests of the calling scope, started before them and stopped
 * after; each test skipped, with the reason, where Redis is not installed.
 */
export function useRedis(): TestRedis {
  let service: TestService | undefined;
  let skip: string | undefined;
  beforeAll(async () => {
    const started = await startRedis();
    if (typeof started === 'string') skip = `Redis: ${started}`;
    else service = started;
  }, 60_000);
  afterAll(async () => service?.stop());
  beforeEach((context) => {
    if (skip !== undefined) context.skip(skip);
  });
  return {
    get url() {
      return running(service, 'Redis').url;
    },
    get service() {
      return running(service, 'Redis');
    },
    stop: () => running(service, 'Redis').stop(),
    async restart() {
      const { port } = running(service, 'Redis');
      await service?.stop();
      const restarted = await startRedis({ port });
      if (typeof restarted === 'string') throw new Error(restarted);
      service = restarted;
    },
  };
}

/**
 * Set-up that needs the scope's services (a proxy on Redis, replicas on PostgreSQL): run once,
 * before the scope's first test, from a `beforeEach` registered after the `use…` calls, so that
 * where a service is missing the runner skips the tests (with the reason) before it runs.
 * A `beforeAll` would run anyway and fail the scope (Vitest has no skip from a `beforeAll`).
 */
export function beforeFirstTest(setUp: () => Promise<void>, timeout = 60_000): void {
  let done: Promise<void> | undefined;
  beforeEach(async () => {
    done ??= setUp();
    await done;
  }, timeout);
}

export interface TestSandbox {
  /** what replicas call: the pass-through when recording, else the sandbox */
  readonly url: string;
  readonly apiKey: string;
  readonly sandbox: RunningSandbox;
  /** the recording pass-through (only with `recording: true`) */
  readonly front: RecordingFront;
}

/** One sandbox for the scope's tests (with `apiKey`), behind a recording pass-through if asked. */
export function useSandbox(options: {
  apiKey: string;
  population?: number;
  recording?: boolean;
}): TestSandbox {
  let sandbox: RunningSandbox | undefined;
  let front: RecordingFront | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({
      apiKeys: [options.apiKey],
      population: options.population ?? 300,
    });
    if (options.recording) front = await recordingFront(sandbox.url);
  }, 60_000);
  afterAll(async () => {
    await front?.close();
    await sandbox?.close();
  });
  return {
    get url() {
      return front?.url ?? running(sandbox, 'the sandbox').url;
    },
    apiKey: options.apiKey,
    get sandbox() {
      return running(sandbox, 'the sandbox');
    },
    get front() {
      return running(front, 'the recording pass-through');
    },
  };
}

/** Overrides of one replica's configuration, and a log stream to capture its log. */
export type ReplicaOptions = TestConfigOverrides & { logStream?: LogStream };

/**
 * Replicas in front of `sandbox`, in test mode, trusting `x-forwarded-user` from loopback; each on
 * its own DATA_DIR, with the `databaseUrl` / `redisUrl` given. All closed when the scope ends.
 */
export function useReplicas(sandbox: TestSandbox): {
  start(options?: ReplicaOptions): Promise<RunningProxy>;
} {
  const proxies: RunningProxy[] = [];
  afterAll(async () => {
    for (const proxy of proxies.splice(0)) await proxy.close();
  });
  return {
    async start({ logStream, ...overrides } = {}) {
      const config = testConfig({
        mode: 'test',
        upstream: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, legacy: false, timeoutMs: 5000 },
        auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
        ...(logStream && { logLevel: 'info' as const }),
        ...overrides,
      });
      const proxy = await startProxy(config, logStream ? { logStream } : {});
      proxies.push(proxy);
      return proxy;
    },
  };
}
