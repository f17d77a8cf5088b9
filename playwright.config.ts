import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/**
 * E2E_PORT moves the e2e proxy (and its embedded sandbox, on the next port) so two checkouts can
 * run the suite side by side; E2E_STATIC_DIR serves another build than `dist`.
 */
const PORT = Number(process.env.E2E_PORT ?? 4179);
const SANDBOX_PORT = PORT + 1;
const BASE_URL = `http://127.0.0.1:${PORT}`;
/** Playwright empties its output directory at start: a side-by-side run needs its own. */
const RESULTS = PORT === 4179 ? 'test-results' : `test-results/e2e-${PORT}`;
/** The e2e proxy's DATA_DIR: wiped before every run (e2e/fresh-data-dir.mjs). */
const DATA_DIR = `${RESULTS}/e2e-data`;
const STATIC_DIR = process.env.E2E_STATIC_DIR ?? 'dist';
/** The compiled proxy the e2e run starts (scripts/build-server.mjs). */
const SERVER_DIR = `${RESULTS}/e2e-server`;
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
  // Two shared cores: one browser at a time keeps timings stable.
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 30_000,
  outputDir: RESULTS,
  reporter: [['list'], ['json', { outputFile: `${RESULTS}/e2e-results.json` }]],
  use: {
    baseURL: BASE_URL,
    // A failed test keeps its trace (actions, DOM snapshots, network) for show-trace; no screencast
    // frames: encoding them during every test of the run cost more than any other single setting.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true },
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
    env: {
      HOST: '127.0.0.1',
      PORT: String(PORT),
      DATA_DIR,
      STATIC_DIR,
      LOG_LEVEL: 'warn',
      // A fixed port so tests can reach the embedded sandbox's /__sandbox/* endpoints (e2e/sandbox.ts).
      EMBEDDED_SANDBOX_PORT: String(SANDBOX_PORT),
      // Nothing configured: the embedded sandbox, whatever the developer's shell exports.
      CARRIER_API_BASE_URL: '',
      CARRIER_API_KEY: '',
      CARRIER_API_KEY_FILE: '',
      CARRIER_API_LEGACY: '',
      DASHBOARD_AUTH: '',
      MONTHLY_BUDGET_USD: '',
      // One shared proxy serves every spec: a breaker opened by one spec's injected 503s must not
      // refuse the next spec's calls for the default 30 s (the breaker itself is unit-tested).
      UPSTREAM_CIRCUIT_OPEN_SECONDS: '2',
    },
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    timeout: 60_000,
  },
});
