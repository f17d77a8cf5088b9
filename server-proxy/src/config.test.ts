import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  EMBEDDED_SANDBOX_KEY,
  describeMode,
  isLoopback,
  loadConfig,
} from './config.ts';

const LIVE = 'sk_live_abcdefghijklmnop';
const UPSTREAM = { CARRIER_API_BASE_URL: 'https://api.example.com', CARRIER_API_KEY: LIVE };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('loadConfig', () => {
  it('puts the embedded sandbox on any free port unless EMBEDDED_SANDBOX_PORT fixes one', () => {
    expect(loadConfig({}).embeddedSandboxPort).toBe(0);
    expect(loadConfig({ EMBEDDED_SANDBOX_PORT: '4180' }).embeddedSandboxPort).toBe(4180);
    expect(problemsOf({ EMBEDDED_SANDBOX_PORT: 'x' }).join(' ')).toMatch(/EMBEDDED_SANDBOX_PORT/);
  });

  it('runs the embedded sandbox on 127.0.0.1:8787 when nothing is configured', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8787,
      mode: 'sandbox',
      embeddedSandbox: true,
      dataDir: './data',
      staticDir: './dist',
      auth: { kind: 'none' },
      upstream: { apiKey: EMBEDDED_SANDBOX_KEY, legacy: false, timeoutMs: 15_000 },
      cache: { profileTtlMs: 3_600_000, autocompleteTtlMs: 300_000 },
      rateLimits: undefined,
    });
  });

  it('derives the mode from the key prefix and applies the published limits to live keys', () => {
    const live = loadConfig(UPSTREAM);
    expect(live.mode).toBe('live');
    expect(live.embeddedSandbox).toBe(false);
    expect(live.rateLimits).toMatchObject({ profile: 5, 'profile-lite': 30, autocomplete: 2000 });
    const test = loadConfig({ ...UPSTREAM, CARRIER_API_KEY: 'sk_test_x1' });
    expect(test.mode).toBe('test');
    expect(test.rateLimits).toBeUndefined();
  });

  it('reads legacy, budget, TTLs, limits overrides and the key file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-config-'));
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, `${LIVE}\n`);
    const config = loadConfig({
      CARRIER_API_BASE_URL: 'https://api.example.com/',
      CARRIER_API_KEY_FILE: keyFile,
      CARRIER_API_LEGACY: 'true',
      MONTHLY_BUDGET_USD: '25.50',
      CACHE_PROFILE_TTL_SECONDS: '60',
      UPSTREAM_RATE_LIMITS: 'profile=3,autocomplete=100',
    });
    rmSync(dir, { recursive: true });
    expect(config.upstream).toMatchObject({
      apiKey: LIVE,
      legacy: true,
      baseUrl: 'https://api.example.com',
    });
    expect(config.monthlyBudgetUsd).toBe(25.5);
    expect(config.cache.profileTtlMs).toBe(60_000);
    expect(config.rateLimits).toMatchObject({
      profile: 3,
      autocomplete: 100,
      'monitoring/list': 120,
    });
    expect(describeMode(config)).toBe(
      'live mode, https://api.example.com (legacy /api/v2 + X-Api-Key)',
    );
  });

  it('reads ORG_NAME trimmed, absent or blank as none, and refuses an unusable one', () => {
    expect(loadConfig({ ORG_NAME: '  Northwind Freight Brokerage ' }).orgName).toBe(
      'Northwind Freight Brokerage',
    );
    expect(loadConfig({}).orgName).toBeUndefined();
    expect(loadConfig({ ORG_NAME: '   ' }).orgName).toBeUndefined();
    expect(problemsOf({ ORG_NAME: 'x'.repeat(121) }).join('\n')).toMatch(
      /ORG_NAME must be at most/,
    );
    expect(problemsOf({ ORG_NAME: 'Acme\u0007' }).join('\n')).toMatch(/control characters/);
  });

  it('lists every problem in one error and never repeats the key', () => {
    const problems = problemsOf({
      CARRIER_API_KEY: 'pk_wrong_secretvalue',
      PORT: '99999',
      DASHBOARD_AUTH: 'magic',
      MONTHLY_BUDGET_USD: '-3',
      LOG_LEVEL: 'loud',
    });
    expect(problems).toHaveLength(6);
    expect(problems.join('\n')).not.toContain('secretvalue');
    expect(problems.join('\n')).toMatch(/CARRIER_API_BASE_URL is not/);
    expect(problems.join('\n')).toMatch(/must start with sk_test_ or sk_live_/);
  });

  it.each([
    [{ CARRIER_API_KEY: LIVE }, /CARRIER_API_BASE_URL is not/],
    [{ CARRIER_API_BASE_URL: 'https://api.example.com' }, /no API key/],
    [{ ...UPSTREAM, CARRIER_API_BASE_URL: 'https://api.example.com/v2' }, /without \/v2/],
    [{ ...UPSTREAM, CARRIER_API_KEY_FILE: '/nonexistent' }, /not both/],
    [{ HOST: '0.0.0.0' }, /not a loopback address/],
    [{ HOST: '0.0.0.0', DASHBOARD_AUTH: 'password' }, /exactly one of DASHBOARD_PASSWORD/],
    [{ DASHBOARD_AUTH: 'trusted-header' }, /needs TRUSTED_PROXIES/],
    [{ DASHBOARD_AUTH: 'trusted-header', TRUSTED_PROXIES: 'proxy.local' }, /not an address/],
    [
      { DASHBOARD_AUTH: 'trusted-header', TRUSTED_PROXIES: '10.0.0.5', TRUSTED_ROLE_HEADER: 'a b' },
      /TRUSTED_ROLE_HEADER is not a header name/,
    ],
    [
      {
        DASHBOARD_AUTH: 'trusted-header',
        TRUSTED_PROXIES: '10.0.0.5',
        TRUSTED_ROLE_HEADER: 'X-Forwarded-User',
      },
      /TRUSTED_ROLE_HEADER must differ from TRUSTED_USER_HEADER/,
    ],
    [{ UPSTREAM_RATE_LIMITS: 'profil=5' }, /UPSTREAM_RATE_LIMITS/],
  ])('refuses %o', (env, message) => {
    expect(problemsOf(env).join('\n')).toMatch(message);
  });

  it('accepts a non-loopback host with an access-control mode', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      ALLOWED_HOSTS: 'desk.example.com',
      DASHBOARD_AUTH: 'trusted-header',
      TRUSTED_PROXIES: '10.0.0.5, 10.1.0.0/16',
      TRUSTED_USER_HEADER: 'X-Auth-Request-User',
      TRUSTED_ROLE_HEADER: 'X-Auth-Request-Groups',
    });
    expect(config.auth).toEqual({
      kind: 'trusted-header',
      header: 'x-auth-request-user',
      trustedProxies: ['10.0.0.5', '10.1.0.0/16'],
      roleHeader: 'x-auth-request-groups',
    });
    const byDefault = loadConfig({ DASHBOARD_AUTH: 'trusted-header', TRUSTED_PROXIES: '10.0.0.5' });
    expect(byDefault.auth).toMatchObject({ roleHeader: 'x-forwarded-role' });
  });

  it('knows loopback addresses', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '192.168.1.2', '::', 'example.com'].some(isLoopback)).toBe(false);
  });
});

