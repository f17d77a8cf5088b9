import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { registerAuth } from './auth.ts';
import { DEFAULT_POPULATION, DEFAULT_SEED } from './config.ts';
import { createClock } from './clock.ts';
import type { MonitoringModule, SandboxContext } from './context.ts';
import { createDataset } from './data/index.ts';
import { openSandboxDb } from './db.ts';
import { SandboxError, sendError, toSandboxError } from './errors.ts';
import { FaultStore, registerFaults } from './faults.ts';
import { createLedger } from './ledger.ts';
import { createMonitoring } from './monitoring/index.ts';
import { LIVE_LIMITS_PER_MINUTE, RateLimiter, registerRateLimit } from './rate-limit.ts';
import { registerAdminRoutes } from './routes/admin.ts';
import { registerAutocompleteRoute } from './routes/autocomplete.ts';
import type { ServiceDeps } from './routes/deps.ts';
import { registerFmcsaRoute } from './routes/fmcsa.ts';
import { registerProfileRoutes } from './routes/profile.ts';

/** Current (/v2) and legacy (/api/v2) deployments: same routes, same shapes. */
const SERVICE_PREFIXES = ['/v2', '/api/v2'] as const;
const BODY_LIMIT_BYTES = 1024 * 1024;

export interface SandboxAppOptions {
  /** Directory of the state file sandbox.sqlite (created if missing). */
  dataDir: string;
  /** Accepted sandbox keys (sk_test_...). */
  apiKeys: readonly string[];
  seed?: number;
  population?: number;
  /** 'live' enforces the live per-minute limits per key; default 'off'. */
  rateLimits?: 'off' | 'live';
  logger?: FastifyServerOptions['logger'];
}

/** A ready (not listening) Fastify instance; `close()` also closes the state database. */
export type SandboxApp = FastifyInstance & { sandbox: SandboxContext };

function createFastify(logger: SandboxAppOptions['logger']): FastifyInstance {
  return Fastify({
    logger: logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: false,
    exposeHeadRoutes: false,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    frameworkErrors: (error, _request, reply) => {
      void sendError(reply, toSandboxError(error));
    },
  });
}

/** Methods registered per path, so an unknown method on a known path can answer 405. */
function trackRoutes(app: FastifyInstance): Map<string, Set<string>> {
  const methods = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const list = Array.isArray(route.method) ? route.method : [route.method];
    const known = methods.get(route.url) ?? new Set<string>();
    for (const method of list) known.add(method);
    methods.set(route.url, known);
  });
  return methods;
}

function notFoundOrWrongMethod(methods: Map<string, Set<string>>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const path = (request.url.split('?')[0] ?? '/')
      .replace(/\/{2,}/g, '/')
      .replace(/(.)\/+$/, '$1');
    const allowed = methods.get(path);
    if (allowed) {
      const list = [...allowed].sort().join(', ');
      return sendError(
        reply,
        new SandboxError(
          405,
          'method_not_allowed',
          `${request.method} is not allowed on ${path}`,
          `Use ${list}.`,
          { allow: list },
        ),
      );
    }
    return sendError(
      reply,
      new SandboxError(
        404,
        'not_found',
        `No endpoint at ${request.method} ${path.slice(0, 100)}`,
        'Service endpoints live under /v2/... (or the legacy /api/v2/...); see docs/sandbox.md.',
      ),
    );
  };
}

function handleErrors(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const sandboxError = toSandboxError(error as Parameters<typeof toSandboxError>[0]);
    if (sandboxError.status >= 500) request.log.error({ err: error }, 'unexpected sandbox error');
    return sendError(reply, sandboxError);
  });
}

async function registerRoutes(
  app: FastifyInstance,
  deps: ServiceDeps,
  monitoring: MonitoringModule,
): Promise<void> {
  for (const prefix of SERVICE_PREFIXES) {
    registerProfileRoutes(app, deps, prefix);
    registerFmcsaRoute(app, deps, prefix);
    registerAutocompleteRoute(app, deps, prefix);
    await monitoring.registerRoutes(app, { prefix });
  }
}

/** Build the sandbox: dataset, state database, monitoring, hooks and routes; does not listen. */
export async function buildSandboxApp(opts: SandboxAppOptions): Promise<SandboxApp> {
  const dataset = await createDataset({
    seed: opts.seed ?? DEFAULT_SEED,
    population: opts.population ?? DEFAULT_POPULATION,
  });
  const db = openSandboxDb(opts.dataDir);
  const app = createFastify(opts.logger);
  app.addHook('onClose', async () => {
    db.close();
  });
  try {
    const clock = createClock(db);
    const ledger = createLedger(db);
    const faults = new FaultStore();
    const ctx: SandboxContext = { db, clock, ledger, dataset, faults };
    const monitoring = createMonitoring(ctx);
    monitoring.init();
    const limiter =
      opts.rateLimits === 'live' ? new RateLimiter(LIVE_LIMITS_PER_MINUTE) : undefined;

    const methods = trackRoutes(app);
    registerAuth(app, new Set(opts.apiKeys));
    registerFaults(app, faults);
    if (limiter) registerRateLimit(app, limiter);
    handleErrors(app);
    app.setNotFoundHandler(notFoundOrWrongMethod(methods));
    await registerRoutes(app, { ctx, monitoring }, monitoring);
    registerAdminRoutes(app, { clock, ledger, faults, monitoring, limiter });
    app.decorate('sandbox', ctx);
    await app.ready();
    return app as SandboxApp;
  } catch (err) {
    await app.close();
    throw err;
  }
}
