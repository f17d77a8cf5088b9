// @vitest-environment node
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  CSRF_HEADER as PROXY_CSRF_HEADER,
  CSRF_HEADER_VALUE as PROXY_CSRF_HEADER_VALUE,
} from '../../server-proxy/src/governance/index.ts';
import {
  LIVE_KEY,
  startFakeOrigin,
  startProxy,
  testConfig as proxyTestConfig,
} from '../../server-proxy/src/helpers.test-support.ts';
import {
  ApiError,
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
  apiGet,
  apiGetWithMeta,
  apiPost,
  buildUrl,
  parseBody,
  parseRetryAfter,
  primeGet,
  signInPath,
} from './api-client.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const routes: Record<string, Handler> = {
  '/api/echo': (req, res, body) =>
    json(res, 200, {
      method: req.method,
      url: req.url,
      accept: req.headers.accept,
      body,
      contentType: req.headers['content-type'] ?? null,
      csrf: req.headers[CSRF_HEADER] ?? null,
    }),
  '/api/with-meta': (req, res) =>
    json(
      res,
      200,
      { cacheControl: req.headers['cache-control'] ?? null },
      { 'x-cache': 'hit', 'x-fetched-at': '2026-11-16T12:00:00.000Z' },
    ),
  '/api/signed-out': (_req, res) =>
    json(res, 401, { error: 'Not signed in', code: 'unauthenticated', hint: 'Sign in.' }),
  '/api/wrong-password': (_req, res) =>
    json(res, 401, { error: 'Wrong user name or password', code: 'bad_credentials' }),
  '/api/bad-request': (_req, res) =>
    json(res, 400, {
      error: 'dot_number is required',
      code: 'missing_parameter',
      hint: 'Pass one search key.',
    }),
  '/api/rate-limited': (_req, res) =>
    json(res, 429, { error: 'Too many requests' }, { 'retry-after': '7' }),
  '/api/html-gateway': (_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
  },
  '/api/odd-error-body': (_req, res) => json(res, 500, { error: 42, code: '', hint: ['x'] }),
  '/api/not-json': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('hello');
  },
  '/api/empty': (_req, res) => {
    res.writeHead(204);
    res.end();
  },
  '/api/counted': (req, res) => {
    counted += 1;
    const failing = new URL(req.url ?? '/', 'http://x').searchParams.has('fail');
    if (failing) json(res, 404, { error: 'No such carrier', code: 'unknown_dot' });
    else json(res, 200, { answer: counted }, { 'x-cache': 'hit' });
  },
  '/api/slow': (_req, res) => {
    const timer = setTimeout(() => json(res, 200, { late: true }), 5_000);
    res.on('close', () => clearTimeout(timer));
  },
};

let server: Server;
let baseUrl: string;
/** requests `/api/counted` has answered */
let counted = 0;
let closedPortUrl: string;

function listen(target: Server): Promise<string> {
  return new Promise((resolve) => {
    target.listen(0, '127.0.0.1', () => {
      const { port } = target.address() as AddressInfo;
      resolve(`http://127.0.0.1:${port}`);
    });
  });
}

function close(target: Server): Promise<void> {
  return new Promise((resolve, reject) =>
    target.close((error) => (error ? reject(error) : resolve())),
  );
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const handler = routes[new URL(req.url ?? '/', 'http://x').pathname];
      if (handler) handler(req, res, body);
      else json(res, 404, { error: 'No such route' });
    });
  });
  baseUrl = await listen(server);
  // A port that was just free: nothing listens there any more.
  const gone = createServer();
  closedPortUrl = await listen(gone);
  await close(gone);
});

