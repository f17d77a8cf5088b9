/**
 * The e2e run's proxies, one per parallel worker ("slot"): each worker's specs talk to their own
 * proxy, embedded sandbox and DATA_DIR, so specs in two workers never share a cache, a ledger, the
 * sandbox's clock or its fault rules. Slot 0 is the proxy playwright.config.ts's webServer starts;
 * the others are started by the worker fixture in fixtures.ts, from the same compiled server with
 * the same environment.
 *
 * Ports: slot 0 on E2E_PORT (default 4179) and its sandbox on the next port; slot n on
 * E2E_PORT + 2n and E2E_PORT + 2n + 1.
 */
export const BASE_PORT = Number(process.env.E2E_PORT ?? 4179);
/** Playwright empties its output directory at start: a side-by-side run needs its own. */
export const RESULTS = BASE_PORT === 4179 ? 'test-results' : `test-results/e2e-${BASE_PORT}`;
/** The compiled proxy the e2e run starts (scripts/build-server.mjs). */
export const SERVER_DIR = `${RESULTS}/e2e-server`;
export const STATIC_DIR = process.env.E2E_STATIC_DIR ?? 'dist';

/** This worker's slot: Playwright numbers its parallel workers 0..workers-1 in this variable. */
export const SLOT = Number(process.env.TEST_PARALLEL_INDEX ?? 0);

export interface SlotPorts {
  proxy: number;
  sandbox: number;
}

function slotPorts(slot: number): SlotPorts {
  return { proxy: BASE_PORT + 2 * slot, sandbox: BASE_PORT + 2 * slot + 1 };
}

/** The slot's DATA_DIR, wiped before its proxy starts (e2e/fresh-data-dir.mjs). */
export function slotDataDir(slot: number): string {
  return slot === 0 ? `${RESULTS}/e2e-data` : `${RESULTS}/e2e-data-${slot}`;
}

/** The proxies' ORG_NAME. */
export const E2E_ORG_NAME = 'Northwind Freight Brokerage';

/** This worker's proxy and its embedded sandbox. */
export const PROXY_URL = `http://127.0.0.1:${slotPorts(SLOT).proxy}`;
export const SANDBOX_URL = `http://127.0.0.1:${slotPorts(SLOT).sandbox}`;

/**
 * The environment of an e2e proxy: the real server as `npm start` runs it, serving the built app
 * against the embedded sandbox with a fresh DATA_DIR, whatever the developer's shell exports.
 */
export function proxyEnv(slot: number): Record<string, string> {
  const ports = slotPorts(slot);
  return {
    HOST: '127.0.0.1',
    PORT: String(ports.proxy),
    DATA_DIR: slotDataDir(slot),
    STATIC_DIR,
    LOG_LEVEL: 'warn',
    // A fixed port so tests can reach the embedded sandbox's /__sandbox/* endpoints (e2e/sandbox.ts).
    EMBEDDED_SANDBOX_PORT: String(ports.sandbox),
    // Nothing configured: the embedded sandbox.
    CARRIER_API_BASE_URL: '',
    CARRIER_API_KEY: '',
    CARRIER_API_KEY_FILE: '',
    CARRIER_API_LEGACY: '',
    DASHBOARD_AUTH: '',
    MONTHLY_BUDGET_USD: '',
    // The organisation named at the top of a printed decision record (e2e/decisions.spec.ts).
    ORG_NAME: E2E_ORG_NAME,
    // One proxy serves every spec of a worker: a breaker opened by one spec's injected 503s must
    // not refuse the next spec's calls for the default 30 s (the breaker itself is unit-tested).
    UPSTREAM_CIRCUIT_OPEN_SECONDS: '2',
    // No scheduled monitoring polls: they would call the sandbox behind the specs that count calls.
    MONITOR_POLL_INTERVAL: '0',
    // One user ("local") runs every spec at machine speed: the layout, header and profile sweeps
    // together pass the default 600 requests a minute that guard a person's session, and a 429
    // then fails whichever spec comes next. The limit itself is tested in the proxy's unit tests.
    USER_RATE_LIMIT_PER_MINUTE: '100000',
  };
}
