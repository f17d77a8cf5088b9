/**
 * The proxy's environment, read with one zod schema: a schema per variable (coercion, range, enum),
 * then the rules across variables (upstream, access mode, listen address) in a superRefine that runs
 * even when single variables failed, so one ConfigError lists every problem at once. A variable
 * with a bad value is reported and read as its default, so the cross rules see a typed value.
 * docs/proxy.md's Configuration table documents every variable of PROXY_ENV_SCHEMA (config.test.ts
 * checks that it names exactly these).
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';
import {
  ENDPOINTS,
  ENDPOINT_NAMES,
  LIVE_KEY_PREFIX,
  SANDBOX_KEY_PREFIX,
} from '../../src/lib/service/endpoints.ts';
import type { AuthConfig, Endpoint, ProxyConfig, ServiceMode } from './context.ts';
import { commaList, flag, oneOf, optionalText, text, variable, wholeNumber } from './http/env.ts';
import { passwordProblem } from './governance/passwords.ts';
import { ALERT_VARIABLES, alertProblems, alertsConfigOf } from './alerts/config.ts';

/** The key the embedded sandbox accepts and the proxy sends it. */
export const EMBEDDED_SANDBOX_KEY = 'sk_test_sandbox';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const AUTH_KINDS = ['none', 'password', 'trusted-header'] as const;

/** Thrown with every problem of the environment at once; never repeats a key. */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid proxy configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

/** 127.0.0.0/8, ::1 and localhost. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(?:\.[0-9]{1,3}){3}$/.test(bare);
}

// ---- one schema per variable (helpers in http/env.ts) ---------------------------------------

/** The key file's content (trimmed), read at start; `key` undefined when the file is empty. */
const keyFile = variable(
  z.string().transform((file, ctx) => {
    try {
      return { file, key: readFileSync(file, 'utf8').trim() || undefined };
    } catch {
      ctx.addIssue({ code: 'custom', message: `CARRIER_API_KEY_FILE cannot be read: ${file}` });
      return z.NEVER;
    }
  }),
  undefined as { file: string; key: string | undefined } | undefined,
  (file) => ({ file, key: undefined }),
);

