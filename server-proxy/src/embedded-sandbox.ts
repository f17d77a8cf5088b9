import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import { EMBEDDED_SANDBOX_KEY } from './config.ts';
import { buildSandboxApp, type SandboxApp } from './sandbox/index.ts';

export interface EmbeddedSandboxOptions {
  /** the proxy's DATA_DIR; the sandbox keeps its state in `<dataDir>/sandbox` */
  dataDir: string;
  /** loopback port (0 = any free port) */
  port?: number;
  seed?: number;
  population?: number;
  /** Fastify logger options of the sandbox (default: no logging) */
  logger?: FastifyServerOptions['logger'];
}

export interface EmbeddedSandbox {
  app: SandboxApp;
  /** its loopback base address, e.g. http://127.0.0.1:40123 */
  url: string;
  apiKey: string;
}

/** Start the sandbox in-process on 127.0.0.1 (any free port by default), accepting the embedded key. */
export async function startEmbeddedSandbox(opts: EmbeddedSandboxOptions): Promise<EmbeddedSandbox> {
  const app = await buildSandboxApp({
    dataDir: join(opts.dataDir, 'sandbox'),
    apiKeys: [EMBEDDED_SANDBOX_KEY],
    seed: opts.seed,
    population: opts.population,
    logger: opts.logger ?? false,
  });
  try {
    await app.listen({ host: '127.0.0.1', port: opts.port ?? 0 });
  } catch (err) {
    await app.close();
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, apiKey: EMBEDDED_SANDBOX_KEY };
}
