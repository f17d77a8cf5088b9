import type { FastifyReply } from 'fastify';

/** The service's error body `{error, code?, hint?}`; our servers always fill all three. */
export interface ErrorBody {
  error: string;
  code: string;
  hint: string;
}

/**
 * An expected failure a server of ours answers itself: HTTP status, error body and extra headers
 * (e.g. Retry-After). Shared by the proxy and the sandbox, which subclass it for their own names.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly hint: string;
  readonly headers: Record<string, string>;

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
    return { error: this.message, code: this.code, hint: this.hint };
  }
}

export function sendApiError(reply: FastifyReply, err: ApiError): FastifyReply {
  return reply.code(err.status).headers(err.headers).type('application/json').send(err.body());
}

/** How one server words the errors Fastify raises itself, and its own internal failure. */
export interface ErrorWording<E extends ApiError> {
  /** code and hint per client status Fastify or a plugin raises (404, 413, ...) */
  framework: Record<number, { code: string; hint: string }>;
  /** hint for a client status with no entry in `framework` */
  fallbackHint: string;
  internal: { message: string; hint: string };
  create(
    status: number,
    code: string,
    message: string,
    hint: string,
    headers?: Record<string, string>,
  ): E;
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
export function toApiError<E extends ApiError>(
  err: unknown,
  wording: ErrorWording<E>,
): E | ApiError {
  if (err instanceof ApiError) return err;
  const thrown = (typeof err === 'object' && err !== null ? err : {}) as ThrownError;
  if (thrown.code && JSON_BODY_ERRORS.has(thrown.code)) {
    return wording.create(
      400,
      'invalid_json',
      'The request body is not valid JSON',
      'Send a JSON object, e.g. {"profile_ids": ["568253-MC277621"]}, with Content-Type: application/json.',
    );
  }
  const status = thrown.statusCode ?? thrown.status ?? 500;
  if (Number.isInteger(status) && status >= 400 && status < 500) {
    const known = wording.framework[status];
    return wording.create(
      status,
      known?.code ?? 'invalid_request',
      firstLine(thrown.message),
      known?.hint ?? wording.fallbackHint,
      thrown.headers ?? {},
    );
  }
  return wording.create(500, 'internal_error', wording.internal.message, wording.internal.hint);
}
