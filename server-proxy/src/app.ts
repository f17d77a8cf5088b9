/**
 * The proxy's app factory: a ready Fastify instance (not listening) that holds the key, mirrors the
 * service under /api/v2, registers governance (access control, spend, audit, /api/local) and serves
 * the built SPA. With no upstream configured it starts the embedded sandbox and forwards to it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCompress from '@fastify/compress';
import type Database from 'better-sqlite3';
import type { Redis } from 'ioredis';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { registerAlertRoutes, type AlertRouteDeps, type AlertService } from './alerts/routes.ts';
import { EndpointBuckets, type UpstreamBuckets } from './buckets.ts';
import { registerBulkRoutes } from './bulk/routes.ts';
import { ResponseCache } from './cache.ts';
import type { Governance, ProxyConfig, RegisterGovernance } from './context.ts';
import { openProxyDb } from './db.ts';
import { startEmbeddedSandbox, type EmbeddedSandbox } from './embedded-sandbox.ts';
import { ProxyError, sendProxyError, toProxyError } from './errors.ts';
import { registerGovernance } from './governance/index.ts';
import { DEFAULT_RETENTION, startRetention } from './governance/retention.ts';
import { loggerOptions, requestId, type LogStream } from './logging.ts';
import { registerApiDocsRoute } from './routes/api-docs.ts';
import { registerHealthRoutes } from './routes/health.ts';
import { MIRROR_BODY_LIMIT, registerMirrorRoutes } from './routes/mirror.ts';
import { registerTenderRoutes } from './tender/routes.ts';
import { registerMonitoringViewRoute } from './routes/monitoring-view.ts';
import { collectApiRoutes, registerOpenApiRoute } from './routes/openapi.ts';
import { registerNameLookupRoute } from './names/lookup.ts';
import { createNameRecorder, type NameRecorder } from './names/recorder.ts';
import { createCarrierNameStore } from './names/store.ts';
import { registerProfileRoutes } from './routes/profile-view.ts';
import type { SqlEngine } from './sql/engine.ts';
import { createSqliteEngine } from './sql/sqlite.ts';
import { openPostgres } from './sql/postgres.ts';
import { registerSpa, type Spa } from './static.ts';
import { registerMonitoringRoutes } from './triage/routes.ts';
import { registerVettingRoutes, type VettingRouteDeps } from './vetting/routes.ts';
import { loadSigningKey } from './vetting/signing.ts';
import { createRedisClient, RedisBuckets, watchRedis } from './team/redis-buckets.ts';
import { SharedResponseCache } from './team/redis-cache.ts';
import { UpstreamClient } from './upstream.ts';

export interface ProxyAppOptions {
  /** where log lines go (default stdout); the key is scrubbed before they get there */
  logStream?: LogStream;
  /** governance to register (default: ./governance/index.ts) */
  registerGovernance?: RegisterGovernance;
  /** database opener (default: ./db.ts) */
  openDb?: (file: string) => Database.Database;
  /** seed/population of the embedded sandbox (tests use a small population) */
  sandbox?: { seed?: number; population?: number };
  /** alerts: another sender, clock, delivery retry or webhook-host DNS (tests) */
  alerts?: Pick<AlertRouteDeps, 'retryBaseMs' | 'send' | 'now' | 'resolve'>;
  /** vetting: another clock (tests of re-vet dates) */
  vetting?: Pick<VettingRouteDeps, 'now'>;
}

interface ProxyState {
  /** the configuration in effect (embedded sandbox: its address and key filled in) */
  config: ProxyConfig;
  cache: ResponseCache;
  upstream: UpstreamClient;
  governance: Governance;
  /** keeps the carrier names the service's answers carry (names/) */
  names: NameRecorder;
  sandbox?: EmbeddedSandbox;
  alerts?: AlertService;
}

export type ProxyApp = FastifyInstance & { proxy: ProxyState };

/** The longest a browser request may take: queue wait, three attempts and their retry waits. */
function requestTimeoutMs(config: ProxyConfig): number {
  const { timeoutMs, retryDelayMs = 5000 } = config.upstream;
  return config.maxQueueWaitMs * 2 + timeoutMs * 3 + retryDelayMs * 2 + 30_000;
}

function createFastify(config: ProxyConfig, opts: ProxyAppOptions): FastifyInstance {
  return Fastify({
    logger: loggerOptions(config.logLevel, config.upstream.apiKey, opts.logStream),
    genReqId: requestId,
    requestIdHeader: false,
    bodyLimit: MIRROR_BODY_LIMIT,
    exposeHeadRoutes: false,
    // Fastify's default logs two lines per request; we log one, when the response is done.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    requestTimeout: requestTimeoutMs(config),
    trustProxy: config.auth.kind === 'trusted-header' ? config.auth.trustedProxies : false,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    frameworkErrors: (error, _request, reply) => {
      void sendProxyError(reply, toProxyError(error));
    },
  });
}

