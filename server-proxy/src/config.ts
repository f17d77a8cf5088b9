import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { AuthConfig, Endpoint, ProxyConfig, ServiceMode } from './context.ts';
import { passwordProblem } from './governance/passwords.ts';
import { LIVE_KEY_PREFIX, SANDBOX_KEY_PREFIX } from './sandbox/auth.ts';
import { LIVE_LIMITS_PER_MINUTE } from './sandbox/rate-limit.ts';

/** The key the embedded sandbox accepts and the proxy sends it. */
export const EMBEDDED_SANDBOX_KEY = 'sk_test_sandbox';

const ENDPOINTS: readonly Endpoint[] = [
  'profile',
  'profile-lite',
  'profile-fmcsa',
  'autocomplete',
  'monitoring/add',
  'monitoring/remove',
  'monitoring/list',
];

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

/** Collects problems while reading settings, so one error can list them all. */
class Reader {
  readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

  text(name: string): string | undefined {
    const raw = this.env[name]?.trim();
    return raw === undefined || raw === '' ? undefined : raw;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^[0-9]+$/.test(raw) || value < min || value > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  }

  flag(name: string, fallback: boolean): boolean {
    const raw = this.text(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    this.problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.text(name);
    if (raw === undefined) return fallback;
    const match = allowed.find((candidate) => candidate === raw);
    if (match === undefined) this.problems.push(`${name} must be one of ${allowed.join(', ')}`);
    return match ?? fallback;
  }
}

/** 127.0.0.0/8, ::1 and localhost. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(?:\.[0-9]{1,3}){3}$/.test(bare);
}

function readKey(read: Reader): string | undefined {
  const inline = read.text('CARRIER_API_KEY');
  const file = read.text('CARRIER_API_KEY_FILE');
  if (inline !== undefined && file !== undefined) {
    read.problems.push('Set CARRIER_API_KEY or CARRIER_API_KEY_FILE, not both');
  }
  if (file === undefined) return inline;
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    read.problems.push(`CARRIER_API_KEY_FILE cannot be read: ${file}`);
    return undefined;
  }
}

function keyMode(key: string, problems: string[]): ServiceMode {
  if (!/^[\x21-\x7e]+$/.test(key)) problems.push('The API key must not contain spaces');
  if (key.startsWith(LIVE_KEY_PREFIX)) return 'live';
  if (key.startsWith(SANDBOX_KEY_PREFIX)) return 'test';
  problems.push(`The API key must start with ${SANDBOX_KEY_PREFIX} or ${LIVE_KEY_PREFIX}`);
  return 'test';
}

function checkBaseUrl(url: string, problems: string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    problems.push(`CARRIER_API_BASE_URL is not a URL: "${url}"`);
    return url;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    problems.push('CARRIER_API_BASE_URL must start with http:// or https://');
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    problems.push('CARRIER_API_BASE_URL must not carry credentials, a query or a fragment');
  }
  const base = `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
  if (/\/v2$/.test(base)) {
    problems.push('CARRIER_API_BASE_URL is the address without /v2 (or /api/v2); drop that suffix');
  }
  return base;
}

interface Upstream {
  mode: ServiceMode;
  embeddedSandbox: boolean;
  baseUrl: string;
  apiKey: string;
}

function readUpstream(read: Reader): Upstream {
  const key = readKey(read);
  const url = read.text('CARRIER_API_BASE_URL');
  if (key === undefined && url === undefined) {
    return { mode: 'sandbox', embeddedSandbox: true, baseUrl: '', apiKey: EMBEDDED_SANDBOX_KEY };
  }
  if (url === undefined) {
    read.problems.push('An API key is set but CARRIER_API_BASE_URL is not; set both or neither');
  }
  if (key === undefined) {
    read.problems.push(
      'CARRIER_API_BASE_URL is set but no API key; set CARRIER_API_KEY (or _FILE)',
    );
  }
  return {
    mode: key === undefined ? 'test' : keyMode(key, read.problems),
    embeddedSandbox: false,
    baseUrl: url === undefined ? '' : checkBaseUrl(url, read.problems),
    apiKey: key ?? '',
  };
}

function readAuth(read: Reader): AuthConfig {
  const kind = read.oneOf('DASHBOARD_AUTH', AUTH_KINDS, 'none');
  if (kind === 'password') {
    const password = read.text('DASHBOARD_PASSWORD');
    const usersFile = read.text('DASHBOARD_USERS_FILE');
    if ((password === undefined) === (usersFile === undefined)) {
      read.problems.push(
        'DASHBOARD_AUTH=password needs exactly one of DASHBOARD_PASSWORD or DASHBOARD_USERS_FILE',
      );
    }
    const weak = password === undefined ? undefined : passwordProblem(password);
    if (weak !== undefined) {
      read.problems.push(`DASHBOARD_PASSWORD ${weak}; choose a longer one`);
    }
    return { kind, password, usersFile };
  }
  if (kind === 'trusted-header') {
    const header = (read.text('TRUSTED_USER_HEADER') ?? 'x-forwarded-user').toLowerCase();
    const trustedProxies = (read.text('TRUSTED_PROXIES') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    if (trustedProxies.length === 0) {
      read.problems.push(
        'DASHBOARD_AUTH=trusted-header needs TRUSTED_PROXIES (addresses or CIDRs)',
      );
    }
    for (const entry of trustedProxies) {
      if (isIP(entry.split('/')[0] ?? '') === 0) {
        read.problems.push(`TRUSTED_PROXIES entry is not an address or CIDR: "${entry}"`);
      }
    }
    if (!/^[a-z0-9-]+$/.test(header)) {
      read.problems.push(`TRUSTED_USER_HEADER is not a header name: "${header}"`);
    }
    return { kind, header, trustedProxies };
  }
  return { kind: 'none' };
}

function publishedLimits(): Record<Endpoint, number> {
  const limits = {} as Record<Endpoint, number>;
  for (const endpoint of ENDPOINTS)
    limits[endpoint] = LIVE_LIMITS_PER_MINUTE[`/v2/${endpoint}`] ?? 0;
  return limits;
}

/**
 * UPSTREAM_RATE_LIMITS: `auto` (published limits with a live key, none otherwise), `off`,
 * `published`, or overrides such as `profile=5,autocomplete=1000` (published values for the rest).
 */
function readRateLimits(read: Reader, mode: ServiceMode): Record<Endpoint, number> | undefined {
  const raw = read.text('UPSTREAM_RATE_LIMITS') ?? 'auto';
  if (raw === 'off') return undefined;
  if (raw === 'auto') return mode === 'live' ? publishedLimits() : undefined;
  const limits = publishedLimits();
  if (raw === 'published') return limits;
  for (const part of raw.split(',')) {
    const [name, value] = part.split('=').map((s) => s.trim());
    const endpoint = ENDPOINTS.find((candidate) => candidate === name);
    if (endpoint === undefined || value === undefined || !/^[0-9]{1,6}$/.test(value)) {
      read.problems.push(
        `UPSTREAM_RATE_LIMITS: "${part}" is not <endpoint>=<per minute> (endpoints: ${ENDPOINTS.join(', ')})`,
      );
      continue;
    }
    limits[endpoint] = Number(value);
  }
  return limits;
}

function readBudget(read: Reader): number | undefined {
  const raw = read.text('MONTHLY_BUDGET_USD');
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^[0-9]+(?:\.[0-9]{1,2})?$/.test(raw) || value <= 0) {
    read.problems.push(`MONTHLY_BUDGET_USD must be a positive amount such as 25 or 99.50`);
    return undefined;
  }
  return value;
}

