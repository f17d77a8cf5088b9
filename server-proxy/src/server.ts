/** Entry point: read the environment, build the proxy, listen, and close cleanly on a signal. */
import { buildProxyApp } from './app.ts';
import { ConfigError, describeMode, loadConfig } from './config.ts';
import type { ProxyConfig } from './context.ts';

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

function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

async function main(): Promise<void> {
  const config = readConfig();
  const app = await buildProxyApp(config);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, closing the proxy`);
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(
    `carrier-desk proxy on ${urlOf(config.host, port)} — ${describeMode(app.proxy.config)}`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
