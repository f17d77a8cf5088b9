import { BlockList, isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isRole, roleAllows, type Role } from '../../../src/lib/roles.ts';
import type { AuthConfig, RequestUser } from '../context.ts';
import { ApiError, sendApiError } from '../http/api-error.ts';
import { sendError } from './errors.ts';
import { tokenActor } from '../../../src/lib/token-actor.ts';
import { forbiddenRole, isReservedName, LOCAL_ACTOR } from './roles.ts';
import type { SessionStore } from './sessions.ts';
import type { TokenStore } from './tokens.ts';

/** Name of the session cookie (password mode). */
export const SESSION_COOKIE = 'cd_session';

/** The user every request runs as when DASHBOARD_AUTH=none: one person on loopback, an admin. */
const LOCAL_USER: RequestUser = { id: LOCAL_ACTOR, name: LOCAL_ACTOR, role: 'admin' };

/** The header carrying the role in trusted-header mode when TRUSTED_ROLE_HEADER is not set. */
const DEFAULT_ROLE_HEADER = 'x-forwarded-role';

/** Paths served without a user: probes and the login page. */
const OPEN_PATHS = new Set(['/healthz', '/readyz', '/login']);

/**
 * Finds the user of a request, or undefined when it has none. Rejects with a 503
 * `storage_unavailable` ApiError when the sessions cannot be read (PostgreSQL down).
 */
export type Identify = (request: FastifyRequest) => Promise<RequestUser | undefined>;

export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

function isOpen(request: FastifyRequest): boolean {
  const path = pathOf(request.url);
  if (path === '/api/local/session') return request.method === 'POST';
  return OPEN_PATHS.has(path);
}

/** Addresses (or CIDR ranges) of the proxies allowed to assert the user header. */
function trustedProxyList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  const problems: string[] = [];
  for (const entry of entries) {
    const [address = '', prefix] = entry.trim().split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    const max = family === 6 ? 128 : 32;
    if (family === 0) problems.push(`"${entry}" is not an IP address or CIDR range`);
    else if (bits === undefined) list.addAddress(address, family === 6 ? 'ipv6' : 'ipv4');
    else if (!Number.isInteger(bits) || bits < 0 || bits > max)
      problems.push(`bad prefix in "${entry}"`);
    else list.addSubnet(address, bits, family === 6 ? 'ipv6' : 'ipv4');
  }
  if (problems.length > 0) throw new Error(`trusted proxies: ${problems.join('; ')}`);
  return list;
}

function isTrustedPeer(list: BlockList, address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  const family = isIP(plain);
  return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
}

const HEADER_USER = /^[^\p{Cc}]{1,128}$/u;

/** The role the sign-in proxy asserts: admin, analyst or viewer; absent or anything else, viewer. */
function headerRole(request: FastifyRequest, header: string): Role {
  const value = request.headers[header.toLowerCase()];
  const role = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return isRole(role) ? role : 'viewer';
}

/** The user the header names; none when it is absent, malformed or a name the proxy uses itself. */
function headerUser(
  request: FastifyRequest,
  header: string,
  roleHeader: string,
): RequestUser | undefined {
  const value = request.headers[header.toLowerCase()];
  const name = typeof value === 'string' ? value.trim() : '';
  if (!HEADER_USER.test(name) || isReservedName(name)) return undefined;
  return { id: name, name, role: headerRole(request, roleHeader) };
}

/** Requests identified by an API token (no ambient credentials: the CSRF check lets them by). */
const TOKEN_REQUESTS = new WeakSet<FastifyRequest>();

/** True when the request's user is an API token's (its Authorization header was a live token). */
export function isTokenRequest(request: FastifyRequest): boolean {
  return TOKEN_REQUESTS.has(request);
}

/**
 * Where a token is accepted: the dashboard's API, the service's mirror, and the OpenAPI document
 * that describes both (a TMS generates its client from it with the token it calls with).
 */
const TOKEN_PATHS = /^\/api\/(local|v2)\/|^\/api\/openapi\.json$/;
/**
 * Only our tokens (`cdk_…`) identify: any other Authorization value is a client credential that is
 * not ours, ignored and never forwarded, as before tokens (forwarding.test.ts).
 */
const BEARER = /^Bearer[ \t]+(cdk_\S*)[ \t]*$/i;

