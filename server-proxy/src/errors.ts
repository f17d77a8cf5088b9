import type { FastifyReply } from 'fastify';
import { SandboxError } from './sandbox/errors.ts';

/** The service's error body; the proxy always fills all three members. */
export interface ProxyErrorBody {
  error: string;
  code: string;
  hint: string;
}

/** An expected failure the proxy answers itself, with its status, body and extra headers. */
export class ProxyError extends Error {
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
    this.name = 'ProxyError';
    this.status = status;
    this.code = code;
    this.hint = hint;
    this.headers = headers;
  }

  body(): ProxyErrorBody {
    return { error: this.message, code: this.code, hint: this.hint };
  }
}

export function sendProxyError(reply: FastifyReply, err: ProxyError): FastifyReply {
  return reply.code(err.status).headers(err.headers).type('application/json').send(err.body());
}

/** Statuses Fastify and its plugins raise themselves, with the code and hint we answer. */
const FRAMEWORK_CODES: Record<number, { code: string; hint: string }> = {
  400: { code: 'invalid_request', hint: 'Check the request line and the JSON body.' },
  404: { code: 'not_found', hint: 'See docs/proxy.md for the routes of the proxy.' },
  405: { code: 'method_not_allowed', hint: 'See docs/proxy.md for the methods of each route.' },
  413: { code: 'payload_too_large', hint: 'Request bodies are limited to 1 MiB.' },
  414: { code: 'uri_too_long', hint: 'Shorten the query string.' },
  415: { code: 'unsupported_media_type', hint: 'Send bodies as application/json.' },
  429: { code: 'rate_limited', hint: 'Wait for the time in Retry-After, then try again.' },
  431: { code: 'headers_too_large', hint: 'Send fewer or shorter headers.' },
};

interface ThrownError {
  statusCode?: number;
  status?: number;
  code?: string;
  message?: string;
  headers?: Record<string, string>;
}

function firstLine(message: string | undefined): string {
  return (message ?? '').split('\n')[0]?.slice(0, 200) || 'Bad request';
}

function clientError(err: ThrownError, status: number): ProxyError {
  if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return new ProxyError(
      400,
      'invalid_json',
      'The request body is not valid JSON',
      'Send a JSON object, e.g. {"profile_ids": ["568253-MC277621"]}.',
    );
  }
  const known = FRAMEWORK_CODES[status];
  return new ProxyError(
    status,
    known?.code ?? 'invalid_request',
    firstLine(err.message),
    known?.hint ?? 'Check the request against docs/proxy.md.',
    err.headers ?? {},
  );
}

/**
 * Any error thrown while handling a request, as a ProxyError. Client errors keep their status and a
 * one-line message; anything else becomes a 500 `internal_error` whose details stay in the log.
 */
export function toProxyError(err: unknown): ProxyError {
  if (err instanceof ProxyError) return err;
  if (err instanceof SandboxError) {
    return new ProxyError(err.status, err.code, err.message, err.hint, err.headers);
  }
  const thrown = (typeof err === 'object' && err !== null ? err : {}) as ThrownError;
  const status = thrown.statusCode ?? thrown.status ?? 500;
  if (Number.isInteger(status) && status >= 400 && status < 500) return clientError(thrown, status);
  return new ProxyError(
    500,
    'internal_error',
    'The proxy failed to handle this request',
    'The details are in the proxy log (search for the request id); please report it.',
  );
}
