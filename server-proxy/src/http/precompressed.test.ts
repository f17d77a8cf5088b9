import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, Precompressed } from './precompressed.ts';

describe('chooseEncoding', () => {
  it('prefers brotli, then gzip, and refuses q=0 tokens', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip;q=0.8, deflate')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('BR ; q=0.5')).toBe('br');
    expect(chooseEncoding('*')).toBe('br');
  });

  it('chooses nothing without a header or an encoding we make', () => {
    expect(chooseEncoding(undefined)).toBeUndefined();
    expect(chooseEncoding('')).toBeUndefined();
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding('deflate, br;q=0, gzip;q=0')).toBeUndefined();
  });
});

describe('Precompressed', () => {
  const body = JSON.stringify({ items: Array.from({ length: 2000 }, (_, i) => ({ i, v: 'x' })) });

  it('makes each encoding once per owner and the copies decompress to the body', async () => {
    const copies = new Precompressed<object>();
    const owner = {};
    const [first, second] = await Promise.all([
      copies.get(owner, body, 'br'),
      copies.get(owner, body, 'br'),
    ]);
    expect(second).toBe(first);
    expect(brotliDecompressSync(first).toString('utf8')).toBe(body);
    const gz = await copies.get(owner, body, 'gzip');
    expect(gunzipSync(gz).toString('utf8')).toBe(body);
    expect(gz.length).toBeLessThan(body.length / 5);
  });

  it('keeps separate copies for separate owners', async () => {
    const copies = new Precompressed<object>();
    const a = await copies.get({}, body, 'gzip');
    const b = await copies.get({}, `${body} `, 'gzip');
    expect(gunzipSync(b).toString('utf8')).toBe(`${body} `);
    expect(b).not.toBe(a);
  });
});

describe('chooseEncoding by q-values', () => {
  it('takes gzip over brotli when gzip has the higher q', () => {
    expect(chooseEncoding('gzip;q=1, br;q=0.1')).toBe('gzip');
    expect(chooseEncoding('br;q=0.5, gzip;q=0.9')).toBe('gzip');
    expect(chooseEncoding('br;q=0.9, gzip;q=0.5')).toBe('br');
  });

  it('never takes brotli at q=0, however it is spelt', () => {
    for (const header of ['br;q=0', 'br;q=0, gzip', 'br; q=0.0, *', 'gzip;q=0.1, BR;Q=0']) {
      expect(chooseEncoding(header), header).not.toBe('br');
    }
    expect(chooseEncoding('br;q=0')).toBeUndefined();
  });
});