describe('loadConfig: exposure off loopback', () => {
  const PASSWORD = { DASHBOARD_AUTH: 'password', DASHBOARD_PASSWORD: 'twelve chars' };
  const TRUSTED = { DASHBOARD_AUTH: 'trusted-header', TRUSTED_PROXIES: '10.0.0.9' };

  it('refuses a wildcard HOST without ALLOWED_HOSTS or PUBLIC_URL, naming both', () => {
    for (const host of ['0.0.0.0', '::']) {
      const problems = problemsOf({ ...TRUSTED, HOST: host }).join('\n');
      expect(problems).toMatch(/listens on every interface/);
      expect(problems).toMatch(/PUBLIC_URL/);
      expect(problems).toMatch(/ALLOWED_HOSTS/);
    }
    expect(loadConfig({ ...TRUSTED, HOST: '0.0.0.0', PUBLIC_URL: 'https://d.example' }).host).toBe(
      '0.0.0.0',
    );
    // One address names itself: its Host is allowed without a list.
    expect(loadConfig({ ...TRUSTED, HOST: '10.0.0.5' }).allowedHosts).toEqual([]);
  });

  it('refuses a DASHBOARD_PASSWORD under 12 characters without showing it', () => {
    const problems = problemsOf({ DASHBOARD_AUTH: 'password', DASHBOARD_PASSWORD: 'hunter2hunt' });
    expect(problems).toEqual([
      'DASHBOARD_PASSWORD must have at least 12 characters (it has 11); choose a longer one',
    ]);
    expect(loadConfig(PASSWORD).auth).toMatchObject({ kind: 'password' });
  });

  it('refuses password mode on a non-loopback HOST over plain HTTP', () => {
    const env = { ...PASSWORD, HOST: '10.0.0.5' };
    expect(problemsOf(env).join('\n')).toMatch(
      /plain HTTP.*SECURE_COOKIES=true.*ALLOW_INSECURE_HTTP=true/s,
    );
    expect(loadConfig({ ...env, SECURE_COOKIES: 'true' }).secureCookies).toBe(true);
    expect(loadConfig({ ...env, ALLOW_INSECURE_HTTP: 'true' }).allowInsecureHttp).toBe(true);
    expect(loadConfig({ ...PASSWORD, HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
    // Trusted-header mode sits behind a sign-in proxy that terminates TLS.
    expect(loadConfig({ ...TRUSTED, HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
  });
});

describe('loadConfig: hosts, retry-after cap and retention', () => {
  it('collects ALLOWED_HOSTS and the host of PUBLIC_URL, lower case', () => {
    const config = loadConfig({
      ALLOWED_HOSTS: 'Desk.Example.com, 10.0.0.5:8787 ,[::1]:8080',
      PUBLIC_URL: 'https://Carriers.Example.com/',
    });
    expect(config.allowedHosts).toEqual([
      'desk.example.com',
      '10.0.0.5:8787',
      '[::1]:8080',
      'carriers.example.com',
    ]);
    expect(config.publicUrl).toBe('https://carriers.example.com');
    expect(loadConfig({ PUBLIC_URL: 'http://desk.internal:8080' }).allowedHosts).toEqual([
      'desk.internal:8080',
    ]);
  });

  it('refuses malformed host entries and public URLs, naming them', () => {
    const problems = problemsOf({
      ALLOWED_HOSTS: 'good.example.com,bad host,http://x.example',
      PUBLIC_URL: 'ftp://desk.example.com',
    }).join('\n');
    expect(problems).toMatch(/ALLOWED_HOSTS entry is not a host or host:port: "bad host"/);
    expect(problems).toMatch(/"http:\/\/x\.example"/);
    expect(problems).toMatch(/PUBLIC_URL must be an http\(s\) address/);
  });

  it('caps the honoured Retry-After at 120 s unless configured', () => {
    expect(loadConfig({}).upstream.maxRetryAfterMs).toBe(120_000);
    expect(loadConfig({ UPSTREAM_MAX_RETRY_AFTER_SECONDS: '30' }).upstream.maxRetryAfterMs).toBe(
      30_000,
    );
    expect(problemsOf({ UPSTREAM_MAX_RETRY_AFTER_SECONDS: '0' }).join(' ')).toMatch(
      /UPSTREAM_MAX_RETRY_AFTER_SECONDS/,
    );
  });

  it('opens the circuit breaker for 30 s unless configured', () => {
    expect(loadConfig({}).upstream.circuitOpenMs).toBe(30_000);
    expect(loadConfig({ UPSTREAM_CIRCUIT_OPEN_SECONDS: '2' }).upstream.circuitOpenMs).toBe(2000);
    expect(problemsOf({ UPSTREAM_CIRCUIT_OPEN_SECONDS: '0' }).join(' ')).toMatch(
      /UPSTREAM_CIRCUIT_OPEN_SECONDS/,
    );
  });

  it('reads the retention policy, with its defaults and bounds', () => {
    expect(loadConfig({}).retention).toEqual({
      auditDays: 365,
      freeLedgerDays: 90,
      pricedLedgerMonths: 24,
      tenderContactDays: 90,
    });
    expect(
      loadConfig({ AUDIT_RETENTION_DAYS: '30', LEDGER_RETENTION_MONTHS: '6' }).retention,
    ).toMatchObject({ auditDays: 30, pricedLedgerMonths: 6 });
    expect(loadConfig({ TENDER_CONTACT_RETENTION_DAYS: '7' }).retention?.tenderContactDays).toBe(7);
    expect(problemsOf({ TENDER_CONTACT_RETENTION_DAYS: '0' }).join(' ')).toMatch(
      /TENDER_CONTACT_RETENTION_DAYS must be a whole number from 1/,
    );
    expect(problemsOf({ LEDGER_RETENTION_MONTHS: '1' }).join(' ')).toMatch(
      /LEDGER_RETENTION_MONTHS must be a whole number from 2/,
    );
  });
});

describe('loadConfig: DATABASE_URL', () => {
  it('is absent by default (sessions in SQLite) and read as given when set', () => {
    expect(loadConfig({}).databaseUrl).toBeUndefined();
    for (const url of [
      'postgres://carrier:pw@db.internal:5432/carrier_desk',
      'postgresql://db.internal/carrier_desk?sslmode=require',
    ]) {
      expect(
        loadConfig({ DATABASE_URL: url, DECISION_SIGNING_KEY_FILE: '/run/secrets/key.pem' })
          .databaseUrl,
      ).toBe(url);
    }
  });

  it('needs DECISION_SIGNING_KEY_FILE: replicas sign the shared decision record with one key', () => {
    const url = 'postgres://carrier:pw@db.internal:5432/carrier_desk';
    expect(problemsOf({ DATABASE_URL: url }).join(' ')).toMatch(
      /DATABASE_URL .*needs DECISION_SIGNING_KEY_FILE.*openssl genpkey -algorithm ed25519/,
    );
    expect(loadConfig({}).decisionSigningKeyFile).toBeUndefined();
    expect(
      loadConfig({ DATABASE_URL: url, DECISION_SIGNING_KEY_FILE: '/k.pem' }).decisionSigningKeyFile,
    ).toBe('/k.pem');
  });

  it('refuses other schemes and malformed addresses without quoting a password', () => {
    for (const bad of [
      'mysql://u:s3cretpw@db/x',
      'db.internal:5432',
      'postgres://u:s3cretpw@/x',
      'postgres://u:s3cretpw@db/x#frag',
      'sqlite:///s3cretpw',
    ]) {
      const problems = problemsOf({ DATABASE_URL: bad }).join(' ');
      expect(problems).toMatch(/DATABASE_URL/);
      expect(problems).not.toContain('s3cretpw');
    }
  });
});

describe('loadConfig: REDIS_URL', () => {
  it('is absent by default (in-process buckets) and read as given when set', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'redis://10.0.0.5:6379/2' }).redisUrl).toBe(
      'redis://10.0.0.5:6379/2',
    );
    expect(loadConfig({ REDIS_URL: 'rediss://:pw@cache.internal' }).redisUrl).toBe(
      'rediss://:pw@cache.internal',
    );
  });

  it('refuses other schemes and malformed addresses without quoting a password', () => {
    for (const bad of ['http://cache:6379', 'cache:6379', 'redis://:s3cretpw@', 'redis://h?x=1']) {
      const problems = problemsOf({ REDIS_URL: bad }).join(' ');
      expect(problems).toMatch(/REDIS_URL/);
      expect(problems).not.toContain('s3cretpw');
    }
  });
});
