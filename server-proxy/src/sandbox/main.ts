import { buildSandboxApp } from './app.ts';
import { ConfigError, loadConfig, type SandboxConfig } from './config.ts';
import { closeOnSignals, listenUrl } from '../http/shutdown.ts';

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
  closeOnSignals(app, 'sandbox');
  await app.listen({ host: config.host, port: config.port });
  console.log(`Sandbox listening on ${listenUrl(app, config.host, config.port)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
