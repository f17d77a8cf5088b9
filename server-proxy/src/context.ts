/**
 * Contracts between the proxy's parts: the forwarding core (config, app factory, upstream client,
 * validation, cache, token buckets, mirror routes, static SPA) and governance (database, spend meter,
 * budget, audit, access control, security headers, /api/local routes).
 */
import type Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Role } from '../../src/lib/roles.ts';
import type { Endpoint } from '../../src/lib/service/endpoints.ts';
import type { AlertsConfig } from './alerts/config.ts';
import type { SqlEngine } from './sql/engine.ts';

export type ServiceMode = 'sandbox' | 'test' | 'live';

/** The seven mirrored endpoints of the service, named by their path after `/v2/` (the contract's). */
export type { Endpoint };

export type AuthConfig =
  | { kind: 'none' }
  | { kind: 'password'; usersFile?: string; password?: string }
  | {
      kind: 'trusted-header';
      header: string;
      trustedProxies: string[];
      /** TRUSTED_ROLE_HEADER: the header carrying the role (default x-forwarded-role) */
      roleHeader?: string;
    };

export interface ProxyConfig {
  host: string;
  port: number;
  /** sandbox = embedded sandbox; test/live from the key prefix sk_test_/sk_live_ */
  mode: ServiceMode;
  upstream: {
    /** base address without /v2 (for the embedded sandbox: its loopback URL, known after start) */
    baseUrl: string;
    apiKey: string;
    legacy: boolean;
    timeoutMs: number;
    /** wait before retrying an upstream 502/503/connection reset (default 5000) */
    retryDelayMs?: number;
    /**
     * longest upstream 429 pause honoured, whatever Retry-After says
     * (UPSTREAM_MAX_RETRY_AFTER_SECONDS, default 120 s)
     */
    maxRetryAfterMs?: number;
    /**
     * how long the circuit breaker stops calling an endpoint after 5 failures in a row
     * (UPSTREAM_CIRCUIT_OPEN_SECONDS, default 30 s)
     */
    circuitOpenMs?: number;
  };
  /**
   * Host header values accepted besides the loopback names (lower case, `host` or `host:port`):
   * ALLOWED_HOSTS plus the host of PUBLIC_URL. Any other Host is refused (DNS rebinding).
   */
  allowedHosts?: string[];
  /** PUBLIC_URL: the origin users reach the dashboard at, when it is not loopback */
  publicUrl?: string;
  /**
   * ALLOW_INSECURE_HTTP: password mode may listen on a non-loopback HOST without SECURE_COOKIES
   * (plain HTTP; passwords and session cookies travel in clear). Off by default.
   */
  allowInsecureHttp?: boolean;
  /**
   * how long audit and ledger rows, and the phone/e-mail/contact name of tender checks, are kept
   * (see docs/proxy-security.md, "Retention")
   */
  retention?: {
    auditDays: number;
    freeLedgerDays: number;
    pricedLedgerMonths: number;
    tenderContactDays?: number;
  };
  /** true when no key and no base URL are configured: the proxy starts the sandbox in-process */
  embeddedSandbox: boolean;
  /**
   * loopback port of the embedded sandbox (0 = any free port). A fixed port lets e2e tests reach its
   * test-only endpoints (/__sandbox/faults, /__sandbox/advance) directly.
   */
  embeddedSandboxPort: number;
  dataDir: string;
  /**
   * DECISION_SIGNING_KEY_FILE: the Ed25519 private key (PEM) decision records, receipts and
   * checkpoints are signed with; absent, one is made in dataDir (docs/vetting.md)
   */
  decisionSigningKeyFile?: string | undefined;
  monthlyBudgetUsd?: number;
  /** ORG_NAME: the organisation named at the top of a printed decision record */
  orgName?: string | undefined;
  auth: AuthConfig;
  /** true when the proxy is reached over TLS (cookies get Secure) */
  secureCookies: boolean;
  cache: { profileTtlMs: number; autocompleteTtlMs: number; maxBytes: number };
  /** per-endpoint requests per minute enforced by token buckets (live keys) */
  rateLimits: Record<Endpoint, number> | undefined;
  /** a request that would wait longer than this in a bucket gets 429 at once */
  maxQueueWaitMs: number;
  /**
   * set: the upstream rate limits, the response cache, the failed sign-in limits and the per-user
   * /api limit live in this Redis, shared by every replica (docs/deployment.md)
   */
  redisUrl?: string;
  /**
   * DATABASE_URL (postgres:// or postgresql://): set, the state every replica shares (sessions,
   * triage, the spend ledger and its monthly budget, the audit log, …) lives in this PostgreSQL
   * (docs/deployment.md) instead of DATA_DIR's SQLite file
   */
  databaseUrl?: string;
  /** per-user requests per minute on /api (@fastify/rate-limit) */
  userRateLimitPerMinute: number;
  /**
   * requests per minute of each API token on /api, in place of the per-user limit (absent: the
   * per-user limit; docs/api.md)
   */
  tokenRateLimitPerMinute?: number;
  /** folder of the built SPA (dist/) */
  staticDir: string;
  logLevel: string;
  /** scheduled polls and alert destinations (docs/alerts.md); absent = no scheduled polls */
  alerts?: AlertsConfig;
}

