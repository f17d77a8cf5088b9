import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

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
    });
    expect(
      loadConfig({ AUDIT_RETENTION_DAYS: '30', LEDGER_RETENTION_MONTHS: '6' }).retention,
    ).toMatchObject({ auditDays: 30, pricedLedgerMonths: 6 });
    expect(problemsOf({ LEDGER_RETENTION_MONTHS: '1' }).join(' ')).toMatch(
      /LEDGER_RETENTION_MONTHS must be a whole number from 2/,
    );
  });
});