afterAll(async () => {
  server.closeAllConnections();
  await close(server);
});

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('apiGet', () => {
  it('sends query parameters, skips empty ones, asks for JSON and sends the CSRF header', async () => {
    const body = await apiGet(
      '/api/echo',
      { dot_number: '568253', page: 2, view_changes: true, q: undefined, x: null },
      { baseUrl },
    );
    expect(body).toMatchObject({
      method: 'GET',
      url: '/api/echo?dot_number=568253&page=2&view_changes=true',
      accept: 'application/json',
      // The proxy refuses billable GETs without it (a hostile page's <img> cannot send it).
      csrf: CSRF_HEADER_VALUE,
    });
  });

  it('maps an error body to ApiError with status, code and hint', async () => {
    const error = await failure(apiGet('/api/bad-request', {}, { baseUrl }));
    expect(error).toMatchObject({
      kind: 'http',
      status: 400,
      message: 'dot_number is required',
      code: 'missing_parameter',
      hint: 'Pass one search key.',
      retryAfter: undefined,
    });
  });

  it('reads Retry-After on 429', async () => {
    const error = await failure(apiGet('/api/rate-limited', {}, { baseUrl }));
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBe(7);
    expect(error.message).toBe('Too many requests');
  });

  it('gives a readable message for a non-JSON error page', async () => {
    const error = await failure(apiGet('/api/html-gateway', {}, { baseUrl }));
    expect(error).toMatchObject({ kind: 'http', status: 502, code: undefined, hint: undefined });
    expect(error.message).toBe('The server answered 502 Bad Gateway.');
  });

  it('ignores error-body fields of the wrong type', async () => {
    const error = await failure(apiGet('/api/odd-error-body', {}, { baseUrl }));
    expect(error).toMatchObject({ status: 500, code: undefined, hint: undefined });
    expect(error.message).toBe('The server answered 500 Internal Server Error.');
  });

  it('treats a non-JSON success body as an invalid body', async () => {
    const error = await failure(apiGet('/api/not-json', {}, { baseUrl }));
    expect(error.kind).toBe('invalid-body');
    expect(error.status).toBe(200);
    expect(error.message).toContain('not JSON');
  });

  it('returns null for an empty success body', async () => {
    await expect(apiGet('/api/empty', {}, { baseUrl })).resolves.toBeNull();
  });

  it('reports an unreachable server as a network error with status 0', async () => {
    const error = await failure(apiGet('/api/echo', {}, { baseUrl: closedPortUrl }));
    expect(error.kind).toBe('network');
    expect(error.status).toBe(0);
    expect(error.message).toMatch(/could not reach the server/i);
    expect(error.cause).toBeDefined();
  });

  it('passes an abort through untouched instead of calling it a failure', async () => {
    const controller = new AbortController();
    const pending = apiGet('/api/slow', {}, { baseUrl, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const reason = await pending.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(reason).not.toBeInstanceOf(ApiError);
    expect((reason as Error).name).toBe('AbortError');
  });
});

describe('apiGetWithMeta', () => {
  it('returns the body with the status and the response headers', async () => {
    const answer = await apiGetWithMeta('/api/with-meta', {}, { baseUrl });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ cacheControl: null });
    expect(answer.headers.get('x-cache')).toBe('hit');
    expect(answer.headers.get('x-fetched-at')).toBe('2026-11-16T12:00:00.000Z');
  });

  it('sends extra request headers, e.g. no-cache to skip the proxy cache', async () => {
    const answer = await apiGetWithMeta(
      '/api/with-meta',
      {},
      { baseUrl, headers: { 'cache-control': 'no-cache' } },
    );
    expect(answer.body).toEqual({ cacheControl: 'no-cache' });
  });

  it('fails like apiGet does', async () => {
    const error = await failure(apiGetWithMeta('/api/rate-limited', {}, { baseUrl }));
    expect(error).toMatchObject({ status: 429, retryAfter: 7 });
  });
});

describe('apiPost', () => {
  it('sends a JSON body', async () => {
    const body = await apiPost('/api/echo', { profile_ids: ['568253-MC277621'] }, { baseUrl });
    expect(body).toMatchObject({
      method: 'POST',
      contentType: 'application/json',
      body: '{"profile_ids":["568253-MC277621"]}',
      csrf: CSRF_HEADER_VALUE,
    });
  });

  it('maps errors like apiGet does', async () => {
    const error = await failure(apiPost('/api/rate-limited', {}, { baseUrl }));
    expect(error.retryAfter).toBe(7);
  });
});

describe('CSRF header', () => {
  it('is the one the proxy requires', () => {
    expect(CSRF_HEADER).toBe(PROXY_CSRF_HEADER);
    expect(CSRF_HEADER_VALUE).toBe(PROXY_CSRF_HEADER_VALUE);
  });

  it('gets every reader through the real proxy billable-GET check', async () => {
    const origin = await startFakeOrigin();
    const proxy = await startProxy(
      proxyTestConfig({
        upstream: { baseUrl: origin.url, apiKey: LIVE_KEY, legacy: false, timeoutMs: 2000 },
      }),
    );
    try {
      const options = { baseUrl: proxy.url };
      const query = { dot_number: '568253' };
      await expect(apiGet('/api/v2/profile', query, options)).resolves.toMatchObject({
        total_count: 1,
      });
      await expect(apiGetWithMeta('/api/v2/profile-lite', query, options)).resolves.toMatchObject({
        status: 200,
      });
      await expect(apiGet('/api/v2/profile-fmcsa', query, options)).resolves.toMatchObject({
        total_count: 1,
      });
      expect(origin.requests.every((request) => request.url.startsWith('/v2/'))).toBe(true);
      expect(origin.requests).toHaveLength(3);
    } finally {
      await proxy.close();
      await origin.close();
    }
  });
});

