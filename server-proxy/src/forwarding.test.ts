import { afterEach, describe, expect, it } from 'vitest';
import {
  CSRF,
  LIVE_KEY,
  SAMPLE_PROFILE,
  answerJson,
  captureLog,
  startFakeOrigin,
  startProxy,
  testConfig,
  type FakeOrigin,
  type OriginHandler,
  type RunningProxy,
} from './helpers.test-support.ts';

let origin: FakeOrigin;
let proxy: RunningProxy;

afterEach(async () => {
  await proxy?.close();
  await origin?.close();
});

const CLIENT_SECRETS = {
  authorization: 'Bearer client-token-should-not-pass',
  'x-api-key': 'client-api-key-should-not-pass',
  cookie: 'cd_session=client-cookie-should-not-pass',
};

async function setup(legacy: boolean, overrides = {}) {
  origin = await startFakeOrigin();
  proxy = await startProxy(
    testConfig({
      upstream: { baseUrl: origin.url, apiKey: LIVE_KEY, legacy, timeoutMs: 2000 },
      ...overrides,
    }),
  );
}

describe.each([
  { legacy: false, path: '/v2/profile', header: 'authorization', value: `Bearer ${LIVE_KEY}` },
  { legacy: true, path: '/api/v2/profile', header: 'x-api-key', value: LIVE_KEY },
])('deployment legacy=$legacy', ({ legacy, path, header, value }) => {
  it('adds the key in the deployment header and never forwards a client credential', async () => {
    await setup(legacy);
    const result = await proxy.call('/api/v2/profile?dot_number=568253', {
      headers: { ...CLIENT_SECRETS, 'accept-language': 'en-US' },
    });
    expect(result.status).toBe(200);
    expect(result.json).toEqual(SAMPLE_PROFILE);
    expect(origin.requests).toHaveLength(1);
    const seen = origin.requests[0]!;
    expect(seen.url).toBe(`${path}?dot_number=568253`);
    expect(seen.headers[header]).toBe(value);
    const other = header === 'authorization' ? 'x-api-key' : 'authorization';
    expect(seen.headers[other]).toBeUndefined();
    expect(seen.headers.cookie).toBeUndefined();
    expect(seen.headers['accept-language']).toBe('en-US');
    expect(JSON.stringify(seen.headers)).not.toContain('should-not-pass');
  });

  it('sends monitoring bodies canonicalised with the key and the JSON type', async () => {
    await setup(legacy);
    origin.handle((_req, res) => answerJson(res, 200, { status: 'ok', added: 1 }));
    const result = await proxy.call('/api/v2/monitoring/add', {
      method: 'POST',
      headers: { ...CSRF, ...CLIENT_SECRETS },
      body: { profile_ids: ['568253-mc277621'] },
    });
    expect(result.status).toBe(200);
    const seen = origin.requests[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe(path.replace('profile', 'monitoring/add'));
    expect(JSON.parse(seen.body)).toEqual({ profile_ids: ['568253-MC277621'] });
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers[header]).toBe(value);
    expect(seen.headers.cookie).toBeUndefined();
  });
});

