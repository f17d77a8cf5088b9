import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { SandboxError } from './errors.ts';
import { LIVE_KEY_PREFIX, SANDBOX_KEY_PREFIX } from '../../../src/lib/service/endpoints.ts';

/** A key safe to print: its prefix and last four characters, never the whole key. */
export function maskKey(key: string): string {
  if (key.length <= 12) return `${key.slice(0, 3)}…`;
  const prefix = key.startsWith(SANDBOX_KEY_PREFIX) || key.startsWith(LIVE_KEY_PREFIX) ? 8 : 3;
  return `${key.slice(0, prefix)}…${key.slice(-4)}`;
}

function unauthorized(code: string, message: string, hint: string): SandboxError {
  return new SandboxError(401, code, message, hint, { 'www-authenticate': 'Bearer' });
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The key from `Authorization: Bearer <key>` (wins) or `x-api-key: <key>`; throws 401 otherwise. */
function keyFromHeaders(headers: IncomingHttpHeaders): string {
  const authorization = headers.authorization?.trim();
  const apiKeyHeader = singleHeader(headers['x-api-key'])?.trim();
  let bearer: string | undefined;
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match?.[1]) {
      throw unauthorized(
        'invalid_authorization_header',
        'The Authorization header is not of the form "Bearer <API_KEY>"',
        'Send "Authorization: Bearer sk_test_..." or the header "x-api-key: sk_test_...".',
      );
    }
    bearer = match[1];
  }
  if (bearer && apiKeyHeader && bearer !== apiKeyHeader) {
    throw unauthorized(
      'conflicting_api_keys',
      'The Authorization and x-api-key headers carry different keys',
      'Send the key in one header only.',
    );
  }
  const key = bearer ?? apiKeyHeader;
  if (!key) {
    throw unauthorized(
      'missing_api_key',
      'No API key was sent',
      'Send "Authorization: Bearer sk_test_..." (or "x-api-key: sk_test_..."); the sandbox key is in SANDBOX_API_KEYS, default sk_test_sandbox.',
    );
  }
  return key;
}

/** Returns the accepted key of a request or throws the matching 401. */
export function authenticate(headers: IncomingHttpHeaders, accepted: ReadonlySet<string>): string {
  const key = keyFromHeaders(headers);
  if (key.startsWith(LIVE_KEY_PREFIX)) {
    throw unauthorized(
      'live_key_rejected',
      'Live keys are not accepted by the sandbox',
      `The key ${maskKey(key)} is a live key (sk_live_). Use a sandbox key (sk_test_) here, and never send live keys to test systems.`,
    );
  }
  if (!accepted.has(key)) {
    throw unauthorized(
      'invalid_api_key',
      'The API key is not valid for this sandbox',
      `The key ${maskKey(key)} is not one of SANDBOX_API_KEYS; check for typos or a rotated key.`,
    );
  }
  return key;
}

/**
 * Every matched route requires a sandbox key (including /__sandbox/*); unknown paths answer 404
 * without one so a typo in the path is reported as such.
 */
export function registerAuth(app: FastifyInstance, accepted: ReadonlySet<string>): void {
  app.decorateRequest('apiKey', '');
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.is404) return;
    request.apiKey = authenticate(request.headers, accepted);
  });
}
