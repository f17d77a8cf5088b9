import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isTokenRequest, pathOf } from './access.ts';
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

type CsrfProblem =
  'cross_origin' | 'cross_site_api' | 'missing_header' | 'billable_get' | undefined;

/** `/api` and everything under it, however the path is spelled (the router folds `//` and `/`). */
function isApiRequest(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route !== undefined && route.startsWith('/api/')) return true;
  const path = pathOf(request.url).replace(/\/{2,}/g, '/');
  return path === '/api' || path.startsWith('/api/');
}

/**
 * GET routes that may make a billed (or rate-limited) upstream call: the whole mirror under
 * /api/v2 (profile, profile-lite, profile-fmcsa, autocomplete, monitoring/list), the profile
 * summary and the verdict (both fetch the full profile), the monitoring view and the monitoring
 * badge (both read the list). Matched on the route the router chose, so no spelling of the path
 * (`//api/v2/profile`, `/api/v2/profile/`, percent-encoding) slips past.
 * governance/csrf.test.ts lists every GET route under /api and fails on one that reaches the
 * service without the header: add new ones here.
 */
function isBillableGet(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const route = request.routeOptions.url;
  return (
    route !== undefined &&
    (route.startsWith('/api/v2/') ||
      route === '/api/local/profile-summary' ||
      route === '/api/local/profile-view' ||
      route === '/api/local/monitoring-view' ||
      route === '/api/local/monitoring-badge' ||
      route === '/api/local/verdict')
  );
}

function csrfProblem(request: FastifyRequest): CsrfProblem {
  // An API token's request (access.ts): no ambient credential another site could ride on.
  if (isTokenRequest(request)) return undefined;
  const api = isApiRequest(request);
  if (!UNSAFE_METHODS.has(request.method)) {
    if (!api) return undefined;
    // Another site's <img>, <script>, form or fetch: never for the API, whatever the method.
    if (originVerdict(request) === 'cross') return 'cross_site_api';
    if (!isBillableGet(request)) return undefined;
    return single(request.headers[CSRF_HEADER]) === CSRF_HEADER_VALUE ? undefined : 'billable_get';
  }
  const verdict = originVerdict(request);
  if (verdict === 'cross') return 'cross_origin';
  if (isLoginForm(request)) return verdict === 'proven' ? undefined : 'cross_origin';
  const header = single(request.headers[CSRF_HEADER]);
  return header === CSRF_HEADER_VALUE ? undefined : 'missing_header';
}

const REFUSALS: Record<Exclude<CsrfProblem, undefined>, string> = {
  cross_origin: 'Cross-origin state-changing requests are refused',
  cross_site_api: 'Requests to the API from another site are refused',
  missing_header: `State-changing requests must carry the ${CSRF_HEADER} header`,
  billable_get: `Calls that may be billed must carry the ${CSRF_HEADER} header`,
};

/**
 * onRequest hook:
 * - any /api request that another site made (Sec-Fetch-Site cross-site/same-site, or an Origin
 *   other than our Host) → 403;
 * - GETs that may be billed (isBillableGet) need the custom header, which another page can only
 *   send after a CORS preflight the proxy never answers (so `<img src>` and no-cors fetches fail);
 * - state-changing requests need same origin and the custom header.
 * All refusals are 403 `csrf`.
 */
export function addCsrfCheck(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    const problem = csrfProblem(request);
    if (problem === undefined) return;
    return sendError(reply, 403, {
      error: REFUSALS[problem],
      code: 'csrf',
      hint: `Send it from the dashboard's own origin with "${CSRF_HEADER}: ${CSRF_HEADER_VALUE}".`,
    });
  });
}
