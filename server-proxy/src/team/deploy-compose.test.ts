/**
 * docs/deploy/compose.yaml and its Caddyfile against the code: every variable the Compose file sets
 * on a proxy is one the proxy reads (config.ts), no key is written in it, and the reverse proxy
 * balances both replicas with health checks on /readyz.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROXY_ENV_VARIABLES } from '../config.ts';

const DEPLOY = new URL('../../../docs/deploy/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, DEPLOY), 'utf8');

interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
}

const composeText = read('compose.yaml');
const compose = parse(composeText, { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const replicas = Object.keys(services).filter((name) => /^proxy-[0-9]+$/.test(name));
const caddyfile = read('Caddyfile');

/** `${NAME…}` substitutions of a value: the variables Compose takes from the environment. */
const substituted = (value: string) => [...value.matchAll(/\$\{([A-Z_]+)/g)].map((m) => m[1]);

describe('docs/deploy/compose.yaml', () => {
  it('runs two proxy replicas', () => {
    expect(replicas).toEqual(['proxy-1', 'proxy-2']);
  });

  it('sets on the proxies only variables that config.ts reads', () => {
    const known = new Set<string>(PROXY_ENV_VARIABLES);
    for (const name of replicas) {
      const variables = Object.keys(services[name]?.environment ?? {});
      expect(variables.length).toBeGreaterThan(5);
      expect(variables.filter((variable) => !known.has(variable))).toEqual([]);
    }
  });

  it('writes no key or password: secrets come from the environment', () => {
    expect(composeText).not.toMatch(/sk_(?:live|test)_[A-Za-z0-9]/);
    for (const name of replicas) {
      const env = services[name]?.environment ?? {};
      expect(substituted(env.CARRIER_API_KEY ?? '')).toEqual(['CARRIER_API_KEY']);
      expect(substituted(env.DASHBOARD_PASSWORD ?? '')).toEqual(['DASHBOARD_PASSWORD']);
      expect(substituted(env.DATABASE_URL ?? '')).toEqual(['POSTGRES_PASSWORD']);
    }
    expect(substituted(services.postgres?.environment?.POSTGRES_PASSWORD ?? '')).toEqual([
      'POSTGRES_PASSWORD',
    ]);
  });

  it('points both replicas at the one PostgreSQL and the one Redis, with persistence', () => {
    for (const name of replicas) {
      const env = services[name]?.environment ?? {};
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/[^@/]+@postgres:5432\/[a-z_]+$/);
      expect(env.REDIS_URL).toBe('redis://redis:6379');
      expect(services[name]?.healthcheck?.test.join(' ')).toContain('/readyz');
    }
    expect(services.postgres?.image).toMatch(/^postgres:1[56]\b/);
    expect(services.redis?.image).toMatch(/^redis:7\b/);
    expect(services.redis?.command?.join(' ')).toContain('--appendonly yes');
  });

  it('has Caddy balance both replicas on their port, with health checks on /readyz', () => {
    expect(services.caddy?.image).toMatch(/^caddy:2\b/);
    const upstreams = /reverse_proxy\s+([^{\n]+)\{/.exec(caddyfile)?.[1]?.trim().split(/\s+/);
    const port = services['proxy-1']?.environment?.PORT;
    expect(upstreams?.sort()).toEqual(replicas.map((name) => `${name}:${port}`));
    expect(caddyfile).toMatch(/^\s*health_uri \/readyz$/m);
  });
});