/** Methods registered per exact path, so a wrong method on a known path answers 405. */
function trackRoutes(app: FastifyInstance): Map<string, Set<string>> {
  const methods = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const known = methods.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) known.add(method);
    methods.set(route.url, known);
  });
  return methods;
}

function pathOf(url: string): string {
  return (url.split('?')[0] ?? '/').replace(/\/{2,}/g, '/').replace(/(.)\/+$/, '$1');
}

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** A client route of the SPA: a GET of a path that is not the API and does not name a file. */
function isClientRoute(request: FastifyRequest, path: string): boolean {
  const lastSegment = path.split('/').at(-1) ?? '';
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !isApiPath(path) &&
    !path.startsWith('/assets/') &&
    !lastSegment.includes('.')
  );
}

function notFound(methods: Map<string, Set<string>>, spa: Spa) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const path = pathOf(request.url);
    const allowed = methods.get(path);
    if (allowed && !allowed.has(request.method)) {
      const list = [...allowed].sort().join(', ');
      return sendProxyError(
        reply,
        new ProxyError(
          405,
          'method_not_allowed',
          `${request.method} is not allowed on ${path}`,
          `Use ${list}.`,
          {
            allow: list,
          },
        ),
      );
    }
    if (spa.built && isClientRoute(request, path)) return spa.sendIndex(reply);
    const hint = isApiPath(path)
      ? 'The service is mirrored under /api/v2/ (profile, profile-lite, profile-fmcsa, autocomplete, monitoring/...); see docs/proxy.md.'
      : spa.built
        ? 'No such file.'
        : 'The dashboard is not built; run `npm run build` (npm start does it for you).';
    return sendProxyError(
      reply,
      new ProxyError(404, 'not_found', `No route at ${request.method} ${path.slice(0, 100)}`, hint),
    );
  };
}

function handleErrors(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const proxyError = toProxyError(error);
    if (proxyError.status >= 500) request.log.error({ err: error }, 'unexpected error');
    return sendProxyError(reply, proxyError);
  });
}

/**
 * In-process buckets and no shared cache, or with REDIS_URL (one client for all) the Redis-held
 * buckets and response cache every replica of the key shares, and the client governance keeps its
 * sign-in and per-user limits in.
 */
function coordination(
  app: FastifyInstance,
  config: ProxyConfig,
): { buckets: UpstreamBuckets; sharedCache?: SharedResponseCache; redis?: Redis } {
  if (config.redisUrl === undefined) {
    return { buckets: new EndpointBuckets(config.rateLimits, config.maxQueueWaitMs) };
  }
  const redis = createRedisClient(config.redisUrl);
  const log = {
    warn: (line: string) => app.log.warn(line),
    info: (line: string) => app.log.info(line),
  };
  watchRedis(redis, log);
  app.addHook('onClose', () => redis.disconnect());
  const { apiKey } = config.upstream;
  return {
    redis,
    buckets: new RedisBuckets(redis, apiKey, config.rateLimits, config.maxQueueWaitMs),
    sharedCache: new SharedResponseCache(redis, apiKey, {
      // one upstream timeout and a margin, renewed while the holder's call (queue, retries) lasts
      lockMs: config.upstream.timeoutMs + 2000,
      // a waiting replica gives up (503) just before its own request would time out
      maxWaitMs: requestTimeoutMs(config) - 5000,
      log,
    }),
  };
}

/** The configuration with the embedded sandbox's address and key as the upstream. */
function withSandbox(config: ProxyConfig, sandbox: EmbeddedSandbox | undefined): ProxyConfig {
  if (!sandbox) return config;
  return {
    ...config,
    upstream: { ...config.upstream, baseUrl: sandbox.url, apiKey: sandbox.apiKey },
  };
}

async function startSandboxIfEmbedded(config: ProxyConfig, opts: ProxyAppOptions) {
  if (!config.embeddedSandbox) return undefined;
  return startEmbeddedSandbox({
    dataDir: config.dataDir,
    port: config.embeddedSandboxPort,
    ...opts.sandbox,
    logger: opts.logStream
      ? { level: 'warn', stream: opts.logStream }
      : { level: config.logLevel === 'silent' ? 'silent' : 'warn' },
  });
}

