/**
 * The only code that talks to the service. It adds the key for the configured deployment, sends
 * an allow-list of headers, waits for a token-bucket slot, retries what is safe to retry, bounds the
 * time and size of every exchange, and hands back a JSON body or a ProxyError — never the key.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, errors as undiciErrors } from 'undici';
import type { EndpointBuckets } from './buckets.ts';
import type { Endpoint } from './context.ts';
import { ProxyError } from './errors.ts';
import type { ForwardRequest } from './validate.ts';

export interface UpstreamSettings {
  /** base address without /v2 */
  baseUrl: string;
  apiKey: string;
  legacy: boolean;
  timeoutMs: number;
  /** wait before retrying a 502/503/reset when the service gives no Retry-After */
  retryDelayMs: number;
  /** longest a request may be held waiting out upstream 429s */
  maxBackoffWaitMs: number;
}

export interface UpstreamResponse {
  status: number;
  /** the body as sent, with any occurrence of the key replaced */
  body: string;
  json: unknown;
  /** allow-listed response headers */
  headers: Record<string, string>;
}

export interface CallContext {
  requestId: string;
  /** client headers on the forwarding allow-list */
  clientHeaders: Record<string, string | string[] | undefined>;
}

/** Client request headers that may travel upstream; everything else (cookies, credentials) stays. */
const FORWARDED_REQUEST_HEADERS = ['accept-language'] as const;
/** Upstream response headers the browser may see; set-cookie and hop-by-hop headers never pass. */
const PASSED_RESPONSE_HEADERS = ['retry-after', 'x-total-count'] as const;

