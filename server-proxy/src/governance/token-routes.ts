/**
 * The API token routes (admins only, ROUTE_ROLES): make a token, list them with their last use,
 * revoke one. Making and revoking a token are written to the audit log: who, and which token (its
 * actor `token:<id>:<name>` as the row's search value). docs/api.md.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  createTokenRoute,
  listTokensRoute,
  revokeTokenRoute,
} from '../../../src/lib/tokens/contract.ts';
import { ApiError } from '../http/api-error.ts';
import { contractRoute } from '../http/contract-route.ts';
import type { InputWording } from '../http/parse-input.ts';
import { pathOf } from './access.ts';
import { LOCAL_ACTOR } from './roles.ts';
import type { AuditLog } from '../context.ts';
import { tokenActor } from '../../../src/lib/token-actor.ts';
import type { TokenStore } from './tokens.ts';

interface TokenRouteDeps {
  tokens: TokenStore;
  audit: AuditLog;
  now: () => Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const CREATE_WORDING: InputWording = {
  hint: 'Send {"name": "TMS", "role": "viewer", "expires_in_days": 90}.',
  hints: {
    invalid_name: 'Name the system that will use the token, e.g. "McLeod TMS".',
    invalid_role: 'A token may be a viewer (reads) or an analyst (also records decisions).',
    invalid_expires_in_days: 'A token lasts at most a year (365 days).',
  },
  unknown: { code: 'unknown_field', message: (key) => `Unknown field "${key}"` },
};

function actorOf(request: FastifyRequest): string {
  return request.user?.id ?? LOCAL_ACTOR;
}

/** An audit row of an admin's change to token `id` named `name` (the request's path and status). */
function auditChange(
  deps: TokenRouteDeps,
  request: FastifyRequest,
  status: number,
  token: { id: number; name: string },
) {
  deps.audit.record({
    at: deps.now(),
    user: actorOf(request),
    method: request.method,
    endpoint: pathOf(request.url),
    searchKey: 'token',
    searchValue: tokenActor(token.id, token.name),
    cacheHit: false,
    billable: false,
    status,
  });
}

function tokenNotFound(id: string): ApiError {
  return new ApiError(
    404,
    'token_not_found',
    `There is no API token ${id.slice(0, 20)}`,
    'List the tokens with GET /api/local/tokens.',
  );
}

export function registerTokenRoutes(app: FastifyInstance, deps: TokenRouteDeps): void {
  contractRoute(
    app,
    createTokenRoute,
    { wording: { body: CREATE_WORDING } },
    async (request, reply) => {
      const { name, role, expires_in_days: days } = request.body;
      const now = deps.now();
      const made = await deps.tokens.create(
        {
          name,
          role,
          createdBy: actorOf(request),
          expiresAt: new Date(now.getTime() + days * DAY_MS),
        },
        now,
      );
      auditChange(deps, request, 201, made);
      return reply.code(201).send({
        id: made.id,
        token: made.token,
        name: made.name,
        role: made.role,
        prefix: made.prefix,
        expires_at: made.expires_at,
      });
    },
  );
  contractRoute(app, listTokensRoute, {}, async () => ({ tokens: await deps.tokens.list() }));
  contractRoute(app, revokeTokenRoute, {}, async (request) => {
    const { id } = request.params;
    if (!/^\d{1,15}$/.test(id)) throw tokenNotFound(id);
    const token = await deps.tokens.revoke(Number(id), actorOf(request), deps.now());
    if (token === undefined) throw tokenNotFound(id);
    auditChange(deps, request, 200, token);
    return { token };
  });
}
