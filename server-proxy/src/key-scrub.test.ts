import { afterEach, describe, expect, it } from 'vitest';
import {
  CSRF,
  LIVE_KEY,
  answerJson,
  captureLog,
  startFakeOrigin,
  startProxy,
  testConfig,
  type FakeOrigin,
  type RunningProxy,
} from './helpers.test-support.ts';
import { KeyScrubber } from './key-scrub.ts';

const KEY = 'sk_live_0123456789abcdefSECRET';
/** A key with characters that have named HTML references and JSON escapes. */
const PUNCT_KEY = 'sk_live_a.b-c/d+e=f&g%h(i)Tail';
const unicode = (text: string) =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

const bytesOf = (text: string) => [...Buffer.from(text, 'utf8')];
const hex2 = (b: number) => b.toString(16).padStart(2, '0');
/** Every byte percent-encoded, lower-case hex. */
const percentAll = (text: string) =>
  bytesOf(text)
    .map((b) => `%${hex2(b)}`)
    .join('');
const decimalRefs = (text: string) => [...text].map((c) => `&#${c.charCodeAt(0)};`).join('');
const hexRefs = (text: string) =>
  [...text].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('');

/** The key in each form item 6 of issue 31 names, by a label for the failure message. */
function variants(key: string): Record<string, string> {
  const underscore = (by: string) => key.replaceAll('_', by);
  return {
    'percent _ upper hex': underscore('%5F'),
    'percent _ lower hex': underscore('%5f'),
    'percent every char': percentAll(key),
    'percent every char, upper hex': percentAll(key).toUpperCase(),
    'percent mixed with raw': [...key]
      .map((c, i) => (i % 2 === 0 ? percentAll(c) : c))
      .join('')
      .replace(/%[0-9a-f]{2}/g, (e, at: number) => (at % 3 === 0 ? e.toUpperCase() : e)),
    'percent of the percent (double encoded)': percentAll(key).replaceAll('%', '%25'),
    'upper-cased key': key.toUpperCase(),
    'percent of the upper-cased key': percentAll(key.toUpperCase()),
    'hex dump lower': Buffer.from(key).toString('hex'),
    'hex dump upper': Buffer.from(key).toString('hex').toUpperCase(),
    'hex dump with spaces': bytesOf(key).map(hex2).join(' '),
    'backslash-x escapes': bytesOf(key)
      .map((b) => `\\x${hex2(b)}`)
      .join(''),
    'entity &#95;': underscore('&#95;'),
    'entity &#x5F;': underscore('&#x5F;'),
    'entity &#X5f;': underscore('&#X5f;'),
    'entity &lowbar;': underscore('&lowbar;'),
    'entity &UnderBar;': underscore('&UnderBar;'),
    'entity escaped twice &amp;#95;': underscore('&amp;#95;'),
    'entity without semicolon &#95': key.replace('_', '&#95'),
    'every char a decimal reference': decimalRefs(key),
    'every char a hex reference': hexRefs(key).toUpperCase(),
    'mixed: entity, percent, raw, upper': [...key]
      .map((c, i) => [c.toUpperCase(), percentAll(c), `&#${c.charCodeAt(0)};`, c][i % 4])
      .join(''),
  };
}

/**
 * The key in `text` once every encoding a reader may undo is undone: HTML references (numeric and
 * the named ones of `_ . / + = & % ( )`), percent and `\x` escapes (repeatedly), case, hex dumps.
 * Written independently of the scrubber, as a browser or a curious user would decode.
 */
