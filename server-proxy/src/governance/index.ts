import cookie from '@fastify/cookie';
import type Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { ProxyConfig } from '../context.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { RedisLoginLimits, userRateLimitNamespace } from '../team/redis-login-limit.ts';
import { addAccessControl, createIdentify } from './access.ts';
import { createAuditTrail, type AuditTrail } from './audit.ts';
import { addCsrfCheck } from './csrf.ts';
import { addHostCheck } from './host-check.ts';
import { registerLocalRoutes } from './local-routes.ts';
import { inMemoryLoginLimits } from './login-limit.ts';
import { createPasswordCheck } from './passwords.ts';
import { declareRouteRoles } from './roles.ts';
import { registerSecurityHeaders, registerUserRateLimit } from './security.ts';
import { registerSessionRoutes } from './session-routes.ts';
import { DEFAULT_SESSION_TTL_MS, createSessionStore } from './sessions.ts';
import { createSpendLedger, type SpendLedger } from './spend.ts';
import { registerTokenRoutes } from './token-routes.ts';
import { createTokenStore } from './tokens.ts';

export { CSRF_HEADER, CSRF_HEADER_VALUE } from './csrf.ts';
export interface GovernanceDeps {
  config: ProxyConfig;
  db: Database.Database;
  /** clock for sessions, usage and estimates (tests move it) */
  now?: () => Date;
  sessionTtlMs?: number;
  /**
   * REDIS_URL's client: the failed sign-in limits and the per-user /api limit are then shared by
   * every replica of the key (docs/deployment.md); absent, they are kept in this process.
   */
  redis?: Redis;
  /**
   * The engine of the shared state (PostgreSQL with DATABASE_URL, shared by every replica): the
   * sessions, the spend ledger and the audit log. Absent, an engine over `db` (SQLite).
   */
  sql?: SqlEngine;
}

/** What the core gets back: the contract's spend meter and audit log, with their read sides. */
export interface GovernanceParts {
  spend: SpendLedger;
  audit: AuditTrail;
  /**
   * Write queued audit and cache-hit rows now: the audit's before it returns, the ledger's (and
   * its deferred settlements) by the time the promise resolves. Never rejects.
   */
  flush(): Promise<void>;
}

/**
 * Register governance on the ROOT instance, before the core's routes: security headers, cookies,
 * the access-control hook (sets request.user), the CSRF check, the per-user /api rate limit, the
 * /api/local/* routes and the /login page. Throws on a bad users file or trusted-proxy list.
 */
export async function registerGovernance(
  app: FastifyInstance,
  deps: GovernanceDeps,
): Promise<GovernanceParts> {
  const { config, db, redis } = deps;
  const { apiKey } = config.upstream;
  const now = deps.now ?? (() => new Date());
  const sql = deps.sql ?? createSqliteEngine(db);
  const sessions = createSessionStore(sql, deps.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS);
  const accounts =
    config.auth.kind === 'password' ? await createPasswordCheck(config.auth) : undefined;
  const tokens = createTokenStore(sql);
  const identify = createIdentify(
    config.auth,
    sessions,
    now,
    (name) => accounts?.roleOf(name),
    tokens,
  );
  const spend = createSpendLedger(sql, {
    mode: config.mode,
    monthlyBudgetUsd: config.monthlyBudgetUsd,
    db,
  });
  const audit = createAuditTrail(db, sql);

  // Every route under /api registered from here on gets its role from ROUTE_ROLES, or fails.
  declareRouteRoles(app);
  // First: a request for a Host we do not serve (DNS rebinding) reaches nothing else.
  addHostCheck(app, config);
  await app.register(cookie);
  await registerSecurityHeaders(app, config.secureCookies);
  addAccessControl(app, config.auth, identify);
  addCsrfCheck(app);
  await registerUserRateLimit(
    app,
    config.userRateLimitPerMinute,
    redis && { redis, nameSpace: userRateLimitNamespace(apiKey) },
    config.tokenRateLimitPerMinute,
  );

  await app.register(async (scope) => {
    registerLocalRoutes(scope, { config, spend, audit, now });
    registerTokenRoutes(scope, { tokens, audit, now });
    registerSessionRoutes(scope, {
      auth: config.auth,
      secureCookies: config.secureCookies,
      sessions,
      limiter: redis ? new RedisLoginLimits(redis, apiKey) : inMemoryLoginLimits(),
      accounts,
      audit,
      now,
    });
  });
  const flush = async () => {
    // On SQLite the audit rows are written before the first await (readers of the file that
    // call this without awaiting it still see them).
    const audited = audit.flush();
    await spend.flush();
    await audited;
  };
  return { spend, audit, flush };
}