/** CARRIER_API_BASE_URL: http(s), no credentials, query or fragment, without /v2; as base URL. */
const baseUrl = variable(
  z.string().transform((url, ctx) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      ctx.addIssue({ code: 'custom', message: `CARRIER_API_BASE_URL is not a URL: "${url}"` });
      return url;
    }
    const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      problem('CARRIER_API_BASE_URL must start with http:// or https://');
    }
    if (parsed.username || parsed.password || parsed.search || parsed.hash) {
      problem('CARRIER_API_BASE_URL must not carry credentials, a query or a fragment');
    }
    const base = `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
    if (/\/v2$/.test(base)) {
      problem('CARRIER_API_BASE_URL is the address without /v2 (or /api/v2); drop that suffix');
    }
    return base;
  }),
  undefined as string | undefined,
  (url) => url,
);

/**
 * The address of a service the replicas share: one of `protocols`, a host, no fragment (and no query
 * unless allowed). It may hold a password, so problems name the variable and never quote the value.
 */
function sharedServiceUrl(name: string, protocols: string[], example: string, query: boolean) {
  return z.string().transform((raw, ctx) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(raw);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !protocols.includes(parsed.protocol)) {
      const schemes = protocols.map((protocol) => `${protocol}//`).join(' or ');
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be a ${schemes} address such as ${example}`,
      });
      return z.NEVER;
    }
    if (parsed.hostname === '' || parsed.hash || (!query && parsed.search)) {
      const what = query ? 'no fragment' : 'no query or fragment';
      ctx.addIssue({ code: 'custom', message: `${name} needs a host and ${what}` });
      return z.NEVER;
    }
    return raw;
  });
}

/**
 * REDIS_URL: redis:// or rediss://; set, the upstream rate limits, the response cache, sign-in
 * limits and the per-user limit are shared through Redis by every replica holding the key.
 */
const redisUrl = variable(
  sharedServiceUrl('REDIS_URL', ['redis:', 'rediss:'], 'redis://127.0.0.1:6379', false),
  undefined as string | undefined,
);

/**
 * DATABASE_URL: postgres:// or postgresql:// (query parameters such as sslmode allowed); set, the
 * sessions and monitoring triage are kept in that PostgreSQL, shared by every replica.
 */
const databaseUrl = variable(
  sharedServiceUrl(
    'DATABASE_URL',
    ['postgres:', 'postgresql:'],
    'postgres://carrier:secret@db.internal:5432/carrier_desk',
    true,
  ),
  undefined as string | undefined,
);

const BUDGET = 'MONTHLY_BUDGET_USD must be a positive amount such as 25 or 99.50';
const monthlyBudget = variable(
  z
    .string()
    .regex(/^[0-9]+(?:\.[0-9]{1,2})?$/, { error: BUDGET })
    .transform(Number)
    .pipe(z.number().positive({ error: BUDGET })),
  undefined as number | undefined,
);

/** `host` or `host:port`, lower case; a bracketed IPv6 literal keeps its brackets. */
const HOST_ENTRY = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::[0-9]{1,5})?$/;

/** ALLOWED_HOSTS: comma-separated `host[:port]`, lower case. */
const allowedHosts = variable(
  z.string().transform((raw, ctx) => {
    const hosts: string[] = [];
    for (const entry of commaList(raw)) {
      const host = entry.toLowerCase();
      if (HOST_ENTRY.test(host)) hosts.push(host);
      else {
        const message = `ALLOWED_HOSTS entry is not a host or host:port: "${entry}"`;
        ctx.addIssue({ code: 'custom', message });
      }
    }
    return hosts;
  }),
  [] as string[],
  (raw) => commaList(raw),
);

/** PUBLIC_URL: an http(s) origin (no path beyond /, no query); its host joins the allowed hosts. */
const publicUrl = variable(
  z.string().transform((raw, ctx) => {
    try {
      const url = new URL(raw);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash) {
        return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
      }
    } catch {
      // reported below
    }
    const message = 'PUBLIC_URL must be an http(s) address such as https://desk.example.com';
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  }),
  undefined as string | undefined,
  (raw) => raw,
);

/** ORG_NAME: the organisation's name printed at the top of a decision record (1–120 characters). */
const orgName = variable(
  z
    .string()
    .max(120, { error: 'ORG_NAME must be at most 120 characters' })
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]+$/, { error: 'ORG_NAME must not hold control characters' }),
  undefined as string | undefined,
);

const HOST_NAME = /^[A-Za-z0-9.:[\]-]+$/;

/** HOST; an unusable one is reported and read as loopback (the rules below then say nothing more). */
const host = variable(
  z.string().regex(HOST_NAME, {
    error: (found) => `HOST is not a host name or address: "${String(found.input)}"`,
  }),
  '127.0.0.1',
);

type RateLimitSetting =
  | { kind: 'off' | 'auto' | 'published' }
  | { kind: 'overrides'; perMinute: Partial<Record<Endpoint, number>> };

/**
 * UPSTREAM_RATE_LIMITS: `auto` (published limits with a live key, none otherwise), `off`,
 * `published`, or overrides such as `profile=5,autocomplete=1000` (published values for the rest).
 */
const rateLimits = variable(
  z.string().transform((raw, ctx): RateLimitSetting => {
    if (raw === 'off' || raw === 'auto' || raw === 'published') return { kind: raw };
    const perMinute: Partial<Record<Endpoint, number>> = {};
    for (const part of raw.split(',')) {
      const [name, value] = part.split('=').map((s) => s.trim());
      const endpoint = ENDPOINT_NAMES.find((candidate) => candidate === name);
      if (endpoint === undefined || value === undefined || !/^[0-9]{1,6}$/.test(value)) {
        const message = `UPSTREAM_RATE_LIMITS: "${part}" is not <endpoint>=<per minute> (endpoints: ${ENDPOINT_NAMES.join(', ')})`;
        ctx.addIssue({ code: 'custom', message });
        continue;
      }
      perMinute[endpoint] = Number(value);
    }
    return { kind: 'overrides', perMinute };
  }),
  { kind: 'auto' } as RateLimitSetting,
);

/** Every variable the proxy reads, with its schema; docs/proxy.md's Configuration table lists them. */
const VARIABLES = {
  HOST: host,
  PORT: wholeNumber('PORT', 8787, 0, 65_535),
  ALLOWED_HOSTS: allowedHosts,
  PUBLIC_URL: publicUrl,
  CARRIER_API_BASE_URL: baseUrl,
  CARRIER_API_KEY: optionalText,
  CARRIER_API_KEY_FILE: keyFile,
  CARRIER_API_LEGACY: flag('CARRIER_API_LEGACY', false),
  DATA_DIR: text('./data'),
  DECISION_SIGNING_KEY_FILE: optionalText,
  MONTHLY_BUDGET_USD: monthlyBudget,
  ORG_NAME: orgName,
  DASHBOARD_AUTH: oneOf('DASHBOARD_AUTH', AUTH_KINDS, 'none'),
  DASHBOARD_PASSWORD: optionalText,
  DASHBOARD_USERS_FILE: optionalText,
  TRUSTED_USER_HEADER: text('x-forwarded-user').transform((name) => name.toLowerCase()),
  TRUSTED_ROLE_HEADER: text('x-forwarded-role').transform((name) => name.toLowerCase()),
  TRUSTED_PROXIES: text('').transform(commaList),
  ALLOW_INSECURE_HTTP: flag('ALLOW_INSECURE_HTTP', false),
  SECURE_COOKIES: flag('SECURE_COOKIES', false),
  USER_RATE_LIMIT_PER_MINUTE: wholeNumber('USER_RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
  TOKEN_RATE_LIMIT_PER_MINUTE: wholeNumber('TOKEN_RATE_LIMIT_PER_MINUTE', 120, 1, 10_000_000),
  CACHE_PROFILE_TTL_SECONDS: wholeNumber('CACHE_PROFILE_TTL_SECONDS', 3600, 0, 7 * 86_400),
  CACHE_AUTOCOMPLETE_TTL_SECONDS: wholeNumber('CACHE_AUTOCOMPLETE_TTL_SECONDS', 300, 0, 86_400),
  CACHE_MAX_MB: wholeNumber('CACHE_MAX_MB', 64, 1, 4096),
  UPSTREAM_TIMEOUT_MS: wholeNumber('UPSTREAM_TIMEOUT_MS', 15_000, 100, 300_000),
  UPSTREAM_RETRY_DELAY_MS: wholeNumber('UPSTREAM_RETRY_DELAY_MS', 5000, 0, 60_000),
  UPSTREAM_MAX_RETRY_AFTER_SECONDS: wholeNumber('UPSTREAM_MAX_RETRY_AFTER_SECONDS', 120, 1, 3600),
  UPSTREAM_CIRCUIT_OPEN_SECONDS: wholeNumber('UPSTREAM_CIRCUIT_OPEN_SECONDS', 30, 1, 600),
  UPSTREAM_RATE_LIMITS: rateLimits,
  MAX_QUEUE_WAIT_MS: wholeNumber('MAX_QUEUE_WAIT_MS', 10_000, 0, 120_000),
  REDIS_URL: redisUrl,
  DATABASE_URL: databaseUrl,
  EMBEDDED_SANDBOX_PORT: wholeNumber('EMBEDDED_SANDBOX_PORT', 0, 0, 65_535),
  AUDIT_RETENTION_DAYS: wholeNumber('AUDIT_RETENTION_DAYS', 365, 1, 36_500),
  LEDGER_FREE_RETENTION_DAYS: wholeNumber('LEDGER_FREE_RETENTION_DAYS', 90, 1, 36_500),
  LEDGER_RETENTION_MONTHS: wholeNumber('LEDGER_RETENTION_MONTHS', 24, 2, 1200),
  TENDER_CONTACT_RETENTION_DAYS: wholeNumber('TENDER_CONTACT_RETENTION_DAYS', 90, 1, 36_500),
  STATIC_DIR: text('./dist'),
  LOG_LEVEL: oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
  ...ALERT_VARIABLES,
};

/** The names of every variable the proxy reads (the docs' table is checked against it). */
export const PROXY_ENV_VARIABLES = Object.keys(VARIABLES) as (keyof typeof VARIABLES)[];

type Settings = z.output<z.ZodObject<typeof VARIABLES>>;

// ---- rules across variables --------------------------------------------------------------------

interface Upstream {
  mode: ServiceMode;
  embeddedSandbox: boolean;
  baseUrl: string;
  apiKey: string;
}

/** The key in use: the file's when CARRIER_API_KEY_FILE is set, else CARRIER_API_KEY. */
function keyOf(s: Settings): string | undefined {
  return s.CARRIER_API_KEY_FILE === undefined ? s.CARRIER_API_KEY : s.CARRIER_API_KEY_FILE.key;
}

function upstreamOf(s: Settings): Upstream {
  const key = keyOf(s);
  const url = s.CARRIER_API_BASE_URL;
  if (key === undefined && url === undefined) {
    return { mode: 'sandbox', embeddedSandbox: true, baseUrl: '', apiKey: EMBEDDED_SANDBOX_KEY };
  }
  const mode = key?.startsWith(LIVE_KEY_PREFIX) ? 'live' : 'test';
  return { mode, embeddedSandbox: false, baseUrl: url ?? '', apiKey: key ?? '' };
}

/** Problems of the key and base URL together; never quotes the key. */
function upstreamProblems(s: Settings): string[] {
  const problems: string[] = [];
  const key = keyOf(s);
  const url = s.CARRIER_API_BASE_URL;
  if (s.CARRIER_API_KEY !== undefined && s.CARRIER_API_KEY_FILE !== undefined) {
    problems.push('Set CARRIER_API_KEY or CARRIER_API_KEY_FILE, not both');
  }
  if (key === undefined && url === undefined) return problems;
  if (url === undefined) {
    problems.push('An API key is set but CARRIER_API_BASE_URL is not; set both or neither');
  }
  if (key === undefined) {
    problems.push('CARRIER_API_BASE_URL is set but no API key; set CARRIER_API_KEY (or _FILE)');
    return problems;
  }
  if (!/^[\x21-\x7e]+$/.test(key)) problems.push('The API key must not contain spaces');
  if (!key.startsWith(LIVE_KEY_PREFIX) && !key.startsWith(SANDBOX_KEY_PREFIX)) {
    problems.push(`The API key must start with ${SANDBOX_KEY_PREFIX} or ${LIVE_KEY_PREFIX}`);
  }
  return problems;
}

function authProblems(s: Settings): string[] {
  const problems: string[] = [];
  if (s.DASHBOARD_AUTH === 'password') {
    const password = s.DASHBOARD_PASSWORD;
    if ((password === undefined) === (s.DASHBOARD_USERS_FILE === undefined)) {
      problems.push(
        'DASHBOARD_AUTH=password needs exactly one of DASHBOARD_PASSWORD or DASHBOARD_USERS_FILE',
      );
    }
    const weak = password === undefined ? undefined : passwordProblem(password);
    if (weak !== undefined) problems.push(`DASHBOARD_PASSWORD ${weak}`);
  }
  if (s.DASHBOARD_AUTH === 'trusted-header') {
    if (s.TRUSTED_PROXIES.length === 0) {
      problems.push('DASHBOARD_AUTH=trusted-header needs TRUSTED_PROXIES (addresses or CIDRs)');
    }
    for (const entry of s.TRUSTED_PROXIES) {
      if (isIP(entry.split('/')[0] ?? '') === 0) {
        problems.push(`TRUSTED_PROXIES entry is not an address or CIDR: "${entry}"`);
      }
    }
    if (!/^[a-z0-9-]+$/.test(s.TRUSTED_USER_HEADER)) {
      problems.push(`TRUSTED_USER_HEADER is not a header name: "${s.TRUSTED_USER_HEADER}"`);
    }
    if (!/^[a-z0-9-]+$/.test(s.TRUSTED_ROLE_HEADER)) {
      problems.push(`TRUSTED_ROLE_HEADER is not a header name: "${s.TRUSTED_ROLE_HEADER}"`);
    } else if (s.TRUSTED_ROLE_HEADER === s.TRUSTED_USER_HEADER) {
      problems.push('TRUSTED_ROLE_HEADER must differ from TRUSTED_USER_HEADER');
    }
  }
  return problems;
}

function authOf(s: Settings): AuthConfig {
  if (s.DASHBOARD_AUTH === 'password') {
    return { kind: 'password', password: s.DASHBOARD_PASSWORD, usersFile: s.DASHBOARD_USERS_FILE };
  }
  if (s.DASHBOARD_AUTH === 'trusted-header') {
    return {
      kind: 'trusted-header',
      header: s.TRUSTED_USER_HEADER,
      trustedProxies: s.TRUSTED_PROXIES,
      roleHeader: s.TRUSTED_ROLE_HEADER,
    };
  }
  return { kind: 'none' };
}

/** 0.0.0.0 and :: listen on every interface and name no host of their own. */
function isWildcard(address: string): boolean {
  return ['0.0.0.0', '::', '[::]'].includes(address);
}

/**
 * HOST, checked against the access mode: DASHBOARD_AUTH=none listens on loopback only; a wildcard
 * HOST needs ALLOWED_HOSTS or PUBLIC_URL (the Host allow-list would refuse every request); password
 * mode off loopback needs TLS in front (SECURE_COOKIES=true) or an explicit ALLOW_INSECURE_HTTP=true.
 */
/**
 * Replicas share one decision chain, so they must sign it with one key: with DATABASE_URL the key
 * file is required (a key made in each replica's own DATA_DIR would differ from the others').
 */
function signingProblems(s: Settings): string[] {
  if (s.DATABASE_URL === undefined || s.DECISION_SIGNING_KEY_FILE !== undefined) return [];
  return [
    'DATABASE_URL (the team deployment) needs DECISION_SIGNING_KEY_FILE: every replica signs the ' +
      'shared decision record with one key. Make it once with `openssl genpkey -algorithm ed25519 ' +
      '-out decision-signing-key.pem`, keep it outside the database and give every replica the file ' +
      '(docs/vetting.md)',
  ];
}

