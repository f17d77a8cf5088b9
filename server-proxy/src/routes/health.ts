import type Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import type { SqlEngine } from '../sql/engine.ts';
import { storageOf, type StorageStatus } from '../storage.ts';
import { errorBody } from '../http/api-error.ts';

export interface HealthDeps {
  db: Database.Database;
  /** true when the upstream answers anything at its base address */
  upstreamReachable: () => Promise<boolean>;
  /** DATABASE_URL's engine (the sessions): ready only while it answers `SELECT 1` */
  postgres?: Pick<SqlEngine, 'ping'>;
  /** how long an upstream probe's result is reused (default 30 s) */
  upstreamCacheMs?: number;
  /** clock (tests) */
  now?: () => number;
}

const UPSTREAM_PROBE_CACHE_MS = 30_000;
/** A failed probe is reused for less time, so a proxy that starts before its upstream gets ready soon. */
const UPSTREAM_FAILED_PROBE_CACHE_MS = 5000;
/** A database probe's result is reused this long: /readyz is open to anyone. */
const DATABASE_PROBE_CACHE_MS = 1000;

/**
 * The upstream's reachability, probed at most once per `ttlMs` (a failure: per
 * `min(ttlMs, 5 s)`) and never twice at once: /readyz is open to anyone, and must not turn each
 * of its requests into a request to the service.
 */
function cachedProbe(
  probe: () => Promise<boolean>,
  ttlMs: number,
  now: () => number = Date.now,
): () => Promise<boolean> {
  let last: { ok: boolean; at: number } | undefined;
  let inFlight: Promise<boolean> | undefined;
  const fresh = (result: { ok: boolean; at: number }) =>
    now() - result.at < (result.ok ? ttlMs : Math.min(ttlMs, UPSTREAM_FAILED_PROBE_CACHE_MS));
  return () => {
    if (last && fresh(last)) return Promise.resolve(last.ok);
    inFlight ??= probe()
      .catch(() => false)
      .then((ok) => {
        last = { ok, at: now() };
        inFlight = undefined;
        return ok;
      });
    return inFlight;
  };
}

/**
 * Take and release SQLite's write lock: proves the file takes writes without changing it. It does
 * not wait for another connection's lock (busy_timeout 0 for the probe): a held lock is reported,
 * and the event loop is not blocked for busy_timeout by each /readyz.
 */
function databaseWritable(db: Database.Database): boolean {
  if (!db.open) return false;
  const busy = db.pragma('busy_timeout', { simple: true }) as number;
  try {
    db.pragma('busy_timeout = 0');
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return true;
  } catch {
    if (db.inTransaction) db.exec('ROLLBACK');
    return false;
  } finally {
    db.pragma(`busy_timeout = ${busy}`);
  }
}

/**
 * Is the database usable: the file at its path is the one open (not deleted or replaced), the
 * proxy's last write succeeded, and the write lock can be taken now.
 */
function databaseCheck(db: Database.Database, now: () => number) {
  const storage = storageOf(db);
  let probe: { ok: boolean; at: number } | undefined;
  return (): { ok: boolean; status: StorageStatus } => {
    const status = storage.status();
    if (!status.ok) return { ok: false, status };
    if (!probe || now() - probe.at >= DATABASE_PROBE_CACHE_MS) {
      probe = { ok: databaseWritable(db), at: now() };
    }
    return { ok: probe.ok, status };
  };
}

/** `/healthz`: the process answers. `/readyz`: the upstream is reachable and the database writable. */
export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  const now = deps.now ?? Date.now;
  const storage = storageOf(deps.db);
  storage.setLog(app.log);
  app.addHook('onClose', () => {
    storage.stop();
    const { queuedWrites } = storage.status();
    if (queuedWrites > 0) {
      app.log.error({ queuedWrites }, 'storage: rows could not be written before closing');
    }
  });
  const upstreamReachable = cachedProbe(
    deps.upstreamReachable,
    deps.upstreamCacheMs ?? UPSTREAM_PROBE_CACHE_MS,
    now,
  );
  const database = databaseCheck(deps.db, now);
  const { postgres } = deps;
  const postgresAnswers =
    postgres && cachedProbe(() => postgres.ping().then(() => true), DATABASE_PROBE_CACHE_MS, now);
  app.get('/healthz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/readyz', async (_request, reply) => {
    const db = database();
    const checks: Record<string, boolean> = {
      upstream: await upstreamReachable(),
      database: db.ok,
      ...(postgresAnswers && { postgres: await postgresAnswers() }),
    };
    reply.header('cache-control', 'no-store');
    if (Object.values(checks).every(Boolean)) return { status: 'ready', checks };
    const failing = Object.entries(checks)
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    return reply.code(503).send({
      ...errorBody(
        'not_ready',
        `Not ready: ${failing.join(' and ')} failing`,
        postgresAnswers
          ? 'The upstream must answer at CARRIER_API_BASE_URL, DATA_DIR must be writable and the PostgreSQL of DATABASE_URL must answer.'
          : 'The upstream must answer at CARRIER_API_BASE_URL and DATA_DIR must be writable.',
      ),
      checks,
      storage: {
        file: db.status.file,
        failing: db.status.failing,
        queuedWrites: db.status.queuedWrites,
        droppedRows: db.status.droppedRows,
      },
    });
  });
}
