import type { FastifyReply } from 'fastify';
import { ApiError, sendApiError, toApiError, type ErrorWording } from '../http/api-error.ts';

/** The sandbox's name for the one error type (http/api-error.ts). */
export { ApiError as SandboxError };

/** Shorthand for the most common case: a 400 for a bad parameter. */
export function badRequest(code: string, message: string, hint: string): ApiError {
  return new ApiError(400, code, message, hint);
}

export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  return sendApiError(reply, err);
}

/** Statuses Fastify itself raises (parser, body limit, bad URL) mapped to sandbox codes. */
const WORDING: ErrorWording = {
  framework: {
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
  },
  fallbackHint: 'Check the request against docs/sandbox.md.',
  internal: {
    message: 'The sandbox failed to handle this request',
    hint: 'This is a sandbox bug; the details are in the sandbox log. Please report it.',
  },
};

/**
 * Turn any error thrown while handling a request into an ApiError. Client errors keep their
 * status; anything else is an internal error whose details stay in the log, never in the body.
 */
export function toSandboxError(err: unknown): ApiError {
  return toApiError(err, WORDING);
}
