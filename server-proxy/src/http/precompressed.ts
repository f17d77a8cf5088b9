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

/** Below this many characters the plugin's on-the-fly compression is cheap enough. */
export const PRECOMPRESS_MIN_CHARS = 64 * 1024;

export type Encoding = 'br' | 'gzip';

const compressors: Record<Encoding, (body: string) => Promise<Buffer>> = {
  // Quality 4, as the compression plugin uses: most of brotli's gain at a fraction of its cost.
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 4 },
    }),
  gzip: (body) => promisify(gzip)(body),
};

/**
 * The encoding to send for an `Accept-Encoding` header: brotli, else gzip, else none. Tokens with
 * `q=0` are refused; `*` accepts both.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(',')) {
    const [token = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) continue;
    accepted.add(token);
  }
  if (accepted.has('br') || accepted.has('*')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
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
      copy = compressors[encoding](body);
      // A failed compression is not kept: the next ask tries again.
      copy.catch(() => byEncoding.delete(encoding));
      byEncoding.set(encoding, copy);
    }
    return copy;
  }
}
