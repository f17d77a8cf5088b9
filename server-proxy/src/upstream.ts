/**
 * The only code that talks to the service. It adds the key for the configured deployment, sends
 * an allow-list of headers, waits for a token-bucket slot, retries what is safe to retry (never
 * into a second bill), stops calling an endpoint that keeps failing (circuit breaker, retry
 * budget), bounds the time, size and nesting of every exchange, and hands back a JSON body or a
 * ProxyError — never the key, in any encoding.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, errors as undiciErrors } from 'undici';
import type { EndpointBuckets } from './buckets.ts';
import { Circuits, DEFAULT_CIRCUIT_SETTINGS, type CircuitSettings } from './circuit.ts';
import type { Endpoint } from './context.ts';
import { ProxyError } from './errors.ts';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.ts';
import { KeyScrubber } from './key-scrub.ts';
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
  /**
   * longest pause an upstream Retry-After can impose (on the endpoint's queue and in the
   * Retry-After the browser is told); default 120 s
   */
  maxRetryAfterMs?: number;
  /** circuit breaker and retry budget (default DEFAULT_CIRCUIT_SETTINGS) */
  circuit?: Partial<CircuitSettings>;
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

const MAX_RETRIES_FAILURE = 2;
const MAX_RETRIES_429 = 5;
const BACKOFF_START_MS = 1000;
const BACKOFF_MAX_MS = 30_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 120_000;
const MAX_BODY_BYTES = 64 * 1024 * 1024;
/**
 * Failures that happen before a byte of the request left: nothing reached the service, so nothing
 * was billed and a retry is always safe. Any other failure (a reset, a closed socket, a timeout, a
 * body cut short) may have come after the service served and billed the request.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * May `request` be sent again after it may already have reached the service, without a second
 * bill? Only when the service's price makes a repeat free:
 * - monitoring/list and monitoring/remove are free;
 * - monitoring/add is billed per unique DOT per month and re-adding is free: the same ids bill the
 *   same DOTs once;
 * - profile and profile-lite are billed per unique DOT per month: a `dot_number` lookup bills that
 *   one DOT however often it is sent; any other search (company, docket, e-mail ...) returns a
 *   page of carriers the request does not name, which may page differently on a repeat (data
 *   refreshes, ordering) and bill up to `pageSize` other DOTs, so it is not repeated;
 * - autocomplete (per query) and profile-fmcsa (per matched lookup) bill every call.
 */
function retrySafeAfterSend(request: ForwardRequest): boolean {
  switch (request.endpoint) {
    case 'monitoring/list':
    case 'monitoring/remove':
    case 'monitoring/add':
      return true;
    case 'profile':
    case 'profile-lite':
      return request.searchKey === 'dot_number';
    default:
      return false;
  }
}

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

/** A connection failure; `sent`: the request may have reached the service (and been billed). */
class NetworkFailure extends Error {
  constructor(
    readonly code: string,
    readonly sent: boolean,
  ) {
    super(`upstream connection failed (${code})`);
  }
}

/** `err`, marked as a failure after the request may have reached the service. */
function reached(err: ProxyError): ProxyError {
  err.reachedService = true;
  return err;
}

function timeoutError(timeoutMs: number): ProxyError {
  return reached(
    new ProxyError(
      504,
      'upstream_timeout',
      `The carrier data service did not answer within ${Math.round(timeoutMs / 1000)} s`,
      'Try again in a moment; cached data is still served.',
    ),
  );
}

function badUpstream(message: string): ProxyError {
  return reached(
    new ProxyError(
      502,
      'bad_upstream',
      message,
      'The carrier data service sent an answer the proxy cannot read; try again later.',
    ),
  );
}

function unreachable(code: string): ProxyError {
  return new ProxyError(
    502,
    'upstream_unreachable',
    `The carrier data service could not be reached (${code})`,
    'Check CARRIER_API_BASE_URL and the network; nothing was sent, so nothing was billed.',
  );
}

function interrupted(code: string): ProxyError {
  return reached(
    new ProxyError(
      502,
      'upstream_interrupted',
      `The connection to the carrier data service broke before its answer was complete (${code})`,
      'The service may have billed this call, so the proxy did not repeat it; try again if needed.',
    ),
  );
}

function failureError(failure: NetworkFailure): ProxyError {
  return failure.sent ? interrupted(failure.code) : unreachable(failure.code);
}

function retryAfterSeconds(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)));
}

