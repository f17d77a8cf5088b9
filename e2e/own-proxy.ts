/**
 * A proxy of a test's own (the real server, as `npm start` runs it, serving `dist/`), on fixed
 * loopback ports and a fresh data directory: for a configuration the shared e2e proxy does not
 * have (password sign-in), or state a test must not leave behind for the other specs (triage).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_DIR, STATIC_DIR } from './slots.ts';

export interface OwnProxy {
  url: string;
  stop: () => Promise<void>;
}

/** The runner's environment without its Node options (its loader must not reach the proxy). */
function plainEnv(): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _options, ...env } = process.env;
  return env;
}

async function waitReady(url: string, child: ChildProcess, stderr: string[]): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`own proxy exited: ${stderr.join('')}`);
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`own proxy not ready after 30 s: ${stderr.join('')}`);
}

/**
 * How far E2E_PORT moved the suite from its default (4179): own proxies move as far, so two suites
 * side by side do not meet on a spec's fixed ports.
 */
const PORT_SHIFT = Number(process.env.E2E_PORT ?? 4179) - 4179;

/**
 * Starts the proxy on `basePort` (shifted with E2E_PORT; its embedded sandbox on the port after)
 * with `env` on top of a blank configuration. Pick ports no other spec uses, and none on the Fetch
 * standard's blocked list.
 */
export async function startOwnProxy(basePort: number, env: NodeJS.ProcessEnv): Promise<OwnProxy> {
  const port = basePort + PORT_SHIFT;
  const dataDir = await mkdtemp(join(tmpdir(), 'carrier-desk-e2e-'));
  // the compiled server the run's webServer built (faster to start than compiling with tsx)
  const child = spawn('node', [`${SERVER_DIR}/server.mjs`], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...plainEnv(),
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      STATIC_DIR,
      LOG_LEVEL: 'warn',
      EMBEDDED_SANDBOX_PORT: String(port + 1),
      CARRIER_API_BASE_URL: '',
      CARRIER_API_KEY: '',
      CARRIER_API_KEY_FILE: '',
      CARRIER_API_LEGACY: '',
      DASHBOARD_AUTH: '',
      MONTHLY_BUDGET_USD: '',
      MONITOR_POLL_INTERVAL: '0',
      ...env,
    },
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitReady(url, child, stderr);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
