/**
 * Compressed copies of large cached bodies, made once per body and encoding.
 *
 * The compression plugin compresses every response as it is sent. For a cached 13 MB profile that
 * is ~100 ms of CPU on every cache hit, and on a 2-core machine every other request waits behind
 * it. A cached answer never changes, so its compressed form is made once (off the main thread,
 * through zlib's thread pool) and kept beside the entry: a `WeakMap` keyed by the cached object, so
 * the copy goes when the cache drops the entry. Small bodies are left to the plugin.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';

/** Below this many characters the plugin's on-the-fly compression is cheap enough. */
const PRECOMPRESS_MIN_CHARS = 64 * 1024;

export type Encoding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Compress `body`. Brotli quality 4 by default, as the compression plugin uses: most of brotli's
 * gain at a fraction of its cost, right for bodies compressed while a request waits.
 */
export function compress(body: string | Buffer, encoding: Encoding, brotliQuality = 4) {
  if (encoding === 'gzip') return gzipAsync(body);
  return brotli(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: brotliQuality,
      [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body),
    },
  });
}

/** Brotli first: it wins a tie of q-values. */
const ENCODINGS: Encoding[] = ['br', 'gzip'];
const negotiator = new Negotiator<Encoding>({ supportedValues: ENCODINGS });

/**
 * `*` means "any encoding not named": the negotiator reads it as brotli even when `br;q=0` refused
 * brotli, so it is spelt out as the encodings the header does not name, with its q-value.
 */
function expandWildcard(header: string): string {
  const parts = header.split(',').map((part) => part.trim());
  const named = new Set(parts.map((part) => part.split(';')[0]?.trim()));
  return parts
    .flatMap((part) => {
      const [token = '', ...params] = part.split(';');
      if (token.trim() !== '*') return [part];
      return ENCODINGS.filter((e) => !named.has(e)).map((e) => [e, ...params].join(';'));
    })
    .join(', ');
}

/**
 * The encoding to send for an `Accept-Encoding` header, by its q-values (RFC 9110 §12.5.3): the
 * highest q wins, brotli on a tie, `q=0` refuses, `*` stands for the encodings not named. None
 * when neither is accepted.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  return negotiator.negotiate(expandWildcard(acceptEncoding.toLowerCase())) ?? undefined;
}

/**
 * The encoding a JSON answer of `length` characters goes out in, compressed here: only a large one
 * (a small one is left to the compression plugin), never for `x-no-compression`, else as the
 * request accepts.
 */
export function largeBodyEncoding(
  headers: { 'accept-encoding'?: string | undefined; 'x-no-compression'?: unknown },
  length: number,
): Encoding | undefined {
  if (length < PRECOMPRESS_MIN_CHARS || headers['x-no-compression'] !== undefined) return undefined;
  return chooseEncoding(headers['accept-encoding']);
}

/** Compressed copies per source object; concurrent asks share one compression. */
export class Precompressed<K extends object> {
  private readonly copies = new WeakMap<K, Map<Encoding, Promise<Buffer>>>();

  /** The compressed `body` of `owner` in `encoding`, made on the first ask. */
  get(owner: K, body: string, encoding: Encoding): Promise<Buffer> {
    let byEncoding = this.copies.get(owner);
    if (!byEncoding) {
      byEncoding = new Map();
      this.copies.set(owner, byEncoding);
    }
    let copy = byEncoding.get(encoding);
    if (!copy) {
      copy = compress(body, encoding);
      // A failed compression is not kept: the next ask tries again.
      copy.catch(() => byEncoding.delete(encoding));
      byEncoding.set(encoding, copy);
    }
    return copy;
  }
}
