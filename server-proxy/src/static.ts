import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * Source maps carry the full source (`sourcesContent`). The build writes them as "hidden" maps (no
 * `sourceMappingURL` in the bundles) so the key-leak scan and local debugging can use them, and they
 * are never served: a request for one is answered 404 like any missing file.
 */
function isServable(pathname: string): boolean {
  return !pathname.toLowerCase().endsWith('.map');
}

/** Hashed build output under /assets/ never changes; everything else is revalidated. */
function cacheControlFor(path: string): string {
  return /[\\/]assets[\\/]/.test(path) ? IMMUTABLE : REVALIDATE;
}

export interface Spa {
  /** true when `<staticDir>/index.html` exists */
  built: boolean;
  /** answer a client route with index.html */
  sendIndex(reply: FastifyReply): FastifyReply;
}

/** Serve the built SPA from `staticDir` (when it was built): files, then index.html for routes. */
export async function registerSpa(app: FastifyInstance, staticDir: string): Promise<Spa> {
  const root = resolve(staticDir);
  const built = existsSync(resolve(root, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      index: false,
      wildcard: true,
      cacheControl: false,
      dotfiles: 'ignore',
      allowedPath: isServable,
      setHeaders: (res, path) => {
        res.header('cache-control', cacheControlFor(path));
      },
    });
  }
  const sendIndex = (reply: FastifyReply) =>
    reply.header('cache-control', REVALIDATE).sendFile('index.html');
  if (built) app.get('/', (_request, reply) => sendIndex(reply));
  return { built, sendIndex };
}
