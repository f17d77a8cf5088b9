import type Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';

export interface HealthDeps {
  db: Database.Database;
  /** true when the upstream answers anything at its base address */
  upstreamReachable: () => Promise<boolean>;
}

/** Take and release SQLite's write lock: proves the file is writable without changing it. */
function databaseWritable(db: Database.Database): boolean {
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return true;
  } catch {
    return false;
  }
}

/** `/healthz`: the process answers. `/readyz`: the upstream is reachable and the database writable. */
export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  app.get('/healthz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/readyz', async (_request, reply) => {
    const checks = {
      upstream: await deps.upstreamReachable(),
      database: databaseWritable(deps.db),
    };
    reply.header('cache-control', 'no-store');
    if (checks.upstream && checks.database) return { status: 'ready', checks };
    const failing = Object.entries(checks)
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    return reply.code(503).send({
      error: `Not ready: ${failing.join(' and ')} failing`,
      code: 'not_ready',
      hint: 'The upstream must answer at CARRIER_API_BASE_URL and DATA_DIR must be writable.',
      checks,
    });
  });
}
