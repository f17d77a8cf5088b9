/**
 * Runs a real proxy with its embedded sandbox (small population, fresh DATA_DIR) on 127.0.0.1,
 * port 0, and prints `{"url": ...}` once listening. Started as a child process by
 * `sandbox-proxy.node.ts`: the server code cannot load inside jsdom. Exits on SIGTERM.
 */
import type { AlertsConfig } from '../../server-proxy/src/alerts/config.ts';
import { EMBEDDED_SANDBOX_KEY } from '../../server-proxy/src/config.ts';
import type { ProxyConfig } from '../../server-proxy/src/context.ts';
import { startProxy, testConfig } from '../../server-proxy/src/helpers.test-support.ts';

const proxy = await startProxy(
  testConfig({
    mode: 'sandbox',
    embeddedSandbox: true,
    upstream: { baseUrl: '', apiKey: EMBEDDED_SANDBOX_KEY, legacy: false, timeoutMs: 5000 },
    // the proxy's default bound (CACHE_MAX_MB 64): the heavy carrier's 13.5 MB answer is held,
    // as in the running app, so its views come from the cache
    cache: { profileTtlMs: 3_600_000, autocompleteTtlMs: 300_000, maxBytes: 64 * 1024 * 1024 },
    // PROXY_TEST_ALERTS: the alert settings as JSON (AlertsConfig), for the Alerts page's tests
    ...(process.env.PROXY_TEST_ALERTS
      ? { alerts: JSON.parse(process.env.PROXY_TEST_ALERTS) as AlertsConfig }
      : {}),
    // PROXY_TEST_AUTH: the auth settings as JSON (e.g. trusted-header), for tests of roles
    ...(process.env.PROXY_TEST_AUTH
      ? { auth: JSON.parse(process.env.PROXY_TEST_AUTH) as ProxyConfig['auth'] }
      : {}),
  }),
);
process.stdout.write(`${JSON.stringify({ url: proxy.url })}\n`);
process.once('SIGTERM', () => {
  setTimeout(() => process.exit(0), 1_000).unref();
  void proxy.close().then(() => process.exit(0));
});
