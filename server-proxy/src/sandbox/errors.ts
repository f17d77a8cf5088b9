import type { FastifyReply } from 'fastify';

/** The service's error body: `{error, code?, hint?}`; the sandbox always fills all three. */
export interface ErrorBody {
  error: string;
  code: string;
  hint: string;
}

/** An expected, client-caused failure with its HTTP status and error body. */
export class SandboxError extends Error {
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
    this.name = 'SandboxError';
    this.status = status;
    this.code = code;
    this.hint = hint;
    this.headers = headers;
  }

  body(): ErrorBody {
    return { error: this.message, code: this.code, hint: this.hint };
  }
}

/** Shorthand for the most common case: a 400 for a bad parameter. */
export function badRequest(code: string, message: string, hint: string): SandboxError {
  return new SandboxError(400, code, message, hint);
}

export function sendError(reply: FastifyReply, err: SandboxError): FastifyReply {
  return reply.code(err.status).headers(err.headers).send(err.body());
}

/** Statuses Fastify itself raises (parser, body limit, bad URL) mapped to sandbox codes. */
const FRAMEWORK_CODES: Record<number, { code: string; hint: string }> = {
  400: {
    code: 'invalid_request',
    hint: 'Check the request line and body; JSON bodies must be valid JSON objects.',
  },
  404: { code: 'not_found', hint: 'See docs/sandbox.md for the list of endpoints.' },
  413: {
    code: 'payload_too_large',
    hint: 'Request bodies are limited to 1 MiB; send fewer profile_ids per request.',
  },
  415: {
    code: 'unsupported_media_type',
    hint: 'Send bodies as application/json (or no body at all).',
  },
};

interface FrameworkError {
  statusCode?: number;
  code?: string;
  message: string;
}

/**
 * Turn any error thrown while handling a request into a SandboxError. Client errors keep their
 * status; anything else is an internal error whose details stay in the log, never in the body.
 */
export function toSandboxError(err: FrameworkError): SandboxError {
  if (err instanceof SandboxError) return err;
  if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return badRequest(
      'invalid_json',
      'The request body is not valid JSON',
      'Send a JSON object, e.g. {"profile_ids": ["568253-MC277621"]}, with Content-Type: application/json.',
    );
  }
  const status = err.statusCode ?? 500;
  const known = FRAMEWORK_CODES[status];
  if (status >= 400 && status < 500) {
    return new SandboxError(
      status,
      known?.code ?? 'invalid_request',
      sanitizeMessage(err.message),
      known?.hint ?? 'Check the request against docs/sandbox.md.',
    );
  }
  return new SandboxError(
    500,
    'internal_error',
    'The sandbox failed to handle this request',
    'This is a sandbox bug; the details are in the sandbox log. Please report it.',
  );
}

/** Fastify messages are safe to show but may be long; keep the first line only. */
function sanitizeMessage(message: string): string {
  const firstLine = message.split('\n')[0] ?? '';
  return firstLine.slice(0, 200) || 'Bad request';
}
