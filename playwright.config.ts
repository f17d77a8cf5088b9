import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

const PORT = 4173;
const BASE_URL = `http://127.0.0.1:${PORT}`;
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
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-results.json' }]],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
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
  // Serves the built app (`vite build` runs first in `npm test`); the proxy issue replaces this.
  webServer: {
    command: `node_modules/.bin/vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: BASE_URL,
    reuseExistingServer: !process.env.CI,
    timeout: 30_000,
  },
});
