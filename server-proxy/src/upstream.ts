/**
 * The only code that talks to the service. It adds the key for the configured deployment, sends
 * an allow-list of headers, waits for a token-bucket slot, retries what is safe to retry (never
 * into a second bill), stops calling an endpoint that keeps failing (circuit breaker, retry
 * budget), bounds the time, size and nesting of every exchange, and hands back a JSON body or a
 * ProxyError — never the key, in any encoding.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, errors as undiciErrors } from 'undici';
import {
  backoffDelayMs,
  parseRetryAfter,
  retryDelayMs,
  retryDecision,
  SERVICE_BACKOFF,
  type RetryFailure,
  type RetryPolicy,
} from '../../src/lib/service/retry.ts';
import { ENDPOINTS } from '../../src/lib/service/endpoints.ts';
import type { UpstreamBuckets } from './buckets.ts';
import { Circuits, DEFAULT_CIRCUIT_SETTINGS, type CircuitSettings } from './circuit.ts';
import type { Endpoint } from './context.ts';
import { ProxyError } from './errors.ts';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.ts';
import { KeyScrubber } from './key-scrub.ts';
import type { ForwardRequest } from './validate.ts';
import { coordinationUnavailable } from './team/redis-commands.ts';

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

/**
 * The proxy's parameters of the one retry rule (src/lib/service/retry.ts): two retries of a
 * failure after `retryDelayMs` (5 s), up to five of a 429 while the request's waits fit in
 * `maxBackoffWaitMs`, the service's back-off with 20 % jitter, no single wait over 30 s, and a
 * repeat after the request may have been served only where `retrySafeAfterSend` says it cannot
 * bill again. The circuit breaker and the retry budget come on top (`retryAfterFailure` in `send`).
 */
function upstreamPolicy(settings: UpstreamSettings, repeatSafe: boolean): RetryPolicy {
  return {
    maxRetries: 2,
    rateLimited: { maxRetries: 5, maxTotalWaitMs: settings.maxBackoffWaitMs },
    baseDelayMs: SERVICE_BACKOFF.baseDelayMs,
    maxDelayMs: SERVICE_BACKOFF.maxDelayMs,
    failureDelayMs: settings.retryDelayMs,
    jitter: 0.2,
    maxWaitMs: SERVICE_BACKOFF.maxDelayMs,
    repeatSafe,
  };
}
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
 * bill? The contract's endpoint table says, per endpoint (`repeat`): `always` for the free
 * endpoints and monitoring/add (per unique DOT and month, the DOTs named by the request itself);
 * `dot-lookup` for profile and profile-lite, where only a `dot_number` lookup bills the same one
 * DOT however often it is sent (any other search returns a page of carriers the request does not
 * name, which may page differently on a repeat); `never` for autocomplete and profile-fmcsa.
 */
function retrySafeAfterSend(request: ForwardRequest): boolean {
  switch (ENDPOINTS[request.endpoint].repeat) {
    case 'always':
      return true;
    case 'dot-lookup':
      return request.searchKey === 'dot_number';
    case 'never':
      return false;
  }
}

export { parseRetryAfter };

/** The proxy's 429 back-off: 1 s, 2 s, 4 s ... capped at 30 s, plus up to 20 % jitter. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return backoffDelayMs(attempt, { ...SERVICE_BACKOFF, jitter: 0.2 }, random);
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

/** The shared limiter (Redis) cannot be asked: sending could exceed the key's limit, so nothing is sent. */
function rateLimitsUnavailable(seconds: number): ProxyError {
  return coordinationUnavailable(
    'The proxy cannot reach its shared rate-limit store, so it sends nothing to the service',
    'Retry after the time in Retry-After; cached carriers are still served at once.',
    seconds,
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
    private readonly buckets: UpstreamBuckets,
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
    const policy = upstreamPolicy(this.settings, retrySafeAfterSend(request));
    let retries = 0;
    let retries429 = 0;
    let backoffWaited = 0;
    /** The rule's answer for a failure (5xx, network), then the circuit's and the budget's. */
    const retryAfterFailure = (failure: Omit<RetryFailure, 'attempt'>) => {
      const decision = retryDecision({ ...failure, attempt: retries }, policy, this.random);
      if (!decision.retry || circuit.isOpen || !circuit.spendRetry()) return undefined;
      retries += 1;
      return decision.delayMs;
    };
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
        const delay = retryAfterFailure({ sent: err.sent });
        if (delay === undefined) throw failureError(err);
        await sleep(delay);
        continue;
      }
      if (answer.status >= 500) circuit.failed();
      const retryAfterMs = parseRetryAfter(answer.headers['retry-after']);
      if (answer.status === 429) {
        circuit.succeeded();
        const failure = { status: 429, retryAfterMs, attempt: retries429, waitedMs: backoffWaited };
        // the endpoint pauses for the wait either way, bounded so one Retry-After cannot shut it
        const draw = this.random();
        const jitter = () => draw;
        const wait = Math.min(retryDelayMs(failure, policy, jitter), this.maxRetryAfterMs);
        void this.buckets.pauseUntil(request.endpoint, Date.now() + wait);
        const decision = retryDecision(failure, policy, jitter);
        if (!decision.retry) return this.finish(withRetryAfter(answer, wait));
        retries429 += 1;
        backoffWaited += wait;
        await sleep(wait);
        continue;
      }
      // 503: the service says it did not serve the request. Another 5xx (a 502 from a gateway)
      // may come after the service served it: the rule repeats it only where that cannot bill.
      if (answer.status >= 500) {
        const delay = retryAfterFailure({ status: answer.status, retryAfterMs });
        if (delay === undefined) return this.finish(answer);
        await sleep(delay);
        continue;
      }
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
    const reservation = await this.buckets.reserve(endpoint);
    if (!reservation.ok && reservation.unavailable) {
      throw rateLimitsUnavailable(reservation.retryAfterSeconds);
    }
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