function hostProblems(s: Settings): string[] {
  const address = s.HOST;
  if (isLoopback(address)) return [];
  if (s.DASHBOARD_AUTH === 'none') {
    return [
      `HOST=${address} is not a loopback address; with DASHBOARD_AUTH=none the proxy only listens on ` +
        'loopback. Set DASHBOARD_AUTH=password or trusted-header to expose it.',
    ];
  }
  const problems: string[] = [];
  if (isWildcard(address) && s.ALLOWED_HOSTS.length === 0 && s.PUBLIC_URL === undefined) {
    problems.push(
      `HOST=${address} listens on every interface, so the proxy cannot tell which Host names are ` +
        'its own (it refuses all others, against DNS rebinding). Set PUBLIC_URL to the address ' +
        'users open (https://desk.example.com) or ALLOWED_HOSTS to the host names (and ' +
        'host:port) they use, or set HOST to one address.',
    );
  }
  if (s.DASHBOARD_AUTH === 'password' && !s.SECURE_COOKIES && !s.ALLOW_INSECURE_HTTP) {
    problems.push(
      `DASHBOARD_AUTH=password on HOST=${address} would send passwords and session cookies over ` +
        'plain HTTP. Put a TLS terminator in front and set SECURE_COOKIES=true, or set ' +
        'ALLOW_INSECURE_HTTP=true to accept the risk (a warning is printed at start).',
    );
  }
  return problems;
}