describe('responses', () => {
  it('drops set-cookie and hop-by-hop headers, passes Retry-After and X-Total-Count', async () => {
    await setup(false);
    origin.handle((_req, res) =>
      answerJson(
        res,
        200,
        { dot_number: '568253' },
        {
          'set-cookie': 'upstream=1',
          'x-total-count': '3',
          'x-internal-secret': 'nope',
          'keep-alive': 'timeout=5',
          'proxy-authenticate': 'Basic',
        },
      ),
    );
    const result = await proxy.call('/api/v2/profile-fmcsa?dot_number=568253');
    expect(result.status).toBe(200);
    expect(result.headers.get('set-cookie')).toBeNull();
    expect(result.headers.get('x-internal-secret')).toBeNull();
    expect(result.headers.get('proxy-authenticate')).toBeNull();
    expect(result.headers.get('x-total-count')).toBe('3');
    expect(result.headers.get('x-cache')).toBe('miss');
    expect(new Date(result.headers.get('x-fetched-at') ?? '').getTime()).toBeGreaterThan(0);
  });

  it('never lets the key out: echoed bodies are scrubbed and logs redacted', async () => {
    origin = await startFakeOrigin((req, res) =>
      answerJson(res, 400, {
        error: `bad key ${req.headers.authorization}`,
        code: 'x',
        hint: LIVE_KEY,
      }),
    );
    const log = captureLog();
    proxy = await startProxy(
      testConfig({
        upstream: { baseUrl: origin.url, apiKey: LIVE_KEY, legacy: false, timeoutMs: 2000 },
        logLevel: 'trace',
      }),
      { logStream: log },
    );
    proxy.app.log.info({ headers: { authorization: 'Bearer x' } }, `key is ${LIVE_KEY}`);
    proxy.app.log.info({ echo: Buffer.from(`x${LIVE_KEY}`).toString('base64') }, 'encoded');
    const result = await proxy.call('/api/v2/profile?dot_number=568253', {
      headers: CLIENT_SECRETS,
    });
    expect(result.status).toBe(400);
    const everything = `${result.text}${JSON.stringify([...result.headers])}`;
    expect(everything).not.toContain(LIVE_KEY);
    expect(everything).toContain('[redacted]');
    expect(log.lines.length).toBeGreaterThan(2);
    const logged = log.lines.join('');
    expect(logged).not.toContain(LIVE_KEY);
    expect(logged).not.toContain('Bearer x');
    expect(logged).toContain('key is [redacted]');
    expect(logged).not.toContain(Buffer.from(`x${LIVE_KEY}`).toString('base64').slice(4, -4));
  });

  it.each([
    ['a 200 with a broken JSON body', 200, '{"items": [', 502, 'bad_upstream'],
    ['an error without a JSON body', 500, '<html>oops</html>', 502, 'bad_upstream'],
    [
      'a 401 (the proxy key is rejected)',
      401,
      '{"error":"invalid key"}',
      502,
      'upstream_key_rejected',
    ],
  ])('turns %s into %i %s', async (_name, status, body, expected, code) => {
    await setup(false);
    origin.handle((_req, res) => answerJson(res, status, body));
    const result = await proxy.call('/api/v2/profile?dot_number=568253');
    expect(result.status).toBe(expected);
    expect(result.json).toEqual({ error: expect.any(String), code, hint: expect.any(String) });
  });

  it('passes the service statuses and error bodies through', async () => {
    await setup(false);
    const notFound = { error: 'No carrier matched', code: 'not_found', hint: 'free' };
    origin.handle((_req, res) => answerJson(res, 404, notFound));
    const result = await proxy.call('/api/v2/profile-fmcsa?dot_number=1');
    expect(result.status).toBe(404);
    expect(result.json).toEqual(notFound);
  });

  it('answers 504 when the service does not answer in time', async () => {
    await setup(false);
    origin.handle((_req, res) => setTimeout(() => answerJson(res, 200, SAMPLE_PROFILE), 3000));
    const result = await proxy.call('/api/v2/profile?dot_number=568253');
    expect(result.status).toBe(504);
    expect((result.json as { code: string }).code).toBe('upstream_timeout');
  });

  it('retries 503 (twice at most) and returns the later success', async () => {
    await setup(false);
    let calls = 0;
    origin.handle((_req, res) => {
      calls += 1;
      if (calls < 3) answerJson(res, 503, { error: 'down', code: 'service_unavailable' });
      else answerJson(res, 200, SAMPLE_PROFILE);
    });
    const result = await proxy.call('/api/v2/profile?dot_number=568253');
    expect(result.status).toBe(200);
    expect(calls).toBe(3);
  });

  it('gives up after two retries and passes the 503 on', async () => {
    await setup(false);
    origin.handle((_req, res) =>
      answerJson(res, 503, { error: 'down', code: 'service_unavailable', hint: 'later' }),
    );
    const result = await proxy.call('/api/v2/monitoring/list');
    expect(result.status).toBe(503);
    expect(origin.requests).toHaveLength(3);
  });

  it('retries a reset connection', async () => {
    await setup(false);
    origin.handle((req, res) => {
      if (origin.requests.length === 1) res.socket?.destroy();
      else answerJson(res, 200, SAMPLE_PROFILE);
    });
    const result = await proxy.call('/api/v2/profile?dot_number=568253');
    expect(result.status).toBe(200);
    expect(origin.requests).toHaveLength(2);
  });

  it('waits out a 429 with Retry-After and then succeeds', async () => {
    await setup(false);
    origin.handle((_req, res) => {
      if (origin.requests.length === 1) {
        answerJson(res, 429, { error: 'slow down', code: 'rate_limited' }, { 'retry-after': '1' });
      } else answerJson(res, 200, SAMPLE_PROFILE);
    });
    const started = Date.now();
    const result = await proxy.call('/api/v2/profile?dot_number=568253');
    expect(result.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('passes 429 with Retry-After on when the wait is longer than the bound', async () => {
    await setup(false);
    origin.handle((_req, res) =>
      answerJson(res, 429, { error: 'slow down', code: 'rate_limited' }, { 'retry-after': '40' }),
    );
    const result = await proxy.call('/api/v2/profile?dot_number=568253');
    expect(result.status).toBe(429);
    expect(result.headers.get('retry-after')).toBe('40');
    expect(origin.requests).toHaveLength(1);
    // the endpoint is now paused: the next request is refused without reaching the service
    const second = await proxy.call('/api/v2/profile?dot_number=1');
    expect(second.status).toBe(429);
    expect((second.json as { code: string }).code).toBe('rate_limited');
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(30);
    expect(origin.requests).toHaveLength(1);
    // other endpoints are not paused
    origin.handle((_req, res) => answerJson(res, 200, { items: [], total_count: 0 }));
    expect((await proxy.call('/api/v2/autocomplete?q=ha')).status).toBe(200);
  });
});

/** A key with characters every encoding treats differently. */
const ODD_KEY = `sk_live_Q9+/x=y&z%w v"q\\r~!'()*Tail`;

/** `text` with every character written as a JSON \u escape. */
function unicodeEscaped(text: string): string {
  return [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
}

const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

/** Every encoding of `key` the service might echo, as raw JSON string contents. */
function echoedForms(key: string): Record<string, string> {
  return {
    raw: JSON.stringify(key).slice(1, -1),
    slashEscaped: JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/'),
    unicode: unicodeEscaped(key),
    base64: b64(key),
    base64Url: b64url(key),
    base64Offset1: b64(`a${key}`),
    base64Offset2: b64(`ab${key}tail`),
    base64UrlOffset2: b64url(`ab${key}`),
    base64UnicodeEscaped: unicodeEscaped(b64(`a${key}`)),
    uri: encodeURIComponent(key),
    uriLower: encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    form: new URLSearchParams({ k: key }).toString().slice(2),
    inQuery: `https://x.example/?key=${encodeURIComponent(key)}&b=1`,
  };
}

/** The encodings of `key` found in `text`, and in every string of it once parsed as JSON. */
function leaks(text: string, key: string): string[] {
  const found: string[] = [];
  const check = (where: string, s: string) => {
    const decodedB64 = [0, 1, 2, 3].map((skip) => Buffer.from(s.slice(skip), 'base64').toString());
    const decodedB64Url = [0, 1, 2, 3].map((skip) =>
      Buffer.from(s.slice(skip), 'base64url').toString(),
    );
    const forms: [string, boolean][] = [
      ['raw', s.includes(key)],
      ['uri', s.includes(encodeURIComponent(key))],
      ['form', s.includes(new URLSearchParams({ k: key }).toString().slice(2))],
      ['base64', decodedB64.some((d) => d.includes(key))],
      ['base64url', decodedB64Url.some((d) => d.includes(key))],
    ];
    let decodedUri = '';
    try {
      decodedUri = decodeURIComponent(s.replaceAll('+', ' '));
    } catch {
      decodedUri = '';
    }
    forms.push(['uri-decoded', decodedUri.includes(key)]);
    for (const [form, hit] of forms) if (hit) found.push(`${where}:${form}`);
  };
  check('text', text);
  const stack: unknown[] = [JSON.parse(text) as unknown];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') check('parsed', node);
    else if (node && typeof node === 'object') {
      for (const [name, value] of Object.entries(node)) {
        check('parsed-name', name);
        stack.push(value);
      }
    }
  }
  return [...new Set(found)];
}

describe('the key in any encoding', () => {
  /** A profile echoing the key in every encoding, in values, in a property name and in headers. */
  function echoingOrigin(key: string): OriginHandler {
    return (_req, res) => {
      const forms = echoedForms(key);
      const notes = Object.entries(forms)
        .map(([name, value]) => `"${name}":"${value}"`)
        .join(',');
      const body =
        `{"items":[{"dot_number":"568253","legal_name":"${forms.unicode}",` +
        `"notes":{${notes}},"${forms.unicode}":1,` +
        `"inspection_history":[{"note":"${forms.base64}"}]}],"total_count":1}`;
      res.writeHead(200, {
        'content-type': 'application/json',
        'retry-after': key,
        'x-total-count': b64(key),
      });
      res.end(body);
    };
  }

  it.each([
    ['the mirror', '/api/v2/profile?dot_number=568253'],
    ['the profile summary', '/api/local/profile-summary?dot_number=568253'],
  ])('never reaches the browser through %s', async (_name, path) => {
    origin = await startFakeOrigin(echoingOrigin(ODD_KEY));
    proxy = await startProxy(
      testConfig({
        upstream: { baseUrl: origin.url, apiKey: ODD_KEY, legacy: false, timeoutMs: 2000 },
      }),
    );
    // the test's own check finds every form the origin sends
    const sent = await fetch(`${origin.url}/v2/profile`).then((r) => r.text());
    expect(leaks(sent, ODD_KEY)).toEqual(
      expect.arrayContaining([
        'text:uri',
        'text:form',
        'parsed:raw',
        'parsed-name:raw',
        'parsed:base64',
        'parsed:base64url',
        'parsed:uri-decoded',
      ]),
    );
    origin.requests.length = 0;
    for (const attempt of ['miss', 'hit']) {
      const result = await proxy.call(path, { headers: CSRF });
      expect(result.status, attempt).toBe(200);
      expect(leaks(result.text, ODD_KEY), attempt).toEqual([]);
      const headers = JSON.stringify([...result.headers]);
      expect(headers).not.toContain(ODD_KEY);
      expect(headers).not.toContain(b64(ODD_KEY));
      expect(result.headers.get('x-total-count')).toBeNull();
      expect(result.text).toContain('[redacted]');
    }
    expect(origin.requests).toHaveLength(1);
  });

  it('keeps the default key out of a unicode-escaped echo on every endpoint', async () => {
    origin = await startFakeOrigin((_req, res) =>
      answerJson(res, 200, `{"items":[],"total_count":0,"echo":"${unicodeEscaped(LIVE_KEY)}"}`),
    );
    proxy = await startProxy(
      testConfig({
        upstream: { baseUrl: origin.url, apiKey: LIVE_KEY, legacy: false, timeoutMs: 2000 },
      }),
    );
    for (const path of ['/api/v2/autocomplete?q=ha', '/api/v2/monitoring/list']) {
      const result = await proxy.call(path, { headers: CSRF });
      expect(result.status).toBe(200);
      expect(JSON.stringify(result.json)).not.toContain(LIVE_KEY);
    }
  });
});

describe('deeply nested upstream JSON', () => {
  const DEPTH = 100_000;
  const nested = (inner: string) => `${'['.repeat(DEPTH)}${inner}${']'.repeat(DEPTH)}`;

  it.each([
    ['profile', 'GET', '/api/v2/profile?dot_number=568253'],
    ['profile-lite', 'GET', '/api/v2/profile-lite?dot_number=568253'],
    ['profile-fmcsa', 'GET', '/api/v2/profile-fmcsa?dot_number=568253'],
    ['autocomplete', 'GET', '/api/v2/autocomplete?q=ha'],
    ['monitoring/list', 'GET', '/api/v2/monitoring/list'],
    ['monitoring/add', 'POST', '/api/v2/monitoring/add'],
    ['monitoring/remove', 'POST', '/api/v2/monitoring/remove'],
    ['the profile summary', 'GET', '/api/local/profile-summary?dot_number=568253'],
  ])('answers 502 bad_upstream for %s, never 500', async (_name, method, path) => {
    await setup(false);
    origin.handle((_req, res) =>
      answerJson(
        res,
        200,
        `{"items":[{"dot_number":"568253","x":${nested('1')}}],"total_count":1}`,
      ),
    );
    const body = method === 'POST' ? { profile_ids: ['568253-MC277621'] } : undefined;
    const result = await proxy.call(path, { method, headers: CSRF, body });
    expect(result.status).toBe(502);
    expect(result.json).toEqual({
      error: expect.stringContaining('nested'),
      code: 'bad_upstream',
      hint: expect.any(String),
    });
  });

  it('still serves answers of ordinary depth, with brackets inside strings', async () => {
    await setup(false);
    const body = { items: [{ dot_number: '568253', legal_name: `${'['.repeat(500)}"\\` }] };
    origin.handle((_req, res) => answerJson(res, 200, body));
    const result = await proxy.call('/api/v2/profile?dot_number=568253');
    expect(result.status).toBe(200);
    expect(result.json).toEqual(body);
  });
});
