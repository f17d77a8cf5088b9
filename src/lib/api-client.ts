/**
 * The SPA's only door to the network: same-origin calls to the proxy under `/api/...`.
 *
 * It turns every failure into an `ApiError` the UI can reason about (status, machine code, hint,
 * Retry-After) and returns successful bodies as `unknown`: the feature fetchers parse them with a
 * schema, so nothing unchecked reaches a view. Its one side effect: when the proxy says the session
 * is gone (401 `unauthenticated`, password mode), it sends the browser to the sign-in page.
 */

import type { z } from 'zod';
import { markServerReachable } from './server-reachable.ts';
import { parseRetryAfter as parseRetryAfterMs, type RetryFailure } from './service/retry.ts';

/**
 * The custom header the proxy requires on every state-changing request and on every GET that may
 * be billed (its CSRF defence; see docs/proxy-security.md). Sent on every call. Kept equal to the
 * proxy's `CSRF_HEADER`/`CSRF_HEADER_VALUE` by a test.
 */
export const CSRF_HEADER = 'x-requested-with';
export const CSRF_HEADER_VALUE = 'carrier-desk';

/** The error code the proxy answers 401 with when a request has no signed-in user. */
const UNAUTHENTICATED_CODE = 'unauthenticated';

export type ApiErrorKind = 'http' | 'network' | 'invalid-body';

export interface ApiErrorDetails {
  kind: ApiErrorKind;
  status: number;
  message: string;
  code?: string | undefined;
  hint?: string | undefined;
  retryAfter?: number | undefined;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** 'http': the server answered with an error status; 'network': no answer; 'invalid-body': unreadable answer. */
  readonly kind: ApiErrorKind;
  /** HTTP status, or 0 when the server could not be reached. */
  readonly status: number;
  /** Machine-readable code from the error body, when the server sent one. */
  readonly code: string | undefined;
  /** Resolution hint from the error body, when the server sent one. */
  readonly hint: string | undefined;
  /** Seconds to wait before trying again, from the `Retry-After` header. */
  readonly retryAfter: number | undefined;

