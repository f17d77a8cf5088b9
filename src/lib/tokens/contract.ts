/**
 * The API token routes' contract (docs/api.md, "API tokens"): admins make, list and revoke the
 * tokens other systems call the API with.
 */
import { z } from 'zod';
import { defineRoute, errors } from '../api/route-contract.ts';

const DAYS_MAX = 365;
const NAME_MAX = 80;

const NAME = `"name" must be 1 to ${NAME_MAX} characters, no control characters`;
const ROLE = '"role" must be "viewer" or "analyst"';
const DAYS = `"expires_in_days" must be an integer from 1 to ${DAYS_MAX}`;

const tokenRoleSchema = z.enum(['viewer', 'analyst']);

/** A token as listed: never the token itself nor its hash. */
const apiTokenSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    role: tokenRoleSchema,
    prefix: z.string().meta({ description: 'the first characters, e.g. cdk_ab12cd34' }),
    created_by: z.string(),
    created_at: z.string(),
    expires_at: z.string(),
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    revoked_by: z.string().nullable(),
  })
  .meta({ id: 'ApiToken' });
export type ApiToken = z.infer<typeof apiTokenSchema>;

const createTokenBodySchema = z.strictObject(
  {
    name: z
      .string({ error: NAME })
      .trim()
      .min(1, { error: NAME })
      .max(NAME_MAX, { error: NAME })
      .regex(/^[^\p{Cc}]+$/u, { error: NAME })
      .meta({ description: 'the system that will use it, e.g. "McLeod TMS"' }),
    role: z
      .enum(['viewer', 'analyst'], { error: ROLE })
      .meta({ description: 'viewer: reads; analyst: also records decisions' }),
    expires_in_days: z
      .number({ error: DAYS })
      .int({ error: DAYS })
      .min(1, { error: DAYS })
      .max(DAYS_MAX, { error: DAYS }),
  },
  { error: 'The body must be a JSON object' },
);

export const createTokenRoute = defineRoute({
  method: 'POST',
  path: '/api/local/tokens',
  tag: 'Tokens',
  summary: 'Make an API token',
  description: 'The answer carries the token itself (cdk_…) once; only its SHA-256 is kept.',
  body: createTokenBodySchema,
  responses: {
    201: z.object({
      id: z.number().int(),
      token: z.string().meta({ description: 'the bearer token; never shown again' }),
      name: z.string(),
      role: tokenRoleSchema,
      prefix: z.string(),
      expires_at: z.string(),
    }),
    400: errors('invalid_name', 'invalid_role', 'invalid_expires_in_days', 'unknown_field'),
  },
});

export const listTokensRoute = defineRoute({
  method: 'GET',
  path: '/api/local/tokens',
  tag: 'Tokens',
  summary: 'List the API tokens with their last use, newest first',
  responses: { 200: z.object({ tokens: z.array(apiTokenSchema) }) },
});

export const revokeTokenRoute = defineRoute({
  method: 'POST',
  path: '/api/local/tokens/:id/revoke',
  tag: 'Tokens',
  summary: 'Revoke an API token (at once, on every replica)',
  description: 'A second revoke keeps the first one’s time and actor.',
  params: z.object({ id: z.string().meta({ description: 'the token’s id (digits)' }) }),
  responses: {
    200: z.object({ token: apiTokenSchema }),
    404: errors('token_not_found'),
  },
});