/** 0.0.0.0 and :: listen on every interface and name no host of their own. */
function isWildcard(host: string): boolean {
  return ['0.0.0.0', '::', '[::]'].includes(host);
}

/** A true/false setting read without reporting it (its own reader reports a bad value). */
function isSet(read: Reader, name: string): boolean {
  const raw = read.text(name)?.toLowerCase();
  return raw === 'true' || raw === '1';
}

/**
 * HOST, checked against the access mode: DASHBOARD_AUTH=none listens on loopback only; a wildcard
 * HOST needs ALLOWED_HOSTS or PUBLIC_URL (the Host allow-list would refuse every request); password
 * mode off loopback needs TLS in front (SECURE_COOKIES=true) or an explicit ALLOW_INSECURE_HTTP=true.
 */
function readHost(read: Reader, auth: AuthConfig): string {
  const host = read.text('HOST') ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host)) {
    read.problems.push(`HOST is not a host name or address: "${host}"`);
    return host;
  }
  if (isLoopback(host)) return host;
  if (auth.kind === 'none') {
    read.problems.push(
      `HOST=${host} is not a loopback address; with DASHBOARD_AUTH=none the proxy only listens on ` +
        'loopback. Set DASHBOARD_AUTH=password or trusted-header to expose it.',
    );
    return host;
  }
  if (isWildcard(host) && !read.text('ALLOWED_HOSTS') && !read.text('PUBLIC_URL')) {
    read.problems.push(
      `HOST=${host} listens on every interface, so the proxy cannot tell which Host names are ` +
        'its own (it refuses all others, against DNS rebinding). Set PUBLIC_URL to the address ' +
        'users open (https://desk.example.com) or ALLOWED_HOSTS to the host names (and ' +
        'host:port) they use, or set HOST to one address.',
    );
  }
  if (
    auth.kind === 'password' &&
    !isSet(read, 'SECURE_COOKIES') &&
    !isSet(read, 'ALLOW_INSECURE_HTTP')
  ) {
    read.problems.push(
      `DASHBOARD_AUTH=password on HOST=${host} would send passwords and session cookies over ` +
        'plain HTTP. Put a TLS terminator in front and set SECURE_COOKIES=true, or set ' +
        'ALLOW_INSECURE_HTTP=true to accept the risk (a warning is printed at start).',
    );
  }
  return host;
}

