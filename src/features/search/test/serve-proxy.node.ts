/**
 * Runs a real proxy with its embedded sandbox (small population) on 127.0.0.1, port 0, and prints
 * `{"url": ...}` once listening. Started as a child process by `sandbox-proxy.node.ts`: the server
 * code cannot load inside jsdom. Exits on SIGTERM.
 */
import { EMBEDDED_SANDBOX_KEY } from '../../../../server-proxy/src/config.ts';
import { startProxy, testConfig } from '../../../../server-proxy/src/helpers.test-support.ts';

const proxy = await startProxy(
  testConfig({
    mode: 'sandbox',
    embeddedSandbox: true,
    upstream: { baseUrl: '', apiKey: EMBEDDED_SANDBOX_KEY, legacy: false, timeoutMs: 5000 },
  }),
);
process.stdout.write(`${JSON.stringify({ url: proxy.url })}\n`);
process.once('SIGTERM', () => {
  // Idle keep-alive connections of the test's fetch may hold the close: do not wait for them long.
  setTimeout(() => process.exit(0), 1_000).unref();
  void proxy.close().then(() => process.exit(0));
});
