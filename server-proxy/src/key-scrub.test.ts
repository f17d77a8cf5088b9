import { describe, expect, it } from 'vitest';
import { KeyScrubber } from './key-scrub.ts';

const KEY = 'sk_live_0123456789abcdefSECRET';
const unicode = (text: string) =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('KeyScrubber', () => {
  const scrubber = new KeyScrubber(KEY);

  it('removes base64 of the key at every alignment, standard and URL-safe', () => {
    for (const prefix of ['', 'a', 'ab', 'abc']) {
      for (const encoding of ['base64', 'base64url'] as const) {
        const encoded = Buffer.from(`${prefix}${KEY}tail`).toString(encoding);
        const clean = scrubber.text(`x ${encoded} y`);
        expect(clean).toContain('[redacted]');
        expect(Buffer.from(clean.slice(2, -2), encoding).toString()).not.toContain(KEY);
      }
    }
  });

  it('serialises a body with escaped key characters again, and only then', () => {
    const escaped = `{"a":"${unicode(KEY)}","b":{"${unicode(KEY)}":["x"]}}`;
    const result = scrubber.json(escaped, JSON.parse);
    expect(JSON.stringify(result.json)).not.toContain(KEY);
    expect(result.body).not.toContain(KEY);
    expect(result.json).toEqual({ a: '[redacted]', b: { '[redacted]': ['x'] } });
    const plain = '{"a":"\\u00e9t\\u00e9"}';
    expect(scrubber.json(plain, JSON.parse).body).toBe(plain);
  });

  it('does nothing without a key', () => {
    expect(new KeyScrubber('').text('anything')).toBe('anything');
  });
});
