import type { FastifyReply } from 'fastify';
import { ParamError } from '../../../src/lib/service/param-error.ts';

/** The service's error body `{error, code?, hint?}`; our servers always fill all three. */
export interface ErrorBody {
  error: string;
  code: string;
  hint: string;
}

/**
 * An expected failure a server of ours answers itself: HTTP status, error body and extra headers
 * (e.g. Retry-After). The one error type of the proxy and the sandbox: `ProxyError` (errors.ts) and
 * `SandboxError` (sandbox/errors.ts) are other names for it.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly hint: string;
  readonly headers: Record<string, string>;
  /**
   * Proxy only: true when the failure happened after the request may have reached the service
   * (sent, then a reset, a timeout or a cut body). The service may have billed it, so the spend
   * meter keeps the call's intent as spent and the upstream client does not retry it into a second
   * bill. Set by upstream.ts; false everywhere else.
   */
  reachedService = false;

  constructor(
    status: number,
    code: string,
    message: string,
    hint: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.hint = hint;
    this.headers = headers;
  }

  body(): ErrorBody {
    return errorBody(this.code, this.message, this.hint);
  }
}

/** The one builder of an error body: every `{error, code, hint}` our servers send is made here. */
export function errorBody(code: string, error: string, hint: string): ErrorBody {
  return { error, code, hint };
}

/**
 * Send an ApiError: its status, its headers and its body as JSON. Answers the reply it was given,
 * typed as given, so a contract route's handler (http/contract-route.ts) may return it.
 */
export function sendApiError<R extends FastifyReply>(reply: R, err: ApiError): R {
  reply
    .code(err.status)
    .headers(err.headers)
    .type('application/json; charset=utf-8')
    .send(err.body());
  return reply;
}

/** How one server words the errors Fastify raises itself, and its own internal failure. */
export interface ErrorWording {
  /** code and hint per client status Fastify or a plugin raises (404, 413, ...) */
  framework: Record<number, { code: string; hint: string }>;
  /** hint for a client status with no entry in `framework` */
  fallbackHint: string;
  internal: { message: string; hint: string };
}

interface ThrownError {
  statusCode?: number;
  status?: number;
  code?: string;
  message?: string;
  headers?: Record<string, string>;
}

const JSON_BODY_ERRORS = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

/** Fastify messages are safe to show but may be long: keep the first line. */
function firstLine(message: string | undefined): string {
  return (message ?? '').split('\n')[0]?.slice(0, 200) || 'Bad request';
}

/**
 * Any error thrown while handling a request, as an error body the client may see. ApiErrors pass
 * through; client errors raised by the framework keep their status with a one-line message; anything
 * else becomes a 500 `internal_error` whose details stay in the log, never in the body.
 */
export function toApiError(err: unknown, wording: ErrorWording): ApiError {
  if (err instanceof ApiError) return err;
  // A parameter the contract's rules refused: the same 400 body on both servers.
  if (err instanceof ParamError) return new ApiError(400, err.code, err.message, err.hint);
  const thrown = (typeof err === 'object' && err !== null ? err : {}) as ThrownError;
  if (thrown.code && JSON_BODY_ERRORS.has(thrown.code)) {
    return new ApiError(
      400,
      'invalid_json',
      'The request body is not valid JSON',
      'Send a JSON object, e.g. {"profile_ids": ["568253-MC277621"]}, with Content-Type: application/json.',
    );
  }
  const status = thrown.statusCode ?? thrown.status ?? 500;
  if (Number.isInteger(status) && status >= 400 && status < 500) {
    const known = wording.framework[status];
    return new ApiError(
      status,
      known?.code ?? 'invalid_request',
      firstLine(thrown.message),
      known?.hint ?? wording.fallbackHint,
      thrown.headers ?? {},
    );
  }
  return new ApiError(500, 'internal_error', wording.internal.message, wording.internal.hint);
}
