import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { BASE_PORT, proxyEnv, RESULTS, SERVER_DIR, slotDataDir } from './e2e/slots.ts';

/**
 * E2E_PORT moves the e2e proxy (and its embedded sandbox, on the next port) so two checkouts can
 * run the suite side by side; E2E_STATIC_DIR serves another build than `dist`.
 */
const PORT = BASE_PORT;
const BASE_URL = `http://127.0.0.1:${PORT}`;
/** The slot-0 proxy's DATA_DIR: wiped before every run (e2e/fresh-data-dir.mjs). */
const DATA_DIR = slotDataDir(0);
/**
 * Parallel workers, each with its own proxy and sandbox (e2e/slots.ts). Two on two cores: a
 * worker waits on its page about a third of the time, so two keep both cores busy.
 */
const WORKERS = Number(process.env.E2E_WORKERS ?? 1);
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** CHROMIUM_PATH wins; else the distro's Chromium when installed; else Playwright's own browser. */
function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined;
}

// Keeps Chromium quiet and offline-friendly. SwiftShader stays enabled: WebGL (maps) needs it,
// so never add --disable-software-rasterizer.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--enable-unsafe-swiftshader',
];

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: WORKERS,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Two workers share two cores: a heavy page (axe over a profile tab, a map reaching idle) can take
  // twice its quiet-machine time, so the limits leave room; a passing test never waits for them.
  timeout: 45_000,
  expect: { timeout: 10_000 },
  outputDir: RESULTS,
  reporter: [['list'], ['json', { outputFile: `${RESULTS}/e2e-results.json` }]],
  use: {
    baseURL: BASE_URL,
    // A failed test keeps its screenshot and its page snapshot (error-context.md). Traces (actions,
    // DOM snapshots, network; no screencast frames) cost about 8 % of the run's time, so they are
    // recorded only when asked: E2E_TRACE=1 keeps the trace of every failed test for show-trace.
    trace: process.env.E2E_TRACE
      ? { mode: 'retain-on-failure', screenshots: false, snapshots: true }
      : 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
      },
    },
  ],
  // The real proxy, as `npm start` runs it, serving the built app (`vite build` runs first in
  // `npm test`) against the embedded sandbox, with a fresh DATA_DIR. Never reused: a proxy left
  // running would carry a warm cache and an old ledger into the run.
  webServer: {
    // The server compiled as `npm run build` does (into this run's own folder: side-by-side runs
    // must not overwrite each other's bundle), started by plain node like `npm start`.
    command: `node e2e/fresh-data-dir.mjs ${DATA_DIR} && node scripts/build-server.mjs --outdir ${SERVER_DIR} && node ${SERVER_DIR}/server.mjs`,
    url: `${BASE_URL}/readyz`,
    env: proxyEnv(0),
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    timeout: 60_000,
  },
});