/** The published live limits per minute (none published → 0: no bucket). */
function publishedLimits(): Record<Endpoint, number> {
  const limits = {} as Record<Endpoint, number>;
  for (const endpoint of ENDPOINT_NAMES) {
    limits[endpoint] = ENDPOINTS[endpoint].liveLimitPerMinute ?? 0;
  }
  return limits;
}

function rateLimitsOf(setting: RateLimitSetting, mode: ServiceMode) {
  if (setting.kind === 'overrides') return { ...publishedLimits(), ...setting.perMinute };
  if (setting.kind === 'off') return undefined;
  if (setting.kind === 'auto') return mode === 'live' ? publishedLimits() : undefined;
  return publishedLimits();
}

/** The proxy's environment: every variable, then the rules across them. */
const PROXY_ENV_SCHEMA = z.object(VARIABLES).superRefine(
  (settings, ctx) => {
    for (const message of [
      ...upstreamProblems(settings),
      ...authProblems(settings),
      ...hostProblems(settings),
      ...signingProblems(settings),
      ...alertProblems(settings),
    ]) {
      ctx.addIssue({ code: 'custom', message });
    }
  },
  // Run even when single variables failed: every problem is reported at once.
  { when: () => true },
);

function toConfig(s: Settings): ProxyConfig {
  const upstream = upstreamOf(s);
  const hosts = new Set(s.ALLOWED_HOSTS);
  if (s.PUBLIC_URL !== undefined) hosts.add(new URL(s.PUBLIC_URL).host.toLowerCase());
  return {
    host: s.HOST,
    port: s.PORT,
    mode: upstream.mode,
    upstream: {
      baseUrl: upstream.baseUrl,
      apiKey: upstream.apiKey,
      legacy: s.CARRIER_API_LEGACY,
      timeoutMs: s.UPSTREAM_TIMEOUT_MS,
      retryDelayMs: s.UPSTREAM_RETRY_DELAY_MS,
      maxRetryAfterMs: s.UPSTREAM_MAX_RETRY_AFTER_SECONDS * 1000,
      circuitOpenMs: s.UPSTREAM_CIRCUIT_OPEN_SECONDS * 1000,
    },
    allowedHosts: [...hosts],
    publicUrl: s.PUBLIC_URL,
    allowInsecureHttp: s.ALLOW_INSECURE_HTTP,
    retention: {
      auditDays: s.AUDIT_RETENTION_DAYS,
      freeLedgerDays: s.LEDGER_FREE_RETENTION_DAYS,
      pricedLedgerMonths: s.LEDGER_RETENTION_MONTHS,
      tenderContactDays: s.TENDER_CONTACT_RETENTION_DAYS,
    },
    embeddedSandbox: upstream.embeddedSandbox,
    embeddedSandboxPort: s.EMBEDDED_SANDBOX_PORT,
    dataDir: s.DATA_DIR,
    decisionSigningKeyFile: s.DECISION_SIGNING_KEY_FILE,
    monthlyBudgetUsd: s.MONTHLY_BUDGET_USD,
    orgName: s.ORG_NAME,
    auth: authOf(s),
    secureCookies: s.SECURE_COOKIES,
    cache: {
      profileTtlMs: s.CACHE_PROFILE_TTL_SECONDS * 1000,
      autocompleteTtlMs: s.CACHE_AUTOCOMPLETE_TTL_SECONDS * 1000,
      maxBytes: s.CACHE_MAX_MB * 1024 * 1024,
    },
    rateLimits: rateLimitsOf(s.UPSTREAM_RATE_LIMITS, upstream.mode),
    maxQueueWaitMs: s.MAX_QUEUE_WAIT_MS,
    redisUrl: s.REDIS_URL,
    databaseUrl: s.DATABASE_URL,
    userRateLimitPerMinute: s.USER_RATE_LIMIT_PER_MINUTE,
    tokenRateLimitPerMinute: s.TOKEN_RATE_LIMIT_PER_MINUTE,
    staticDir: s.STATIC_DIR,
    logLevel: s.LOG_LEVEL,
    alerts: alertsConfigOf(s),
  };
}

/** Read and validate the proxy's environment; throws one ConfigError listing every problem. */
export function loadConfig(env: Env): ProxyConfig {
  const parsed = PROXY_ENV_SCHEMA.safeParse(env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((found) => found.message));
  return toConfig(parsed.data);
}

/** A one-line description of where requests go, e.g. "live (legacy /api/v2, X-Api-Key)". */
export function describeMode(config: ProxyConfig): string {
  const deployment = config.upstream.legacy
    ? 'legacy /api/v2 + X-Api-Key'
    : '/v2 + Authorization: Bearer';
  const target = config.embeddedSandbox ? 'embedded sandbox' : config.upstream.baseUrl;
  return `${config.mode} mode, ${target} (${deployment})`;
}
