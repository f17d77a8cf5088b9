import type { FastifyReply } from 'fastify';
import { ApiError, sendApiError, toApiError, type ErrorWording } from './http/api-error.ts';

/** An expected failure the proxy answers itself, with its status, body and extra headers. */
export class ProxyError extends ApiError {
  /**
   * True when the failure happened after the request may have reached the service (sent, then a
   * reset, a timeout or a cut body): the service may have billed it, so the spend meter keeps the
   * call's intent as spent and the upstream client does not retry it into a second bill.
   */
  reachedService = false;

  constructor(
    status: number,
    code: string,
    message: string,
    hint: string,
    headers: Record<string, string> = {},
  ) {
    super(status, code, message, hint, headers);
    this.name = 'ProxyError';
  }
}

export function sendProxyError(reply: FastifyReply, err: ProxyError): FastifyReply {
  return sendApiError(reply, err);
}

/** How the proxy words the errors Fastify and its plugins raise, and its own failures. */
const WORDING: ErrorWording<ProxyError> = {
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
  create: (status, code, message, hint, headers) =>
    new ProxyError(status, code, message, hint, headers),
};

/**
 * Any error thrown while handling a request, as a ProxyError (errors the embedded sandbox's code
 * raised keep their status and body). Anything unexpected becomes a 500 whose details stay in the log.
 */
export function toProxyError(err: unknown): ProxyError {
  const apiError = toApiError(err, WORDING);
  if (apiError instanceof ProxyError) return apiError;
  const { status, code, message, hint, headers } = apiError;
  return new ProxyError(status, code, message, hint, headers);
}
