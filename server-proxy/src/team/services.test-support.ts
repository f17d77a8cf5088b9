/**
 * Throwaway Redis and PostgreSQL servers for tests: loopback only, a free port, data in a temporary
 * directory that `stop()` removes. Each starter answers a skip reason (a string) instead when the
 * server's binaries are not installed, so a test can skip and say why.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface TestService {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Servers still running, killed if the test process exits without stopping them. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Spawn a server and track it until it exits. */
function spawnTracked(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, options);
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** An executable named `name` on PATH, else in one of `extraDirs`. */
function findBinary(name: string, extraDirs: string[] = []): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), ...extraDirs].filter(Boolean);
  return dirs.map((dir) => join(dir, name)).find((file) => existsSync(file));
}

/**
 * A loopback port nobody listens on right now (the OS picks it; there is a small race, as
 * everywhere). Shared by tests and the benchmark scripts; it imports nothing but `node:net`.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Send `line` over TCP and resolve with the first chunk answered ('' when the port refuses). */
function exchange(port: number, line: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (answer: string) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1000, () => done(''));
    socket.on('error', () => done(''));
    socket.on('connect', () => socket.write(line));
    socket.on('data', (chunk: Buffer) => done(chunk.toString('utf8')));
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, child: ChildProcess) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`${what} did not become ready within 15 s`);
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Keeps the last few kilobytes a child wrote, for the error when it fails to start. */
function tail(child: ChildProcess): () => string {
  let text = '';
  const keep = (chunk: Buffer) => (text = (text + chunk.toString('utf8')).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => text;
}

/**
 * Waits until `check` says the freshly spawned `child` is ready. If it exits or times out instead,
 * kills it, removes its temporary `dir` and throws with the last output it wrote.
 */
async function startedOrCleanedUp(
  child: ChildProcess,
  dir: string,
  check: () => Promise<boolean>,
  what: string,
): Promise<void> {
  const output = tail(child);
  try {
    await waitFor(check, what, child);
  } catch (err) {
    await stopChild(child, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${(err as Error).message}\n${output()}`);
  }
}

/**
 * A Redis server on 127.0.0.1 without persistence. `port` reuses a port (to restart a stopped
 * server where its clients expect it).
 */
export async function startRedis(options: { port?: number } = {}): Promise<TestService | string> {
  const binary = findBinary('redis-server');
  if (binary === undefined) {
    return unavailable('redis-server is not installed (apt-get install redis-server)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'redis-test-'));
  const port = options.port ?? (await freePort());
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawnTracked(binary, [...args, '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pong = async () => (await exchange(port, 'PING\r\n')).startsWith('+PONG');
  await startedOrCleanedUp(child, dir, pong, 'redis-server');
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      await stopChild(child, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Why a service cannot run here, as the skip reason its tests give; with TEAM_SERVICES_REQUIRED=1
 * (.ci/run sets it) an error instead, so that a run where PostgreSQL or Redis is missing fails
 * rather than passing with those tests skipped.
 */
function unavailable(reason: string): string {
  if (process.env.TEAM_SERVICES_REQUIRED === '1') {
    throw new Error(`${reason}; TEAM_SERVICES_REQUIRED=1, so this run needs it`);
  }
  return reason;
}

/**
 * PostgreSQL's binaries: PATH first, then Debian's versioned folders (newest first) under
 * TEST_POSTGRES_ROOT (default /usr/lib/postgresql; a test of what runs without PostgreSQL points
 * it elsewhere and empties PATH).
 */
function postgresBinaries(): { initdb: string; postgres: string; isReady: string } | undefined {
  const root = process.env.TEST_POSTGRES_ROOT || '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^[0-9]+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const extra = versions.map((version) => join(root, version, 'bin'));
  const initdb = findBinary('initdb', extra);
  const postgres = findBinary('postgres', extra);
  const isReady = findBinary('pg_isready', extra);
  if (initdb === undefined || postgres === undefined || isReady === undefined) return undefined;
  return { initdb, postgres, isReady };
}

/** The `postgres` system user's ids, from /etc/passwd (PostgreSQL refuses to run as root). */
function postgresUser(): { uid: number; gid: number } | undefined {
  let passwd = '';
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    return undefined;
  }
  const entry = passwd.split('\n').find((line) => line.startsWith('postgres:'));
  const [, , uid, gid] = entry?.split(':') ?? [];
  if (uid === undefined || gid === undefined) return undefined;
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * A PostgreSQL cluster on 127.0.0.1 (trust authentication, fsync off), its socket in its temporary
 * directory. As root it runs as the `postgres` system user, which owns the directory.
 */
export async function startPostgres(): Promise<TestService | string> {
  const bin = postgresBinaries();
  if (bin === undefined)
    return unavailable('PostgreSQL is not installed (apt-get install postgresql)');
  let ids: { uid: number; gid: number } | undefined;
  if (process.getuid?.() === 0) {
    ids = postgresUser();
    if (ids === undefined) {
      return unavailable('running as root and there is no postgres user to run PostgreSQL');
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'postgres-test-'));
  if (ids !== undefined) chownSync(dir, ids.uid, ids.gid);
  const data = join(dir, 'data');
  const asUser = ids === undefined ? {} : { uid: ids.uid, gid: ids.gid };
  const init = spawnSync(
    bin.initdb,
    ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'],
    { ...asUser, encoding: 'utf8', cwd: dir },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr}`);
  }
  const port = await freePort();
  const settings = ['listen_addresses=127.0.0.1', `unix_socket_directories=${dir}`, 'fsync=off'];
  const child = spawnTracked(
    bin.postgres,
    ['-D', data, '-p', String(port), ...settings.flatMap((setting) => ['-c', setting])],
    { ...asUser, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const ready = async () =>
    spawnSync(bin.isReady, ['-h', '127.0.0.1', '-p', String(port), '-t', '1']).status === 0;
  await startedOrCleanedUp(child, dir, ready, 'postgres');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      // SIGINT is PostgreSQL's "fast" shutdown: sessions are ended, no waiting for clients.
      await stopChild(child, 'SIGINT');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