const MAX_RETRIES_5XX = 2;
const MAX_RETRIES_429 = 5;
const BACKOFF_START_MS = 1000;
const BACKOFF_MAX_MS = 30_000;
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const RETRYABLE_STATUSES = new Set([502, 503]);
const RETRYABLE_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/** Seconds or an HTTP date, as milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\s*[0-9]+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** 1 s, 2 s, 4 s ... capped at 30 s, plus up to 20 % jitter so callers do not retry in step. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** attempt);
  return Math.round(base * (1 + 0.2 * random()));
}

class NetworkFailure extends Error {
  constructor(readonly code: string) {
    super(`upstream connection failed (${code})`);
  }
}

function timeoutError(timeoutMs: number): ProxyError {
  return new ProxyError(
    504,
    'upstream_timeout',
    `The carrier data service did not answer within ${Math.round(timeoutMs / 1000)} s`,
    'Try again in a moment; cached data is still served.',
  );
}

function badUpstream(message: string): ProxyError {
  return new ProxyError(
    502,
    'bad_upstream',
    message,
    'The carrier data service sent an answer the proxy cannot read; try again later.',
  );
}

function unreachable(code: string): ProxyError {
  return new ProxyError(
    502,
    'upstream_unreachable',
    `The carrier data service could not be reached (${code})`,
    'Check CARRIER_API_BASE_URL and the network; the proxy retried twice.',
  );
}

function keyRejected(): ProxyError {
  return new ProxyError(
    502,
    'upstream_key_rejected',
    "The carrier data service rejected the proxy's API key",
    'The administrator must check CARRIER_API_KEY (it may have been rotated or revoked).',
  );
}

function queueFull(seconds: number): ProxyError {
  return new ProxyError(
    429,
    'rate_limited',
    `The per-minute limit of the service is used up; the next free slot is in ${seconds} s`,
    'Wait for the time in Retry-After; cached carriers are still served at once.',
    { 'retry-after': String(seconds) },
  );
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

export class UpstreamClient {
  private readonly agent: Agent;

  constructor(
    private readonly settings: UpstreamSettings,
    private readonly buckets: EndpointBuckets,
    private readonly random: () => number = Math.random,
  ) {
    this.agent = new Agent({
      connections: 64,
      keepAliveTimeout: 10_000,
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs,
    });
  }

  /** The URL of `request` on the configured deployment (legacy: /api/v2, else /v2). */
  urlOf(request: ForwardRequest): string {
    const prefix = this.settings.legacy ? '/api/v2' : '/v2';
    const query = new URLSearchParams(request.query).toString();
    return `${this.settings.baseUrl}${prefix}/${request.endpoint}${query ? `?${query}` : ''}`;
  }

  /** Forward with queueing and retries; resolves to the service's answer or throws a ProxyError. */
  async send(request: ForwardRequest, ctx: CallContext): Promise<UpstreamResponse> {
    let retries5xx = 0;
    let retries429 = 0;
    let backoffWaited = 0;
    for (;;) {
      await this.takeSlot(request.endpoint);
      let answer: RawAnswer;
      try {
        answer = await this.exchange(request, ctx);
      } catch (err) {
        if (!(err instanceof NetworkFailure)) throw err;
        if (retries5xx >= MAX_RETRIES_5XX) throw unreachable(err.code);
        retries5xx += 1;
        await sleep(this.settings.retryDelayMs);
        continue;
      }
      if (answer.status === 429) {
        const wait =
          parseRetryAfter(answer.headers['retry-after']) ?? backoffMs(retries429, this.random);
        this.buckets.pauseUntil(request.endpoint, Date.now() + wait);
        const canWait = backoffWaited + wait <= this.settings.maxBackoffWaitMs;
        if (retries429 >= MAX_RETRIES_429 || !canWait) {
          return this.finish(withRetryAfter(answer, wait));
        }
        retries429 += 1;
        backoffWaited += wait;
        await sleep(wait);
        continue;
      }
      if (RETRYABLE_STATUSES.has(answer.status) && retries5xx < MAX_RETRIES_5XX) {
        retries5xx += 1;
        const hinted = parseRetryAfter(answer.headers['retry-after']);
        await sleep(Math.min(hinted ?? this.settings.retryDelayMs, BACKOFF_MAX_MS));
        continue;
      }
      return this.finish(answer);
    }
  }

  /** Is anything answering at the base address? Sends no key and calls no billable route. */
  async reachable(timeoutMs = 2000): Promise<boolean> {
    try {
      const { body } = await this.agent.request({
        origin: new URL(this.settings.baseUrl).origin,
        path: '/',
        method: 'GET',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await body.dump();
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async takeSlot(endpoint: Endpoint): Promise<void> {
    const reservation = this.buckets.reserve(endpoint);
    if (!reservation.ok) throw queueFull(reservation.retryAfterSeconds);
    if (reservation.waitMs > 0) await sleep(reservation.waitMs);
  }

  private requestHeaders(request: ForwardRequest, ctx: CallContext): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': 'carrier-desk-proxy',
      'x-request-id': ctx.requestId,
    };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = headerValue(ctx.clientHeaders[name]);
      if (value !== undefined) headers[name] = value;
    }
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (this.settings.legacy) headers['x-api-key'] = this.settings.apiKey;
    else headers.authorization = `Bearer ${this.settings.apiKey}`;
    return headers;
  }

  /** One HTTP exchange, bounded by the timeout and the body size limit. */
  private async exchange(request: ForwardRequest, ctx: CallContext): Promise<RawAnswer> {
    const url = new URL(this.urlOf(request));
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    try {
      const answer = await this.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: this.requestHeaders(request, ctx),
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal,
      });
      const body = await readLimited(answer.body);
      return { status: answer.statusCode, headers: pickHeaders(answer.headers), body };
    } catch (err) {
      throw this.classify(err, signal);
    }
  }

  private classify(err: unknown, signal: AbortSignal): unknown {
    if (err instanceof ProxyError) return err;
    if (
      signal.aborted ||
      err instanceof undiciErrors.HeadersTimeoutError ||
      err instanceof undiciErrors.BodyTimeoutError
    ) {
      return timeoutError(this.settings.timeoutMs);
    }
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && RETRYABLE_NETWORK_CODES.has(code))
      return new NetworkFailure(code);
    if (typeof code === 'string' && code.startsWith('E')) return unreachable(code);
    return err;
  }

  /** The answer as the browser may see it: key scrubbed, JSON checked, 401 turned into a 502. */
  private finish(answer: RawAnswer): UpstreamResponse {
    if (answer.status === 401) throw keyRejected();
    const { apiKey } = this.settings;
    const body = apiKey ? answer.body.replaceAll(apiKey, '[redacted]') : answer.body;
    let json: unknown;
    try {
      json = JSON.parse(body) as unknown;
    } catch {
      throw badUpstream(
        answer.status < 400
          ? `The carrier data service answered ${answer.status} with a body that is not valid JSON`
          : `The carrier data service answered ${answer.status} without a JSON error body`,
      );
    }
    return { status: answer.status, body, json, headers: answer.headers };
  }
}

interface RawAnswer {
  status: number;
  /** allow-listed headers only */
  headers: Record<string, string>;
  body: string;
}

function pickHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of PASSED_RESPONSE_HEADERS) {
    const value = headerValue(raw[name]);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

function withRetryAfter(answer: RawAnswer, waitMs: number): RawAnswer {
  const seconds = String(Math.max(1, Math.ceil(waitMs / 1000)));
  return { ...answer, headers: { ...answer.headers, 'retry-after': seconds } };
}

async function readLimited(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw badUpstream('The carrier data service sent an oversized body');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