/** `host` or `host:port`, lower case; a bracketed IPv6 literal keeps its brackets. */
const HOST_ENTRY = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::[0-9]{1,5})?$/;

/** PUBLIC_URL: an http(s) origin (no path beyond /, no query); its host joins the allowed hosts. */
function readPublicUrl(read: Reader): string | undefined {
  const raw = read.text('PUBLIC_URL');
  if (raw === undefined) return undefined;
  try {
    const url = new URL(raw);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash) {
      return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
    }
  } catch {
    // reported below
  }
  read.problems.push(`PUBLIC_URL must be an http(s) address such as https://desk.example.com`);
  return undefined;
}

/** ALLOWED_HOSTS (comma-separated `host[:port]`) plus the host of PUBLIC_URL, lower case. */
function readAllowedHosts(read: Reader, publicUrl: string | undefined): string[] {
  const hosts = new Set<string>();
  for (const entry of (read.text('ALLOWED_HOSTS') ?? '').split(',')) {
    const host = entry.trim().toLowerCase();
    if (host === '') continue;
    if (HOST_ENTRY.test(host)) hosts.add(host);
    else read.problems.push(`ALLOWED_HOSTS entry is not a host or host:port: "${entry.trim()}"`);
  }
  if (publicUrl !== undefined) hosts.add(new URL(publicUrl).host.toLowerCase());
  return [...hosts];
}

/** Read and validate the proxy's environment; throws one ConfigError listing every problem. */
export function loadConfig(env: Env): ProxyConfig {
  const read = new Reader(env);
  const upstream = readUpstream(read);
  const auth = readAuth(read);
  const publicUrl = readPublicUrl(read);
  const config: ProxyConfig = {
    host: readHost(read, auth),
    port: read.int('PORT', 8787, 0, 65_535),
    mode: upstream.mode,
    upstream: {
      baseUrl: upstream.baseUrl,
      apiKey: upstream.apiKey,
      legacy: read.flag('CARRIER_API_LEGACY', false),
      timeoutMs: read.int('UPSTREAM_TIMEOUT_MS', 15_000, 100, 300_000),
      retryDelayMs: read.int('UPSTREAM_RETRY_DELAY_MS', 5000, 0, 60_000),
      maxRetryAfterMs: read.int('UPSTREAM_MAX_RETRY_AFTER_SECONDS', 120, 1, 3600) * 1000,
      circuitOpenMs: read.int('UPSTREAM_CIRCUIT_OPEN_SECONDS', 30, 1, 600) * 1000,
    },
    allowedHosts: readAllowedHosts(read, publicUrl),
    publicUrl,
    allowInsecureHttp: read.flag('ALLOW_INSECURE_HTTP', false),
    retention: {
      auditDays: read.int('AUDIT_RETENTION_DAYS', 365, 1, 36_500),
      freeLedgerDays: read.int('LEDGER_FREE_RETENTION_DAYS', 90, 1, 36_500),
      pricedLedgerMonths: read.int('LEDGER_RETENTION_MONTHS', 24, 2, 1200),
    },
    embeddedSandbox: upstream.embeddedSandbox,
    embeddedSandboxPort: read.int('EMBEDDED_SANDBOX_PORT', 0, 0, 65_535),
    dataDir: read.text('DATA_DIR') ?? './data',
    monthlyBudgetUsd: readBudget(read),
    auth,
    secureCookies: read.flag('SECURE_COOKIES', false),
    cache: {
      profileTtlMs: read.int('CACHE_PROFILE_TTL_SECONDS', 3600, 0, 7 * 86_400) * 1000,
      autocompleteTtlMs: read.int('CACHE_AUTOCOMPLETE_TTL_SECONDS', 300, 0, 86_400) * 1000,
      maxBytes: read.int('CACHE_MAX_MB', 64, 1, 4096) * 1024 * 1024,
    },
    rateLimits: readRateLimits(read, upstream.mode),
    maxQueueWaitMs: read.int('MAX_QUEUE_WAIT_MS', 10_000, 0, 120_000),
    userRateLimitPerMinute: read.int('USER_RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
    staticDir: read.text('STATIC_DIR') ?? './dist',
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
  };
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}

/** A one-line description of where requests go, e.g. "live (legacy /api/v2, X-Api-Key)". */
export function describeMode(config: ProxyConfig): string {
  const deployment = config.upstream.legacy
    ? 'legacy /api/v2 + X-Api-Key'
    : '/v2 + Authorization: Bearer';
  const target = config.embeddedSandbox ? 'embedded sandbox' : config.upstream.baseUrl;
  return `${config.mode} mode, ${target} (${deployment})`;
}