  constructor(details: ApiErrorDetails) {
    super(details.message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = details.kind;
    this.status = details.status;
    this.code = details.code;
    this.hint = details.hint;
    this.retryAfter = details.retryAfter;
  }
}

type QueryParamValue = string | number | boolean | null | undefined;
export type QueryParams = Readonly<Record<string, QueryParamValue>>;

export interface RequestOptions {
  signal?: AbortSignal | undefined;
  /** Absolute origin to call instead of the page's own (tests, tools). */
  baseUrl?: string | undefined;
  /** What to do when the proxy answers 401 `unauthenticated`; default: go to the sign-in page. */
  onUnauthenticated?: (() => void) | undefined;
  /** Extra request headers, e.g. `cache-control: no-cache` to make the proxy skip its cache. */
  headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * A proxy answer checked against its contract: a 200 whose JSON does not match `schema` is an
 * `invalid-body` error (an unreadable answer, like non-JSON). `what` names it in the message.
 */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw new ApiError({
    kind: 'invalid-body',
    status: 200,
    message: `The server's answer about ${what} does not have the expected shape.`,
    cause: result.error,
  });
}

/** A successful answer with what the proxy said about it (`x-cache`, `x-fetched-at`, ...). */
export interface ApiResponse {
  body: unknown;
  status: number;
  headers: Headers;
}

export async function apiGet(
  path: string,
  params: QueryParams = {},
  options: RequestOptions = {},
): Promise<unknown> {
  return (await apiGetWithMeta(path, params, options)).body;
}

/** Like `apiGet`, but also returns the status and response headers of the successful answer. */
export function apiGetWithMeta(
  path: string,
  params: QueryParams = {},
  options: RequestOptions = {},
): Promise<ApiResponse> {
  return request(buildUrl(path, params, options.baseUrl), { method: 'GET' }, options);
}

export async function apiPost(
  path: string,
  body: unknown,
  options: RequestOptions = {},
): Promise<unknown> {
  const init: RequestInit = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
  return (await request(buildUrl(path, {}, options.baseUrl), init, options)).body;
}

/** A PUT with a JSON body (idempotent writes, e.g. triage states). */
export async function apiPut(
  path: string,
  body: unknown,
  options: RequestOptions = {},
): Promise<unknown> {
  const init: RequestInit = {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
  return (await request(buildUrl(path, {}, options.baseUrl), init, options)).body;
}

/** The sign-in page, asked to come back to `location` (path and query) afterwards. */
export function signInPath(location: Pick<Location, 'pathname' | 'search'>): string {
  return `/login?next=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
}

/** Full navigation (not a client route): `/login` is served by the proxy, not by the SPA. */
function goToSignIn(): void {
  if (typeof window === 'undefined') return;
  window.location.assign(signInPath(window.location));
}

/** `/api/x` + params → a URL string; relative (same origin) unless a base URL is given. */
export function buildUrl(path: string, params: QueryParams, baseUrl?: string): string {
  if (!path.startsWith('/')) {
    throw new TypeError(`API paths start with "/": got "${path}"`);
  }
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) search.append(name, String(value));
  }
  const encoded = search.toString();
  const query = encoded === '' ? '' : `?${encoded}`;
  const relative = `${path}${query}`;
  return baseUrl === undefined ? relative : new URL(relative, baseUrl).toString();
}

async function request(
  url: string,
  init: RequestInit,
  options: RequestOptions,
): Promise<ApiResponse> {
  const { response, text } = await exchange(url, init, options);
  const body = parseSuccessBody(response, text);
  return { body, status: response.status, headers: response.headers };
}

/** A response with its body read. */
interface Answer {
  response: Response;
  text: string;
}

/** A GET started ahead of its first use (its body read as it arrives), and when. */
interface Primed {
  answer: Promise<Answer>;
  at: number;
}

/** A primed answer not taken within this long is dropped (and its URL asked again when used). */
const PRIMED_TTL_MS = 10_000;
const primed = new Map<string, Primed>();

/**
 * Start a same-origin GET now, before the code that reads it has loaded: the first `apiGet` of the
 * same URL (without extra headers) takes this answer instead of sending its own, once. Resolves to
 * the parsed body of a successful answer (undefined for any failure), so the caller can decide
 * what to ask next. Only for what the page is about to ask for anyway: the body is read as it
 * arrives (never left pending in the browser), and an answer nobody takes is dropped.
 */
export function primeGet(
  path: string,
  params: QueryParams = {},
  options: Pick<RequestOptions, 'baseUrl'> = {},
): Promise<unknown> {
  const url = buildUrl(path, params, options.baseUrl);
  const answer = fetchText(url, { method: 'GET', headers: requestHeaders(undefined, undefined) });
  const now = Date.now();
  // answers nobody took in time would never be used: drop them (the map holds a few at most)
  for (const [key, entry] of primed) if (now - entry.at > PRIMED_TTL_MS) primed.delete(key);
  primed.set(url, { answer, at: now });
  return answer.then(
    ({ response, text }) => {
      if (!response.ok) return undefined;
      const parsed = parseJson(text);
      return parsed.ok ? parsed.value : undefined;
    },
    () => undefined,
  );
}

function takePrimed(url: string, init: RequestInit, options: RequestOptions) {
  const entry = primed.get(url);
  if (!entry) return undefined;
  primed.delete(url);
  const plain = init.method === 'GET' && options.headers === undefined;
  return plain && Date.now() - entry.at <= PRIMED_TTL_MS ? entry.answer : undefined;
}

function requestHeaders(initHeaders: HeadersInit | undefined, extra: RequestOptions['headers']) {
  const headers = new Headers(initHeaders);
  for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
  headers.set('accept', 'application/json');
  headers.set(CSRF_HEADER, CSRF_HEADER_VALUE);
  return headers;
}

async function fetchText(url: string, init: RequestInit): Promise<Answer> {
  const response = await send(url, init);
  const text = await readText(response, init.signal ?? undefined);
  return { response, text };
}

/** One call: the successful response with its body text, or the failure as an `ApiError`. */
async function exchange(url: string, init: RequestInit, options: RequestOptions): Promise<Answer> {
  const { signal } = options;
  const headers = requestHeaders(init.headers, options.headers);
  const { response, text } = await (takePrimed(url, init, options) ??
    fetchText(url, { ...init, headers, signal: signal ?? null }));
  if (response.ok) return { response, text };
  const error = errorFromResponse(response, text);
  if (isSessionGone(error)) (options.onUnauthenticated ?? goToSignIn)();
  throw error;
}

function isSessionGone(error: ApiError): boolean {
  return error.status === 401 && error.code === UNAUTHENTICATED_CODE;
}

/** Any answer means the server is reachable; a fetch that fails without one means it is not. */
async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    const response = await fetch(url, init);
    markServerReachable(true);
    return response;
  } catch (error) {
    if (wasAborted(error, init.signal)) throw error;
    markServerReachable(false);
    throw new ApiError({
      kind: 'network',
      status: 0,
      message: 'Could not reach the server. Check that it is running and try again.',
      cause: error,
    });
  }
}

async function readText(response: Response, signal?: AbortSignal): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    if (wasAborted(error, signal)) throw error;
    throw new ApiError({
      kind: 'network',
      status: response.status,
      message: 'The connection dropped while the answer was arriving. Try again.',
      cause: error,
    });
  }
}

function parseSuccessBody(response: Response, text: string): unknown {
  if (text.trim() === '') return null;
  const parsed = parseJson(text);
  if (parsed.ok) return parsed.value;
  throw new ApiError({
    kind: 'invalid-body',
    status: response.status,
    message: `The server answered ${describeStatus(response)} but the body is not JSON.`,
  });
}

function errorFromResponse(response: Response, text: string): ApiError {
  const body = readErrorBody(text);
  return new ApiError({
    kind: 'http',
    status: response.status,
    message: body.error ?? `The server answered ${describeStatus(response)}.`,
    code: body.code,
    hint: body.hint,
    retryAfter: parseRetryAfter(response.headers.get('retry-after')),
  });
}

interface ErrorBody {
  error?: string | undefined;
  code?: string | undefined;
  hint?: string | undefined;
}

/** Reads `{error, code?, hint?}` leniently: fields of the wrong type are ignored, not fatal. */
function readErrorBody(text: string): ErrorBody {
  const parsed = parseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return {};
  const record = parsed.value as Record<string, unknown>;
  return {
    error: nonEmptyString(record.error),
    code: nonEmptyString(record.code),
    hint: nonEmptyString(record.hint),
  };
}

/** An `ApiError` as the retry rule sees it; undefined for anything that is not a server answer. */
export function retryFailureOf(error: unknown, attempt: number): RetryFailure | undefined {
  if (!(error instanceof ApiError) || error.kind === 'invalid-body') return undefined;
  return {
    status: error.kind === 'network' ? undefined : error.status,
    code: error.code,
    retryAfterMs: error.retryAfter === undefined ? undefined : error.retryAfter * 1_000,
    attempt,
  };
}

/**
 * `Retry-After` as whole seconds from now (rounded up), read by the one parser the proxy uses too;
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(
  header: string | null,
  now: number = Date.now(),
): number | undefined {
  const ms = parseRetryAfterMs(header, now);
  return ms === undefined ? undefined : Math.ceil(ms / 1000);
}

function describeStatus(response: Response): string {
  return response.statusText ? `${response.status} ${response.statusText}` : `${response.status}`;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Cancellation is the caller's decision, not a failure: such errors pass through untouched. */
function wasAborted(error: unknown, signal: AbortSignal | null | undefined): boolean {
  if (signal?.aborted) return true;
  return error instanceof Error && error.name === 'AbortError';
}
