import type { FastifyReply } from 'fastify';
import { ApiError, sendApiError, toApiError, type ErrorWording } from './http/api-error.ts';

/**
 * The proxy's name for the one error type (http/api-error.ts): an expected failure the proxy
 * answers itself, with its status, body, extra headers and `reachedService` flag.
 */
export { ApiError as ProxyError };

export function sendProxyError<R extends FastifyReply>(reply: R, err: ApiError): R {
  return sendApiError(reply, err);
}

/** How the proxy words the errors Fastify and its plugins raise, and its own failures. */
const WORDING: ErrorWording = {
  framework: {
    400: { code: 'invalid_request', hint: 'Check the request line and the JSON body.' },
    404: { code: 'not_found', hint: 'See docs/proxy.md for the routes of the proxy.' },
    405: { code: 'method_not_allowed', hint: 'See docs/proxy.md for the methods of each route.' },
    413: { code: 'payload_too_large', hint: 'Request bodies are limited to 1 MiB.' },
    414: { code: 'uri_too_long', hint: 'Shorten the query string.' },
    415: { code: 'unsupported_media_type', hint: 'Send bodies as application/json.' },
    429: { code: 'rate_limited', hint: 'Wait for the time in Retry-After, then try again.' },
    431: { code: 'headers_too_large', hint: 'Send fewer or shorter headers.' },
  },
  fallbackHint: 'Check the request against docs/proxy.md.',
  internal: {
    message: 'The proxy failed to handle this request',
    hint: 'The details are in the proxy log (search for the request id); please report it.',
  },
};

/**
 * Any error thrown while handling a request, as an ApiError (errors the embedded sandbox's code
 * raised keep their status and body). Anything unexpected becomes a 500 whose details stay in the log.
 */
export function toProxyError(err: unknown): ApiError {
  return toApiError(err, WORDING);
}