async function registerParts(
  app: FastifyInstance,
  config: ProxyConfig,
  db: Database.Database,
  opts: ProxyAppOptions,
  sql: SqlEngine | undefined,
): Promise<ProxyState> {
  const methods = trackRoutes(app);
  // every /api route, for GET /api/openapi.json (routes/openapi.ts)
  const apiRoutes = collectApiRoutes(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        user: request.user?.id,
      },
      'request completed',
    );
  });
  handleErrors(app);
  await app.register(fastifyCompress, { global: true, threshold: 1024 });
  const { buckets, sharedCache, redis } = coordination(app, config);
  // One engine for every store: PostgreSQL with DATABASE_URL, else SQLite over the proxy file.
  const engine = sql ?? createSqliteEngine(db);
  const governance = await (opts.registerGovernance ?? registerGovernance)(app, {
    config,
    db,
    redis,
    sql: engine,
  });
  // The ledger and the audit are pruned where they live (PostgreSQL with DATABASE_URL).
  const retention = startRetention({ db, sql: engine }, config.retention ?? DEFAULT_RETENTION, {
    onError: (err) =>
      app.log.warn({ err }, 'retention: pruning old records failed; retrying later'),
    onPruned: (result) => {
      if (result.auditRows + result.freeLedgerRows + result.pricedLedgerRows > 0) {
        app.log.info(result, 'retention: pruned old records');
      }
    },
  });
  app.addHook('onClose', () => retention.stop());
  const cache = new ResponseCache(config.cache.maxBytes);
  const upstream = new UpstreamClient(
    {
      ...config.upstream,
      retryDelayMs: config.upstream.retryDelayMs ?? 5000,
      maxBackoffWaitMs: config.maxQueueWaitMs,
      maxRetryAfterMs: config.upstream.maxRetryAfterMs ?? 120_000,
      ...(config.upstream.circuitOpenMs === undefined
        ? {}
        : { circuit: { openMs: config.upstream.circuitOpenMs } }),
    },
    buckets,
  );
  app.addHook('onClose', () => upstream.close());
  // Every carrier name the service's answers carry, kept in the proxy's store (names/).
  const nameStore = createCarrierNameStore(engine);
  const names = createNameRecorder(nameStore, {
    onError: (err) => app.log.warn({ err }, 'names: keeping carrier names failed'),
  });
  const mirror = registerMirrorRoutes(app, {
    config,
    upstream,
    cache,
    sharedCache,
    governance,
    names,
  });
  registerNameLookupRoute(app, {
    config,
    mirror,
    spend: governance.spend,
    store: nameStore,
    recorder: names,
  });
  registerMonitoringRoutes(app, { db, mirror, sql: engine });
  const signingKey = loadSigningKey({
    configuredFile: config.decisionSigningKeyFile,
    dataDir: config.dataDir,
    warn: (line) => app.log.warn(line),
  });
  registerVettingRoutes(app, {
    db,
    sql: engine,
    mirror,
    signingKey,
    flushAudit: () => governance.flush(),
    now: opts.vetting?.now,
  });
  registerBulkRoutes(app, {
    config,
    db,
    sql: engine,
    mirror,
    spend: governance.spend,
    flush: () => governance.flush(),
    log: app.log,
  });
  const alerts = registerAlertRoutes(app, {
    config,
    db,
    sql: engine,
    mirror,
    log: app.log,
    signingKey,
    ...opts.alerts,
  });
  registerTenderRoutes(app, { config, db, sql: engine, mirror, spend: governance.spend });
  registerProfileRoutes(app, { mirror, profileTtlMs: config.cache.profileTtlMs });
  registerMonitoringViewRoute(app, { mirror });
  registerHealthRoutes(app, {
    db,
    upstreamReachable: () => upstream.reachable(),
    ...(sql && { postgres: sql }),
  });
  registerApiDocsRoute(app, registerOpenApiRoute(app, apiRoutes));
  const spa = await registerSpa(app, config.staticDir);
  app.setNotFoundHandler(notFound(methods, spa));
  return { config, cache, upstream, governance, names, alerts };
}

/** Build the proxy (and the embedded sandbox when configured); does not listen. */
export async function buildProxyApp(
  config: ProxyConfig,
  opts: ProxyAppOptions = {},
): Promise<ProxyApp> {
  mkdirSync(config.dataDir, { recursive: true });
  const sandbox = await startSandboxIfEmbedded(config, opts);
  const effective = withSandbox(config, sandbox);
  const app = createFastify(effective, opts);
  let db: Database.Database | undefined;
  let sql: SqlEngine | undefined;
  let state: ProxyState | undefined;
  app.addHook('onClose', async () => {
    await state?.governance.flush();
    await state?.names.close();
    db?.close();
    await sql?.close();
    await sandbox?.app.close();
  });
  try {
    db = (opts.openDb ?? openProxyDb)(join(config.dataDir, 'proxy.sqlite'));
    // DATABASE_URL: the sessions and triage in PostgreSQL (its schema brought up to date first).
    if (config.databaseUrl !== undefined) sql = await openPostgres(config.databaseUrl, app.log);
    state = await registerParts(app, effective, db, opts, sql);
    app.decorate('proxy', { ...state, sandbox });
    await app.ready();
    return app as ProxyApp;
  } catch (err) {
    await app.close();
    throw err;
  }
}
