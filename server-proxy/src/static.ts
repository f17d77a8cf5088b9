import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { chooseEncoding, compress, type Encoding } from './http/precompressed.ts';

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

/** Types worth compressing, by extension; images and fonts are compressed already. */
const COMPRESSIBLE: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};
/** Smaller files gain nothing from compression (the compression plugin's threshold too). */
const MIN_COMPRESS_BYTES = 1024;
/**
 * Brotli quality for assets compressed once: on this app's bundles quality 8 is within 0.3 % of 9
 * at a tenth of its time, and 11 saves another 8 % for twenty times the CPU at every start.
 */
const ASSET_BROTLI_QUALITY = 8;

interface CompressedAsset {
  type: string;
  copies: Record<Encoding, Buffer>;
  /** strong ETag per encoding (each copy is its own representation) */
  etags: Record<Encoding, string>;
}

/**
 * The hashed bundles under `<root>/assets`, compressed once in both encodings and kept in memory.
 * A hashed name never changes content, so a copy never goes stale. Start-up compresses the files
 * there one after another in the background; a request that comes first, or for a file added
 * later, is served from disk (compressed on the fly) and triggers that file's copies.
 */
class AssetCopies {
  private readonly copies = new Map<string, Promise<CompressedAsset | undefined>>();
  private readonly ready = new Map<string, CompressedAsset>();

  constructor(private readonly dir: string) {}

  /** The copies of `name` (a file directly in the assets folder) if they are made. */
  get(name: string): CompressedAsset | undefined {
    const asset = this.ready.get(name);
    if (!asset) void this.make(name);
    return asset;
  }

  /** Compress every asset there is now, one at a time (zlib's pool leaves the event loop free). */
  async warm(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) await this.make(name);
  }

  private make(name: string): Promise<CompressedAsset | undefined> {
    let pending = this.copies.get(name);
    if (!pending) {
      pending = this.compressFile(name).then((asset) => {
        if (asset) this.ready.set(name, asset);
        return asset;
      });
      this.copies.set(name, pending);
    }
    return pending;
  }

  private async compressFile(name: string): Promise<CompressedAsset | undefined> {
    const type = COMPRESSIBLE[extname(name).toLowerCase()];
    // only plain names: the map is keyed by what the folder lists, never by a path
    if (type === undefined || !isServable(name) || /[\\/]/.test(name)) return undefined;
    try {
      const body = await readFile(resolve(this.dir, name));
      if (body.length < MIN_COMPRESS_BYTES) return undefined;
      const [br, gzip] = [
        await compress(body, 'br', ASSET_BROTLI_QUALITY),
        await compress(body, 'gzip'),
      ];
      const hash = createHash('sha256').update(body).digest('base64url').slice(0, 22);
      return { type, copies: { br, gzip }, etags: { br: `"${hash}-br"`, gzip: `"${hash}-gz"` } };
    } catch {
      return undefined;
    }
  }
}

/** A compressed copy of the asset asked for, when there is one the client accepts. */
function sendCopy(
  request: FastifyRequest,
  reply: FastifyReply,
  assets: AssetCopies,
  name: string,
): FastifyReply | undefined {
  if (request.headers['x-no-compression'] !== undefined) return undefined;
  const asset = assets.get(name);
  if (!asset) return undefined;
  reply.header('cache-control', IMMUTABLE).header('vary', 'accept-encoding').type(asset.type);
  const encoding = chooseEncoding(request.headers['accept-encoding']);
  if (!encoding) return undefined;
  const etag = asset.etags[encoding];
  reply.header('content-encoding', encoding).header('etag', etag);
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.send(asset.copies[encoding]);
}

export interface Spa {
  /** true when `<staticDir>/index.html` exists */
  built: boolean;
  /** answer a client route with index.html */
  sendIndex(reply: FastifyReply): FastifyReply;
}

/**
 * Serve the built SPA from `staticDir` (when it was built): hashed assets from compressed copies
 * made once, other files from disk, then index.html for routes.
 */
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
    const assets = new AssetCopies(resolve(root, 'assets'));
    void assets.warm();
    // Wins over the static plugin's wildcard for /assets/<file>; anything it does not hold in
    // memory (a source map, an image, a file not yet compressed) goes the plugin's way.
    app.get('/assets/:file', (request, reply) => {
      const { file } = request.params as { file: string };
      if (!isServable(file)) return reply.callNotFound();
      return sendCopy(request, reply, assets, file) ?? reply.sendFile(`assets/${file}`);
    });
  }
  const sendIndex = (reply: FastifyReply) =>
    reply.header('cache-control', REVALIDATE).sendFile('index.html');
  if (built) app.get('/', (_request, reply) => sendIndex(reply));
  return { built, sendIndex };
}
