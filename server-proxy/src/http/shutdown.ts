import type { FastifyInstance } from 'fastify';

/**
 * Close `app` on SIGINT/SIGTERM: in-flight requests finish, then the process exits 0; a close that
 * fails, or takes longer than `graceMs`, exits 1. Shared by the proxy and the sandbox entries.
 */
export function closeOnSignals(app: FastifyInstance, name: string, graceMs = 10_000): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, closing the ${name}`);
    setTimeout(() => process.exit(1), graceMs).unref();
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
}

/** The address a server listens on, as a URL (IPv6 hosts in brackets). */
export function listenUrl(app: FastifyInstance, host: string, fallbackPort: number): string {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : fallbackPort;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