/** The token of `Authorization: Bearer cdk_…` on a path that takes tokens; otherwise undefined. */
function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !TOKEN_PATHS.test(pathOf(request.url))) return undefined;
  return BEARER.exec(header)?.[1];
}

function invalidToken(): ApiError {
  return new ApiError(
    401,
    'invalid_token',
    'The API token is unknown, revoked or expired',
    'Ask an admin for a new token (POST /api/local/tokens) and send it as "Authorization: Bearer cdk_…".',
  );
}

/**
 * How requests are identified in each DASHBOARD_AUTH mode. With `tokens`, a request to /api/local/*
 * or /api/v2/* carrying `Authorization: Bearer <token>` is the token's in every mode (read from
 * the database each time, so a revoke holds at once on every replica), and an unknown, revoked or
 * expired token is refused with 401 `invalid_token` (never read as "no user").
 */
export function createIdentify(
  auth: AuthConfig,
  sessions: SessionStore,
  now: () => Date,
  /** password mode: the role of an account, undefined once it is gone from the users file */
  roleOf: (name: string) => Role | undefined = () => undefined,
  tokens?: TokenStore,
): Identify {
  const byMode = identifyByMode(auth, sessions, now, roleOf);
  if (tokens === undefined) return byMode;
  return async (request) => {
    const bearer = bearerOf(request);
    if (bearer === undefined) return byMode(request);
    const at = now();
    const token = await tokens.find(bearer, at);
    if (token === undefined) throw invalidToken();
    try {
      await tokens.touch(token, at);
    } catch (err) {
      request.log.warn({ err, token: token.id }, 'could not note the API token use');
    }
    TOKEN_REQUESTS.add(request);
    return { id: tokenActor(token.id, token.name), name: token.name, role: token.role };
  };
}

function identifyByMode(
  auth: AuthConfig,
  sessions: SessionStore,
  now: () => Date,
  roleOf: (name: string) => Role | undefined,
): Identify {
  switch (auth.kind) {
    case 'none':
      return async () => LOCAL_USER;
    case 'password':
      return async (request) => {
        const token = request.cookies[SESSION_COOKIE];
        const name = token === undefined ? undefined : await sessions.lookup(token, now());
        const role = name === undefined ? undefined : roleOf(name);
        return name === undefined || role === undefined ? undefined : { id: name, name, role };
      };
    case 'trusted-header': {
      const trusted = trustedProxyList(auth.trustedProxies);
      const roleHeader = auth.roleHeader ?? DEFAULT_ROLE_HEADER;
      return async (request) =>
        isTrustedPeer(trusted, request.socket.remoteAddress)
          ? headerUser(request, auth.header, roleHeader)
          : undefined;
    }
  }
}

function refuse(request: FastifyRequest, reply: FastifyReply, auth: AuthConfig) {
  const path = pathOf(request.url);
  const isPage =
    !path.startsWith('/api/') && (request.method === 'GET' || request.method === 'HEAD');
  if (auth.kind === 'password' && isPage) {
    return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 302);
  }
  const hint =
    auth.kind === 'password'
      ? 'Sign in at /login (or POST /api/local/session), then retry.'
      : `Reach the dashboard through the sign-in proxy that sets the ${auth.kind === 'trusted-header' ? auth.header : 'user'} header.`;
  return sendError(reply, 401, { error: 'Not signed in', code: 'unauthenticated', hint });
}

/**
 * onRequest hook: sets request.user, or refuses (401 JSON, or a redirect to /login for pages).
 * A request whose session cannot be read (its database is down) gets the 503 the store raised,
 * open paths included: the user of a request with a cookie is unknown, not absent. Then the one
 * role check: a route's `config.role` (roles.ts) above the user's role is refused with 403
 * `forbidden_role`.
 */
export function addAccessControl(app: FastifyInstance, auth: AuthConfig, identify: Identify) {
  app.addHook('onRequest', async (request, reply) => {
    let user: RequestUser | undefined;
    try {
      user = await identify(request);
    } catch (err) {
      if (err instanceof ApiError) return sendApiError(reply, err);
      throw err;
    }
    if (user !== undefined) request.user = user;
    else if (!isOpen(request)) return refuse(request, reply, auth);
    const needed = request.routeOptions.config.role;
    if (user !== undefined && needed !== undefined && needed !== 'open') {
      if (!roleAllows(user.role, needed))
        return sendApiError(reply, forbiddenRole(user.role, needed));
    }
  });
}