function circuitOpen(endpoint: Endpoint, retryAfterMs: number): ProxyError {
  const seconds = retryAfterSeconds(retryAfterMs);
  return new ProxyError(
    503,
    'upstream_unavailable',
    `The carrier data service failed repeatedly on ${endpoint}; the proxy stops calling it for ${seconds} s`,
    'Wait for the time in Retry-After; cached carriers are still served at once.',
    { 'retry-after': seconds },
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
  private readonly scrubber: KeyScrubber;
  private readonly circuits: Circuits<Endpoint>;
  private readonly maxRetryAfterMs: number;

  constructor(
    private readonly settings: UpstreamSettings,
    private readonly buckets: EndpointBuckets,
    private readonly random: () => number = Math.random,
  ) {
    this.scrubber = new KeyScrubber(settings.apiKey);
    this.circuits = new Circuits({ ...DEFAULT_CIRCUIT_SETTINGS, ...settings.circuit });
    this.maxRetryAfterMs = settings.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
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

  /**
   * Forward with queueing, retries and the endpoint's circuit breaker; resolves to the service's
   * answer or throws a ProxyError (`reachedService` set when the request may have been billed).
   */
  async send(request: ForwardRequest, ctx: CallContext): Promise<UpstreamResponse> {
    const circuit = this.circuits.of(request.endpoint);
    const safeAfterSend = retrySafeAfterSend(request);
    let retries = 0;
    let retries429 = 0;
    let backoffWaited = 0;
    const mayRetry = () => retries < MAX_RETRIES_FAILURE && !circuit.isOpen && circuit.spendRetry();
    for (let attempt = 0; ; attempt += 1) {
      const refusal = circuit.refusing();
      if (!refusal.ok) throw circuitOpen(request.endpoint, refusal.retryAfterMs);
      await this.takeSlot(request.endpoint);
      const admission = circuit.admit();
      if (!admission.ok) throw circuitOpen(request.endpoint, admission.retryAfterMs);
      if (attempt === 0) circuit.earn();
      let answer: RawAnswer;
      try {
        answer = await this.exchange(request, ctx);
      } catch (err) {
        circuit.failed();
        if (!(err instanceof NetworkFailure)) throw err;
        if ((!err.sent || safeAfterSend) && mayRetry()) {
          retries += 1;
          await sleep(this.settings.retryDelayMs);
          continue;
        }
        throw failureError(err);
      }
      if (answer.status >= 500) circuit.failed();
      if (answer.status === 429) {
        circuit.succeeded();
        const hinted = parseRetryAfter(answer.headers['retry-after']);
        const wait = Math.min(hinted ?? backoffMs(retries429, this.random), this.maxRetryAfterMs);
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
      // 503: the service says it did not serve the request. A 502 may come from a gateway after
      // the service served it, so it is repeated only where a repeat cannot bill again.
      const retryable = answer.status === 503 || (answer.status === 502 && safeAfterSend);
      if (retryable && mayRetry()) {
        retries += 1;
        const hinted = parseRetryAfter(answer.headers['retry-after']);
        await sleep(Math.min(hinted ?? this.settings.retryDelayMs, BACKOFF_MAX_MS));
        continue;
      }
      if (answer.status >= 500) return this.finish(answer);
      try {
        const done = this.finish(answer);
        circuit.succeeded();
        return done;
      } catch (err) {
        if (err instanceof ProxyError && err.code === 'bad_upstream') circuit.failed();
        else circuit.succeeded();
        throw err;
      }
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
    let answered = false;
    try {
      const answer = await this.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: this.requestHeaders(request, ctx),
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal,
      });
      answered = true;
      const body = await readLimited(answer.body);
      return { status: answer.statusCode, headers: pickHeaders(answer.headers), body };
    } catch (err) {
      throw this.classify(err, signal, answered);
    }
  }

  /** A ProxyError, or a NetworkFailure saying whether the request may have reached the service. */
  private classify(err: unknown, signal: AbortSignal, answered: boolean): unknown {
    if (err instanceof ProxyError) return reached(err);
    const code = (err as { code?: unknown }).code;
    if (!answered && typeof code === 'string' && NOT_SENT_CODES.has(code)) {
      return new NetworkFailure(code, false);
    }
    if (
      signal.aborted ||
      err instanceof undiciErrors.HeadersTimeoutError ||
      err instanceof undiciErrors.BodyTimeoutError
    ) {
      return timeoutError(this.settings.timeoutMs);
    }
    if (typeof code === 'string') return new NetworkFailure(code, true);
    return new NetworkFailure(err instanceof Error ? err.name : 'unknown', true);
  }

  /**
   * The answer as the browser may see it: nesting bounded, key scrubbed (body in every encoding,
   * headers reduced to their expected form), JSON checked, 401 turned into a 502.
   */
  private finish(answer: RawAnswer): UpstreamResponse {
    if (answer.status === 401) throw keyRejected();
    if (exceedsJsonDepth(answer.body)) {
      throw badUpstream(
        `The carrier data service answered ${answer.status} with JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
      );
    }
    let scrubbed: { body: string; json: unknown };
    try {
      scrubbed = this.scrubber.json(answer.body, (text) => JSON.parse(text) as unknown);
    } catch {
      throw badUpstream(
        answer.status < 400
          ? `The carrier data service answered ${answer.status} with a body that is not valid JSON`
          : `The carrier data service answered ${answer.status} without a JSON error body`,
      );
    }
    const headers = passHeaders(answer.headers, this.maxRetryAfterMs);
    return { status: answer.status, ...scrubbed, headers };
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

/**
 * The passed headers in the only form the browser gets them, which also keeps anything else (the
 * key, in whatever encoding) out: `retry-after` as whole seconds, at most `maxRetryAfterMs`;
 * `x-total-count` as digits. Any other value is dropped.
 */
function passHeaders(headers: Record<string, string>, maxRetryAfterMs: number) {
  const passed: Record<string, string> = {};
  const retryAfter = parseRetryAfter(headers['retry-after']);
  if (retryAfter !== undefined) {
    passed['retry-after'] = retryAfterSeconds(Math.min(retryAfter, maxRetryAfterMs));
  }
  const total = headers['x-total-count']?.trim();
  if (total !== undefined && /^[0-9]{1,15}$/.test(total)) passed['x-total-count'] = total;
  return passed;
}

function withRetryAfter(answer: RawAnswer, waitMs: number): RawAnswer {
  return { ...answer, headers: { ...answer.headers, 'retry-after': retryAfterSeconds(waitMs) } };
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