function revealsKey(text: string, key: string): boolean {
  const codePoint = (m: string, n: number) => (n <= 0x10ffff ? String.fromCodePoint(n) : m);
  const named: Record<string, string> = {
    lowbar: '_',
    underbar: '_',
    period: '.',
    sol: '/',
    plus: '+',
    equals: '=',
    amp: '&',
    percnt: '%',
    lpar: '(',
    rpar: ')',
  };
  let decoded = text;
  for (let round = 0; round < 4; round += 1) {
    decoded = decoded
      .replace(/&#x([0-9a-f]{1,6});?/gi, (m, h: string) => codePoint(m, parseInt(h, 16)))
      .replace(/&#([0-9]{1,7});?/g, (m, d: string) => codePoint(m, Number(d)))
      .replace(/&([a-z]+);?/gi, (m, name: string) => named[name.toLowerCase()] ?? m)
      .replace(/(?:%[0-9a-f]{2})+/gi, (m) =>
        Buffer.from(m.replaceAll('%', ''), 'hex').toString('latin1'),
      )
      .replace(/\\+x([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  const lower = decoded.toLowerCase();
  const dump = lower.replace(/[^0-9a-f]/g, '');
  return (
    lower.includes(key.toLowerCase()) ||
    dump.includes(Buffer.from(key).toString('hex')) ||
    dump.includes(Buffer.from(key.toUpperCase()).toString('hex'))
  );
}

describe('KeyScrubber', () => {
  const scrubber = new KeyScrubber(KEY);

  it.each([KEY, PUNCT_KEY])('removes every encoding issue 31 names of %s', (key) => {
    const scrub = new KeyScrubber(key);
    for (const [label, form] of Object.entries(variants(key))) {
      expect(revealsKey(form, key), `the test's decoder finds ${label}`).toBe(true);
      const clean = scrub.text(`before ${form} after`);
      expect(clean, label).toBe('before [redacted] after');
      expect(revealsKey(clean, key), label).toBe(false);
    }
  });

  it('removes the named references of punctuation in the key', () => {
    const scrub = new KeyScrubber(PUNCT_KEY);
    const named = PUNCT_KEY.replaceAll('.', '&period;')
      .replaceAll('/', '&sol;')
      .replaceAll('+', '&plus;')
      .replaceAll('=', '&equals;')
      .replaceAll('&g', '&amp;g')
      .replaceAll('%', '&percnt;')
      .replaceAll('(', '&lpar;')
      .replaceAll(')', '&rpar;');
    expect(scrub.text(`[${named}]`)).toBe('[[redacted]]');
  });

  it('leaves text with similar characters alone', () => {
    const similar = [
      'sk_live_ is the prefix of live keys; sk%5Flive%5F too',
      KEY.slice(0, -1),
      KEY.slice(1),
      KEY.replace('SECRET', 'SECRE7'),
      percentAll(KEY.slice(0, -1)),
      Buffer.from(KEY.slice(0, -2)).toString('hex'),
      `${KEY.slice(0, 10)}&#95;${KEY.slice(11)}`,
      'HANSEN &amp; ADKINS, 50% &lowbar; &#95; &#x5F; 736b5f6c697665',
      '{"note":"caf\\u00e9 \\u0041","hex":"deadbeef00112233445566778899aabbccddeeff"}',
    ];
    for (const text of similar) expect(scrubber.text(text)).toBe(text);
  });

  it('scrubs a 1 MB body of near misses and hidden forms quickly, leaving the near misses', () => {
    const forms = Object.values(variants(KEY));
    const near = [
      KEY.slice(0, -1),
      percentAll(KEY.slice(0, -1)).toUpperCase(),
      decimalRefs(KEY.slice(0, -1)),
      Buffer.from(KEY.slice(0, -1)).toString('hex'),
    ];
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < 1 << 20; i += 1) {
      const part = i % 50 === 0 ? (forms[(i / 50) % forms.length] ?? '') : (near[i % 4] ?? '');
      parts.push(part);
      size += part.length + 1;
    }
    const body = parts.join(' ');
    const started = performance.now();
    const clean = scrubber.text(body);
    const elapsed = performance.now() - started;
    expect(revealsKey(clean, KEY)).toBe(false);
    expect(clean.split('[redacted]')).toHaveLength(parts.filter((_, i) => i % 50 === 0).length + 1);
    for (const part of near) expect(clean).toContain(part);
    // about 15 ms on one core; the bound only catches a pattern gone exponential
    expect(elapsed).toBeLessThan(1000);
  });

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
    // an entity spelt with escapes is an entity once parsed
    const spelt = `{"a":"${KEY.replaceAll('_', '\\u0026#95;')}"}`;
    expect(scrubber.json(spelt, JSON.parse).json).toEqual({ a: '[redacted]' });
  });

  it('does nothing without a key', () => {
    expect(new KeyScrubber('').text('anything')).toBe('anything');
  });
});

describe('every encoding through the real proxy', () => {
  let origin: FakeOrigin | undefined;
  let proxy: RunningProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    await origin?.close();
    proxy = undefined;
    origin = undefined;
  });

  it.each([
    ['a profile body (miss and hit)', 200, KEY, '/api/v2/profile?dot_number=568253'],
    ['the profile summary', 200, KEY, '/api/local/profile-summary?dot_number=568253'],
    ['an error body', 400, KEY, '/api/v2/profile?dot_number=568253'],
    ['a profile body, a key with punctuation', 200, PUNCT_KEY, '/api/v2/profile?dot_number=568253'],
    ['an error body, a key with punctuation', 422, PUNCT_KEY, '/api/v2/autocomplete?q=ha'],
  ])('never lets %s carry the key to the client', async (_name, status, key, path) => {
    const forms = variants(key);
    origin = await startFakeOrigin((_req, res) => {
      const echoes = Object.values(forms);
      const body =
        status === 200
          ? {
              items: [
                {
                  dot_number: '568253',
                  legal_name: echoes[0],
                  notes: echoes,
                  [echoes[1] ?? '']: 1,
                },
              ],
              total_count: 1,
            }
          : { error: `bad key ${echoes.join(' ')}`, code: 'bad', hint: echoes[2] };
      answerJson(res, status, body, {
        'retry-after': forms['percent _ upper hex'],
        'x-total-count': forms['hex dump lower'],
      });
    });
    // the test's own decoder finds the key in what the origin sends
    const sent = await fetch(`${origin.url}/v2/profile`).then((r) => r.text());
    expect(revealsKey(sent, key)).toBe(true);
    origin.requests.length = 0;
    const log = captureLog();
    proxy = await startProxy(
      testConfig({
        upstream: { baseUrl: origin.url, apiKey: key, legacy: false, timeoutMs: 2000 },
      }),
      { logStream: log },
    );
    for (const attempt of status === 200 ? ['miss', 'hit'] : ['first']) {
      const result = await proxy.call(path, { headers: CSRF });
      expect(result.status, attempt).toBe(status);
      const headers = JSON.stringify([...result.headers]);
      expect(revealsKey(result.text, key), attempt).toBe(false);
      expect(revealsKey(headers, key), attempt).toBe(false);
      for (const [label, form] of Object.entries(forms)) {
        expect(result.text, `${attempt}: ${label}`).not.toContain(form);
      }
      expect(result.text).toContain('[redacted]');
    }
    expect(revealsKey(log.lines.join(''), key)).toBe(false);
  });

  it('keeps the default key out when the forms are only in the parsed body', async () => {
    origin = await startFakeOrigin((_req, res) =>
      answerJson(
        res,
        200,
        `{"items":[],"total_count":0,"echo":"${unicode(variants(LIVE_KEY)['entity &#95;'] ?? '')}"}`,
      ),
    );
    proxy = await startProxy(
      testConfig({
        upstream: { baseUrl: origin.url, apiKey: LIVE_KEY, legacy: false, timeoutMs: 2000 },
      }),
    );
    const result = await proxy.call('/api/v2/monitoring/list', { headers: CSRF });
    expect(result.status).toBe(200);
    expect(result.json).toEqual({ items: [], total_count: 0, echo: '[redacted]' });
  });
});
