import { buildSandboxApp } from './app.ts';
import { ConfigError, loadConfig, type SandboxConfig } from './config.ts';

function readConfig(): SandboxConfig {
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
  const app = await buildSandboxApp({
    dataDir: config.dataDir,
    apiKeys: config.apiKeys,
    seed: config.seed,
    population: config.population,
    rateLimits: config.rateLimits,
    logger: { level: config.logLevel },
  });
  const shutdown = (signal: string) => {
    app.log.info(`${signal} received, closing the sandbox`);
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
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  console.log(`Sandbox listening on http://${host}:${port}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