describe('a 401 from the proxy', () => {
  it('hands over to the sign-in handler once and still rejects', async () => {
    let calls = 0;
    const onUnauthenticated = () => (calls += 1);
    const error = await failure(apiGet('/api/signed-out', {}, { baseUrl, onUnauthenticated }));
    expect(error).toMatchObject({ status: 401, code: 'unauthenticated', hint: 'Sign in.' });
    expect(calls).toBe(1);
    await failure(apiPost('/api/signed-out', {}, { baseUrl, onUnauthenticated }));
    expect(calls).toBe(2);
  });

  it('leaves other 401s (a wrong password) to the caller', async () => {
    let calls = 0;
    const onUnauthenticated = () => (calls += 1);
    const error = await failure(apiPost('/api/wrong-password', {}, { baseUrl, onUnauthenticated }));
    expect(error.code).toBe('bad_credentials');
    expect(calls).toBe(0);
  });

  it('without a window (node), the default handler does nothing but the error still arrives', async () => {
    const error = await failure(apiGet('/api/signed-out', {}, { baseUrl }));
    expect(error.status).toBe(401);
  });
});

describe('signInPath', () => {
  it('asks the sign-in page to come back to the current path and query', () => {
    expect(signInPath({ pathname: '/search', search: '?q=hansen&page=2' })).toBe(
      '/login?next=%2Fsearch%3Fq%3Dhansen%26page%3D2',
    );
    expect(signInPath({ pathname: '/', search: '' })).toBe('/login?next=%2F');
  });
});

describe('buildUrl', () => {
  it('stays relative without a base URL, so calls go to the page origin', () => {
    expect(buildUrl('/api/v2/profile', { dot_number: '1 2&3' })).toBe(
      '/api/v2/profile?dot_number=1+2%263',
    );
  });

  it('rejects paths without a leading slash', () => {
    expect(() => buildUrl('api/v2/profile', {})).toThrow(TypeError);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');

  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('12', now)).toBe(12);
    expect(parseRetryAfter('Sun, 22 Nov 2026 12:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Sun, 22 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores missing or unreadable values', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});

describe('primeGet', () => {
  it('hands its answer to the first plain GET of the same URL, once', async () => {
    const before = counted;
    const ok = primeGet('/api/counted', { n: 1 }, { baseUrl });
    expect(await ok).toEqual({ answer: before + 1 });
    const first = await apiGetWithMeta('/api/counted', { n: 1 }, { baseUrl });
    expect(counted - before).toBe(1);
    expect(first.body).toEqual({ answer: before + 1 });
    expect(first.headers.get('x-cache')).toBe('hit');
    // taken once: the next GET asks again
    expect(await apiGet('/api/counted', { n: 1 }, { baseUrl })).toEqual({ answer: before + 2 });
  });

  it('is not taken by a GET of another URL or with its own headers (a forced refresh)', async () => {
    const before = counted;
    await primeGet('/api/counted', { n: 2 }, { baseUrl });
    await apiGet('/api/counted', { n: 3 }, { baseUrl });
    expect(counted - before).toBe(2);
    const fresh = { 'cache-control': 'no-cache' };
    expect(await apiGet('/api/counted', { n: 2 }, { baseUrl, headers: fresh })).toEqual({
      answer: before + 3,
    });
  });

  it('gives no body for a refusal, and the GET that takes it fails with it', async () => {
    const ok = primeGet('/api/counted', { fail: 1 }, { baseUrl });
    expect(await ok).toBeUndefined();
    const error = await failure(apiGet('/api/counted', { fail: 1 }, { baseUrl }));
    expect(error.status).toBe(404);
    expect(error.code).toBe('unknown_dot');
  });

  it('drops an answer left untaken for more than ten seconds', async () => {
    const before = counted;
    const start = Date.now();
    await primeGet('/api/counted', { n: 4 }, { baseUrl });
    const later = vi.spyOn(Date, 'now').mockReturnValue(start + 20_000);
    try {
      expect(await apiGet('/api/counted', { n: 4 }, { baseUrl })).toEqual({ answer: before + 2 });
    } finally {
      later.mockRestore();
    }
  });
});

describe('parseBody', () => {
  const schema = z.object({ total: z.number() });

  it('gives the checked body back', () => {
    expect(parseBody(schema, { total: 3 }, 'the count')).toEqual({ total: 3 });
  });

  it('takes a body of another shape for an unreadable answer, naming what it is', () => {
    let thrown: unknown;
    try {
      parseBody(schema, { total: '3' }, 'the count');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ kind: 'invalid-body', status: 200 });
    expect((thrown as ApiError).message).toContain('the count');
  });
});
