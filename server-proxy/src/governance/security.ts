import { createHash } from 'node:crypto';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { connectionSettled } from '../team/redis-login-limit.ts';
import { isTokenRequest, pathOf } from './access.ts';
import { sendError } from './errors.ts';

/**
 * Content Security Policy. Scripts, styles, fonts and data only from our origin; MapLibre's workers
 * are created from blob: URLs (worker-src, and child-src for older Safari); map images may be data:
 * or blob: URLs. No inline scripts or styles: React and MapLibre set styles through the CSSOM,
 * which CSP does not restrict.
 */
function contentSecurityPolicy(secure: boolean): Record<string, string[]> {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'worker-src': ["'self'", 'blob:'],
    'child-src': ['blob:'],
    'object-src': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  if (secure) directives['upgrade-insecure-requests'] = [];
  return directives;
}

/** Headers of any response, not helmet's: left out of the captured set. */
const TRANSPORT_HEADERS = new Set([
  'connection',
  'content-length',
  'content-type',
  'date',
  'keep-alive',
  'transfer-encoding',
]);

/**
 * The headers helmet sends with `options`, computed once from one response of a throwaway
 * instance. @fastify/helmet builds helmet's middleware, CSP parsing included, on every request
 * (about 3 % of the proxy's CPU on a cache hit); with no CSP nonces the headers never depend on the
 * request, so they can be set from this fixed set instead.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify();
  try {
    await probe.register(helmet, options);
    probe.get('/', async () => '');
    const response = await probe.inject({ url: '/' });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (!TRANSPORT_HEADERS.has(name) && typeof value === 'string') headers[name] = value;
    }
    return headers;
  } finally {
    await probe.close();
  }
}

/** Security headers on every response (CSP, nosniff, frame-ancestors, referrer policy, HSTS on TLS). */
export async function registerSecurityHeaders(app: FastifyInstance, secure: boolean) {
  const headers = await helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(secure) },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: secure ? { maxAge: 31_536_000 } : false,
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: 'deny' },
  });
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
}

/**
 * Per-user limit on /api: `perMinute` requests per user (or per address before sign-in) per minute;
 * an API token's requests count against the token (its user) with `perTokenMinute` instead
 * (TOKEN_RATE_LIMIT_PER_MINUTE, docs/api.md). Beyond it 429 with Retry-After and the service's
 * error shape. With `shared` (REDIS_URL) the counts live in Redis under `nameSpace`, one per user
 * or token for every replica, the user hashed in the key; while Redis cannot be asked, requests
 * are let through uncounted (docs/deployment.md).
 */
export async function registerUserRateLimit(
  app: FastifyInstance,
  perMinute: number,
  shared?: { redis: Redis; nameSpace: string },
  perTokenMinute: number = perMinute,
) {
  const keyOf = (key: string) =>
    shared ? createHash('sha256').update(key).digest('hex').slice(0, 32) : key;
  const maxOf = (request: FastifyRequest) => (isTokenRequest(request) ? perTokenMinute : perMinute);
  await app.register(rateLimit, {
    global: false,
    max: maxOf,
    timeWindow: 60_000,
    keyGenerator: (request) => keyOf(request.user ? `user:${request.user.id}` : `ip:${request.ip}`),
    ...(shared ? { redis: shared.redis, nameSpace: shared.nameSpace, skipOnError: true } : {}),
  });
  const check = app.createRateLimit();
  app.addHook('onRequest', async (request, reply) => {
    if (!pathOf(request.url).startsWith('/api/')) return;
    if (shared) await connectionSettled(shared.redis, 500);
    const limit = await check(request);
    if (limit.isAllowed || !limit.isExceeded) return;
    const wait = Math.max(1, limit.ttlInSeconds);
    const token = isTokenRequest(request);
    reply.header('retry-after', String(wait));
    return sendError(reply, 429, {
      error: `More than ${maxOf(request)} requests a minute${token ? ' with this API token' : ''}`,
      code: 'rate_limited',
      hint: token
        ? `Wait ${wait} s before retrying; an API token may make ${perTokenMinute} requests a minute (TOKEN_RATE_LIMIT_PER_MINUTE).`
        : `Wait ${wait} s before retrying.`,
    });
  });
}
