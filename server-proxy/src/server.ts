/** Entry point: read the environment, build the proxy, listen, and close cleanly on a signal. */
import { buildProxyApp } from './app.ts';
import { ConfigError, describeMode, loadConfig } from './config.ts';
import type { ProxyConfig } from './context.ts';
import { insecureHttpWarning } from './governance/exposure.ts';
import { closeOnSignals, listenUrl } from './http/shutdown.ts';

/** Give in-flight requests this long to finish on SIGINT/SIGTERM before exiting anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

function readConfig(): ProxyConfig {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const warning = insecureHttpWarning(config);
  if (warning !== undefined) console.warn(warning);
  const app = await buildProxyApp(config);
  closeOnSignals(app, 'proxy', SHUTDOWN_GRACE_MS);
  await app.listen({ host: config.host, port: config.port });
  const url = listenUrl(app, config.host, config.port);
  console.log(`carrier-desk proxy on ${url} — ${describeMode(app.proxy.config)}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
