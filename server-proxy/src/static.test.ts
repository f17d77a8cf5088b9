import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startProxy, testConfig, type RunningProxy } from './helpers.test-support.ts';

const SOURCE = 'const secretBusinessLogic = 42;';
/** A bundle large enough to be compressed, varied enough for brotli's levels to differ. */
const BIG = Array.from(
  { length: 400 },
  (_, i) => `export const value${i} = ${(i * 7919) % 1013} + "${i.toString(36)}";`,
).join('\n');
let staticDir: string;
let proxy: RunningProxy;

beforeAll(async () => {
  staticDir = makeTempDir();
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(
    join(staticDir, 'index.html'),
    '<!doctype html><script src="/assets/app.js"></script>',
  );
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(42);');
  writeFileSync(join(staticDir, 'assets', 'big-abc123.js'), BIG);
  const map = { version: 3, sources: ['src/app.ts'], sourcesContent: [SOURCE], mappings: 'AAAA' };
  writeFileSync(join(staticDir, 'assets', 'app.js.map'), JSON.stringify(map));
  writeFileSync(join(staticDir, 'top.css.map'), JSON.stringify(map));
  proxy = await startProxy(testConfig({ staticDir }));
});

afterAll(async () => {
  await proxy.close();
  rmSync(staticDir, { recursive: true, force: true });
});

describe('the built SPA', () => {
  it('serves the bundles but never a source map (the full source)', async () => {
    expect((await proxy.call('/assets/app.js')).status).toBe(200);
    for (const path of [
      '/assets/app.js.map',
      '/assets/app.js.MAP',
      '/assets/app.js.%6dap',
      '/top.css.map',
    ]) {
      const reply = await proxy.call(path);
      expect(reply.status, path).toBe(404);
      expect(reply.text, path).not.toContain('secretBusinessLogic');
      expect(reply.json, path).toMatchObject({ code: 'not_found' });
    }
    // @fastify/static refuses this spelling itself (403); either way no source.
    const doubled = await proxy.call('//assets/app.js.map');
    expect(doubled.status).toBeGreaterThanOrEqual(400);
    expect(doubled.text).not.toContain('secretBusinessLogic');
  });

  it('is built with hidden source maps (written for the leak scan, referenced by nothing)', () => {
    const viteConfig = readFileSync(new URL('../../vite.config.ts', import.meta.url), 'utf8');
    expect(viteConfig).toMatch(/sourcemap: 'hidden'/);
  });
});

describe('hashed assets, compressed once', () => {
  const asset = (acceptEncoding?: string) =>
    proxy.app.inject({
      url: '/assets/big-abc123.js',
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });
  /** What the proxy keeps for brotli: quality 8, once (the plugin compresses at quality 4). */
  const stored = brotliCompressSync(BIG, { params: { [constants.BROTLI_PARAM_QUALITY]: 8 } });

  it('serves the copy made at start-up, not one compressed per request', async () => {
    let reply = await asset('br');
    for (let i = 0; i < 40 && !reply.rawPayload.equals(stored); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      reply = await asset('br');
    }
    expect(reply.rawPayload.equals(stored)).toBe(true);
    expect(reply.headers['content-encoding']).toBe('br');
    expect(reply.headers['content-type']).toMatch(/^text\/javascript/);
    expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(reply.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(reply.rawPayload).toString()).toBe(BIG);
  });

  it('follows q-values: gzip;q=1, br;q=0.1 gets gzip', async () => {
    const reply = await asset('gzip;q=1, br;q=0.1');
    expect(reply.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(reply.rawPayload).toString()).toBe(BIG);
  });

  it('never sends brotli refused with q=0', async () => {
    for (const header of ['br;q=0', 'br;q=0, gzip;q=0.5', 'br;q=0, *']) {
      const reply = await asset(header);
      expect(reply.headers['content-encoding'], header).not.toBe('br');
      expect(reply.statusCode, header).toBe(200);
    }
    const plain = await asset('br;q=0');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG);
  });

  it('sends the file as it is to a client that accepts no encoding', async () => {
    const reply = await asset();
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.body).toBe(BIG);
    expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

describe('compressed copies are cacheable by ETag', () => {
  it('gives each encoding its own strong ETag and answers 304 to it', async () => {
    const get = (headers: Record<string, string>) =>
      proxy.app.inject({ url: '/assets/big-abc123.js', headers });
    let br = await get({ 'accept-encoding': 'br' });
    for (let i = 0; i < 40 && !String(br.headers.etag).endsWith('-br"'); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      br = await get({ 'accept-encoding': 'br' });
    }
    const gzip = await get({ 'accept-encoding': 'gzip' });
    expect(br.headers.etag).toMatch(/^"[\w-]+-br"$/);
    expect(gzip.headers.etag).toMatch(/^"[\w-]+-gz"$/);
    const again = await get({ 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload).toHaveLength(0);
    const other = await get({
      'accept-encoding': 'gzip',
      'if-none-match': String(br.headers.etag),
    });
    expect(other.statusCode).toBe(200);
  });
});
