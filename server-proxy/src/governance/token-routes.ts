/**
 * The API token routes (admins only, ROUTE_ROLES): make a token, list them with their last use,
 * revoke one. docs/api.md.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError, sendApiError } from '../http/api-error.ts';
import { parseInput, type InputWording } from '../http/parse-input.ts';
import { LOCAL_ACTOR } from './roles.ts';
import type { TokenStore } from './tokens.ts';

interface TokenRouteDeps {
  tokens: TokenStore;
  now: () => Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_DAYS = 365;
const MAX_NAME = 80;

const NAME = `"name" must be 1 to ${MAX_NAME} characters, no control characters`;
const ROLE = '"role" must be "viewer" or "analyst"';
const DAYS = `"expires_in_days" must be an integer from 1 to ${MAX_DAYS}`;

const createSchema = z.strictObject(
  {
    name: z
      .string({ error: NAME })
      .trim()
      .min(1, { error: NAME })
      .max(MAX_NAME, { error: NAME })
      .regex(/^[^\p{Cc}]+$/u, { error: NAME }),
    role: z.enum(['viewer', 'analyst'], { error: ROLE }),
    expires_in_days: z
      .number({ error: DAYS })
      .int({ error: DAYS })
      .min(1, { error: DAYS })
      .max(MAX_DAYS, { error: DAYS }),
  },
  { error: 'The body must be a JSON object' },
);

const CREATE_WORDING: InputWording = {
  hint: 'Send {"name": "TMS", "role": "viewer", "expires_in_days": 90}.',
  hints: {
    invalid_name: 'Name the system that will use the token, e.g. "McLeod TMS".',
    invalid_role: 'A token may be a viewer (reads) or an analyst (also records decisions).',
    invalid_expires_in_days: `A token lasts at most a year (${MAX_DAYS} days).`,
  },
  unknown: { code: 'unknown_field', message: (key) => `Unknown field "${key}"` },
};

function actorOf(request: FastifyRequest): string {
  return request.user?.id ?? LOCAL_ACTOR;
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
  app.post('/api/local/tokens', async (request, reply) => {
    const input = parseInput(createSchema, request.body, CREATE_WORDING);
    if (!input.ok) return sendApiError(reply, input.error);
    const { name, role, expires_in_days: days } = input.value;
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
    return reply.code(201).send({
      id: made.id,
      token: made.token,
      name: made.name,
      role: made.role,
      prefix: made.prefix,
      expires_at: made.expires_at,
    });
  });
  app.get('/api/local/tokens', async () => ({ tokens: await deps.tokens.list() }));
  app.post<{ Params: { id: string } }>('/api/local/tokens/:id/revoke', async (request, reply) => {
    const { id } = request.params;
    if (!/^\d{1,15}$/.test(id)) return sendApiError(reply, tokenNotFound(id));
    const token = await deps.tokens.revoke(Number(id), actorOf(request), deps.now());
    if (token === undefined) return sendApiError(reply, tokenNotFound(id));
    return { token };
  });
}