export interface RequestUser {
  id: string;
  name: string;
  /** what the user may do (docs/proxy-security.md, "Roles") */
  role: Role;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** set by governance's access-control hook; 'local' user when DASHBOARD_AUTH=none */
    user?: RequestUser;
  }
}

/** One call that may cost money: the endpoint and the DOT numbers it concerns (may be unknown). */
export interface BillableCall {
  endpoint: Endpoint;
  dots: string[];
  at: Date;
  /**
   * When `dots` is empty (a search whose DOTs are unknown until the answer): the most DOTs the
   * answer may serve, i.e. the page size. The call is quoted and reserved at that worst case.
   */
  maxUnits?: number;
}

/** Spend reserved for a call before it is sent (pending ledger rows), settled or released after. */
export interface SpendReservation {
  readonly id: string;
  readonly costUsd: number;
}

export type ReserveDecision =
  | { ok: true; reservation: SpendReservation }
  | { ok: false; costUsd: number; spentUsd: number; budgetUsd: number };

export type BudgetDecision =
  | { ok: true; costUsd: number }
  | { ok: false; costUsd: number; spentUsd: number; budgetUsd: number };

/**
 * The spend ledger as the core uses it. Every method is asynchronous: the ledger may live in
 * PostgreSQL, shared by every replica of the key (DATABASE_URL), or in the proxy's SQLite file.
 */
export interface SpendMeter {
  /** Cost of the call if it were made now, with unique-DOT-per-month semantics, and the budget verdict. */
  check(call: BillableCall): Promise<BudgetDecision>;
  /** Record a call that happened (cacheHit calls are free and recorded as such). Never rejects. */
  record(call: BillableCall & { user: string; cacheHit: boolean }): Promise<void>;
  /**
   * Before a call that may bill is sent: check the budget and write its intent (pending rows at the
   * quote) in one transaction, which holds the month's lock against every replica. Refused: the
   * budget figures. Rejects with a 503 `storage_unavailable` ProxyError when the intent cannot be
   * written (then nothing may be sent).
   */
  reserve(call: BillableCall & { user: string }): Promise<ReserveDecision>;
  /** The service answered with success: replace the intent by the rows it served. Never rejects. */
  settle(reservation: SpendReservation, call: BillableCall & { user: string }): Promise<void>;
  /** The call failed before it could reach the service: drop the intent. Never rejects. */
  release(reservation: SpendReservation): Promise<void>;
  /** The call failed after it may have reached the service: keep the intent as spent. Never rejects. */
  markUncertain(reservation: SpendReservation): Promise<void>;
}

export interface AuditEntry {
  at: Date;
  user: string;
  method: string;
  endpoint: string;
  searchKey?: string;
  searchValue?: string;
  dot?: string;
  cacheHit: boolean;
  billable: boolean;
  status: number;
}

export interface AuditLog {
  record(entry: AuditEntry): void;
}

/** What governance hands back to the core after registering its hooks and /api/local routes. */
export interface Governance {
  spend: SpendMeter;
  audit: AuditLog;
  /**
   * Write rows governance queued (audit, free cache-hit records, deferred settlements); called
   * before the database closes. The audit rows are written before it returns; the ledger's by
   * the time the promise resolves. Never rejects.
   */
  flush(): Promise<void>;
}

/**
 * Exported by ./governance/index.ts as `registerGovernance`. Registers, on the ROOT instance:
 * security headers, cookies/sessions, the access-control hook (sets request.user), same-origin/CSRF
 * checks for state-changing requests, the per-user /api rate limit, and the /api/local/* routes.
 */
export type RegisterGovernance = (
  app: FastifyInstance,
  /**
   * `redis`: REDIS_URL's client, for the limits governance shares with the other replicas;
   * `sql`: the engine of the shared state (PostgreSQL with DATABASE_URL, else SQLite over `db`):
   * sessions and the spend ledger
   */
  deps: { config: ProxyConfig; db: Database.Database; redis?: Redis; sql?: SqlEngine },
) => Promise<Governance>;
