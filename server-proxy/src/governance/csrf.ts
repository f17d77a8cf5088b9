import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pathOf } from './access.ts';
import { sendError } from './errors.ts';

/** Custom header every state-changing request must carry (a cross-site form cannot set it). */
export const CSRF_HEADER = 'x-requested-with';
export const CSRF_HEADER_VALUE = 'carrier-desk';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function originMatchesHost(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * Same-origin verdict: `proven` when the browser said so (Sec-Fetch-Site same-origin/none, or an
 * Origin equal to the Host), `cross` when it said otherwise, `unknown` when neither header came
 * (not a browser: browsers send Origin on every cross-origin POST).
 */
function originVerdict(request: FastifyRequest): 'proven' | 'cross' | 'unknown' {
  const site = single(request.headers['sec-fetch-site']);
  const origin = single(request.headers.origin);
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return 'cross';
  if (origin !== undefined && !originMatchesHost(origin, request.headers.host)) return 'cross';
  return site !== undefined || origin !== undefined ? 'proven' : 'unknown';
}

/** The login page's HTML form posts form-encoded and cannot add the custom header. */
function isLoginForm(request: FastifyRequest): boolean {
  const type = single(request.headers['content-type']) ?? '';
  return (
    pathOf(request.url) === '/api/local/session' &&
    type.toLowerCase().startsWith('application/x-www-form-urlencoded')
  );
}

type CsrfProblem = 'cross_origin' | 'missing_header' | undefined;

function csrfProblem(request: FastifyRequest): CsrfProblem {
  if (!UNSAFE_METHODS.has(request.method)) return undefined;
  const verdict = originVerdict(request);
  if (verdict === 'cross') return 'cross_origin';
  if (isLoginForm(request)) return verdict === 'proven' ? undefined : 'cross_origin';
  const header = single(request.headers[CSRF_HEADER]);
  return header === CSRF_HEADER_VALUE ? undefined : 'missing_header';
}

/** onRequest hook: state-changing requests need same origin and the custom header, else 403. */
export function addCsrfCheck(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    const problem = csrfProblem(request);
    if (problem === undefined) return;
    const error =
      problem === 'cross_origin'
        ? 'Cross-origin state-changing requests are refused'
        : `State-changing requests must carry the ${CSRF_HEADER} header`;
    return sendError(reply, 403, {
      error,
      code: 'csrf',
      hint: `Send it from the dashboard's own origin with "${CSRF_HEADER}: ${CSRF_HEADER_VALUE}".`,
    });
  });
}
