/**
 * Who may call a route, and who may act on a thing someone owns. ROUTE_ROLES below names, for every
 * route under /api, the least role that may call it (or 'open' for the sign-in itself); the
 * onRoute hook `declareRouteRoles` puts it on the route (`config.role`) as the route registers, and
 * registering a route under /api that the table does not name fails: the proxy does not start with
 * a route nobody decided the audience of. The access-control hook (access.ts) checks the role.
 * Ownership (own bulk job, own alert subscription; an admin: anyone's) is `mayActOn`, used by the
 * handlers. docs/proxy-security.md, "Roles".
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { roleAllows, type Role } from '../../../src/lib/roles.ts';
import { TOKEN_ACTOR_PREFIX } from '../../../src/lib/token-actor.ts';
import { ApiError } from '../http/api-error.ts';
import { ROLLOVER_USER } from './spend.ts';

export type { Role };

/** What a route needs: the least role that may call it, or 'open' (no sign-in needed). */
export type RouteRole = Role | 'open';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the least role that may call this route (from ROUTE_ROLES; every route under /api has one) */
    role?: RouteRole;
  }
}

/**
 * Every route under /api, `METHOD path` as registered, and the least role that may call it.
 * viewer: reads; analyst: records decisions, triages, watches, runs bulk jobs, manages alert
 * subscriptions (their own: `mayActOn`); admin: saves the policy, reads the audit log, polls and
 * resends for the whole team.
 */
export const ROUTE_ROLES: Readonly<Record<string, RouteRole>> = {
  // the service's mirror: reads for everyone, watching (monitoring/add, /remove) for analysts
  'GET /api/v2/profile': 'viewer',
  'GET /api/v2/profile-lite': 'viewer',
  'GET /api/v2/profile-fmcsa': 'viewer',
  'GET /api/v2/autocomplete': 'viewer',
  'GET /api/v2/monitoring/list': 'viewer',
  'POST /api/v2/monitoring/add': 'analyst',
  'POST /api/v2/monitoring/remove': 'analyst',
  // the session: signing in is open; who am I (with the role) and signing out need a user
  'POST /api/local/session': 'open',
  'GET /api/local/session': 'viewer',
  'DELETE /api/local/session': 'viewer',
  'GET /api/local/config': 'viewer',
  'GET /api/local/usage': 'viewer',
  'POST /api/local/estimate': 'viewer',
  'GET /api/local/audit': 'admin',
  'GET /api/local/profile-summary': 'viewer',
  'GET /api/local/profile-view': 'viewer',
  'POST /api/local/names/lookup': 'viewer',
  // tender checks (docs/tender-check.md): checking an offer may bill, so analysts; reading for all
  'POST /api/local/tender-checks': 'analyst',
  'GET /api/local/tender-checks': 'viewer',
  'GET /api/local/tender-checks/:id': 'viewer',
  // the inbox: reading (and the user's own last-visit mark) for everyone, triage for analysts
  'GET /api/local/monitoring-view': 'viewer',
  'GET /api/local/monitoring-badge': 'viewer',
  'GET /api/local/triage': 'viewer',
  'POST /api/local/triage/lookup': 'viewer',
  'GET /api/local/triage/names': 'viewer',
  'GET /api/local/triage/summary': 'viewer',
  'GET /api/local/triage/last-visit': 'viewer',
  'PUT /api/local/triage/last-visit': 'viewer',
  'PUT /api/local/triage': 'analyst',
  'POST /api/local/watchlist/resolve': 'analyst',
  // vetting: verdicts and decisions for everyone; recording for analysts; the policy for admins
  'GET /api/local/verdict': 'viewer',
  'GET /api/local/policy': 'viewer',
  'GET /api/local/policy/versions': 'viewer',
  'GET /api/local/policy/versions/:version': 'viewer',
  'POST /api/local/policy/preview': 'analyst',
  'PUT /api/local/policy': 'admin',
  'GET /api/local/decisions': 'viewer',
  'GET /api/local/decisions/current': 'viewer',
  'GET /api/local/decisions/revet-due': 'viewer',
  'GET /api/local/decisions/verify': 'viewer',
  // the anchored record: the public key, a record's receipt, and checking kept receipts (a read)
  'GET /api/local/decisions/public-key': 'viewer',
  'GET /api/local/decisions/:id/receipt': 'viewer',
  'POST /api/local/decisions/verify': 'viewer',
  'GET /api/local/decisions/:id': 'viewer',
  'POST /api/local/decisions': 'analyst',
  // bulk jobs: listed for everyone; run and controlled by analysts (their own; admins: any)
  'GET /api/local/bulk-jobs': 'viewer',
  'GET /api/local/bulk-jobs/:id': 'viewer',
  'POST /api/local/bulk-jobs': 'analyst',
  'POST /api/local/bulk-jobs/:id/pause': 'analyst',
  'POST /api/local/bulk-jobs/:id/resume': 'analyst',
  'POST /api/local/bulk-jobs/:id/cancel': 'analyst',
  'POST /api/local/bulk-jobs/:id/retry-failed': 'analyst',
  // alerts: subscriptions by analysts (their own; admins: any); the team's poll and resend: admins
  'GET /api/local/alerts': 'viewer',
  'GET /api/local/alerts/deliveries': 'viewer',
  'POST /api/local/alerts/subscriptions': 'analyst',
  'PUT /api/local/alerts/subscriptions/:id': 'analyst',
  'POST /api/local/alerts/subscriptions/:id/remove': 'analyst',
  'POST /api/local/alerts/test': 'analyst',
  'POST /api/local/alerts/poll': 'admin',
  'POST /api/local/alerts/deliveries/:id/resend': 'admin',
  // the API's reference (docs/api.md, "Contracts"): anyone signed in, an API token included, reads
  // it, so an integrator holding only a viewer token can; it holds no secret, but it maps every
  // route, so it is not open to whoever can reach the proxy
  'GET /api/openapi.json': 'viewer',
  'GET /api/docs': 'viewer',
  // API tokens for other systems (docs/api.md): made, listed and revoked by admins
  'POST /api/local/tokens': 'admin',
  'GET /api/local/tokens': 'admin',
  'POST /api/local/tokens/:id/revoke': 'admin',
};

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/');
}

