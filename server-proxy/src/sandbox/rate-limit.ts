import type { FastifyInstance } from 'fastify';
import { ENDPOINT_NAMES, ENDPOINTS } from '../../../src/lib/service/endpoints.ts';
import { SandboxError } from './errors.ts';
import { normalizeServicePath } from './faults.ts';

/** Published per-key, per-minute limits of live keys, by service path (the contract's table). */
export const LIVE_LIMITS_PER_MINUTE: Readonly<Record<string, number>> = Object.fromEntries(
  ENDPOINT_NAMES.flatMap((endpoint) => {
    const { path, liveLimitPerMinute } = ENDPOINTS[endpoint];
    return liveLimitPerMinute === undefined ? [] : [[path, liveLimitPerMinute]];
  }),
);

const WINDOW_MS = 60_000;

/**
 * Sliding one-minute window per key and endpoint (both deployments share it). Uses real time, not
 * the sandbox clock, because callers wait in real time.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limits: Readonly<Record<string, number>>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Record one request; returns seconds to wait when it is over the limit, else undefined. */
  hit(apiKey: string, url: string): number | undefined {
    const path = normalizeServicePath(url);
    const limit = this.limits[path];
    if (limit === undefined) return undefined;
    const now = this.now();
    const id = `${apiKey}\u0000${path}`;
    const recent = (this.hits.get(id) ?? []).filter((t) => t > now - WINDOW_MS);
    if (recent.length >= limit) {
      this.hits.set(id, recent);
      const oldest = recent[0] ?? now;
      return Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
    }
    recent.push(now);
    this.hits.set(id, recent);
    return undefined;
  }

  limitFor(url: string): number | undefined {
    return this.limits[normalizeServicePath(url)];
  }

  reset(): void {
    this.hits.clear();
  }
}

/** Answer 429 with Retry-After once a key exceeds its per-minute limit on an endpoint. */
export function registerRateLimit(app: FastifyInstance, limiter: RateLimiter): void {
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const wait = limiter.hit(request.apiKey, request.url);
    if (wait === undefined) return;
    throw new SandboxError(
      429,
      'rate_limited',
      'Rate limit exceeded for this endpoint',
      `Live keys allow ${limiter.limitFor(request.url)} requests per minute here; retry after ${wait} seconds.`,
      { 'retry-after': String(wait) },
    );
  });
}