/**
 * onRoute hook: gives each route under /api its role from `rules` (ROUTE_ROLES), and throws for a
 * route the table does not name. Add it before any route is registered.
 */
export function declareRouteRoles(
  app: FastifyInstance,
  rules: Readonly<Record<string, RouteRole>> = ROUTE_ROLES,
): void {
  app.addHook('onRoute', (route) => {
    if (!isApiPath(route.url)) return;
    const methods = [route.method].flat();
    // a HEAD route (Fastify's exposeHeadRoutes) is its GET's
    const roles = methods.map(
      (method) => rules[`${method === 'HEAD' ? 'GET' : method} ${route.url}`],
    );
    const role = roles[0];
    if (role === undefined || roles.some((other) => other !== role)) {
      throw new Error(
        `route ${methods.join(',')} ${route.url} has no role: add it to ROUTE_ROLES (server-proxy/src/governance/roles.ts)`,
      );
    }
    route.config = { ...route.config, role };
  });
}

/** The user the proxy's alerts poller calls the service as (its audit rows carry it). */
export const ALERTS_ACTOR = 'alerts';
/** The audit's user for a sign-in attempt whose name is not a valid user name. */
export const INVALID_NAME_ACTOR = '(invalid name)';
/** The user of every request with DASHBOARD_AUTH=none, and the fallback of the route modules. */
export const LOCAL_ACTOR = 'local';

/**
 * Every name the proxy writes into the audit log and the ledger itself: a trusted-header user may
 * not take one of them (nor any name in parentheses), so no row of theirs reads as the proxy's.
 */
const RESERVED_ACTORS: readonly string[] = [
  ALERTS_ACTOR,
  INVALID_NAME_ACTOR,
  LOCAL_ACTOR,
  ROLLOVER_USER,
];

/**
 * True when `name` may not be a user's name: one of RESERVED_ACTORS, anything in parentheses, or
 * an API token's id (`token:…`).
 */
export function isReservedName(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    RESERVED_ACTORS.includes(lower) ||
    (lower.startsWith('(') && lower.endsWith(')')) ||
    lower.startsWith(TOKEN_ACTOR_PREFIX)
  );
}

/** The 403 for a user whose role is below `needed`. */
export function forbiddenRole(role: Role, needed: Role): ApiError {
  return new ApiError(
    403,
    'forbidden_role',
    `This needs the ${needed} role (you are ${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role})`,
    `Ask an admin to give your account the ${needed} role.`,
  );
}

/** The 403 for acting on `what` someone else owns, which needs the admin role. */
export function notTheOwner(what: string, owner: string): ApiError {
  return new ApiError(
    403,
    'forbidden_role',
    `This ${what} is ${owner}'s; acting on another user's ${what} needs the admin role`,
    `Ask ${owner} or an admin.`,
  );
}

/** The role of the request's user; a request without one (an open route) is a viewer. */
export function roleOf(request: FastifyRequest): Role {
  return request.user?.role ?? 'viewer';
}

/**
 * Ownership, one rule for every owned thing (bulk jobs, alert subscriptions): its owner may act on
 * it, and an admin may act on anyone's.
 */
export function mayActOn(request: FastifyRequest, owner: string): boolean {
  const user = request.user;
  if (user === undefined) return false;
  return user.id === owner || roleAllows(user.role, 'admin');
}
