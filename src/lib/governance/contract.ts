/**
 * The contracts of the proxy's own governance routes: the session (sign in, who am I, sign out),
 * the configuration the SPA reads, the month's spend, a spend estimate and the audit log
 * (docs/proxy.md, docs/proxy-security.md). Runtime-neutral: the proxy's routes and the SPA's
 * readers use the same schemas.
 */
import { z } from 'zod';
import { ROLES } from '../roles.ts';
import { ENDPOINTS, ENDPOINT_NAMES, type Endpoint } from '../service/endpoints.ts';
import { defineRoute, empty, errors, inputIssue } from '../api/route-contract.ts';

const modeSchema = z.enum(['sandbox', 'test', 'live']);
const authSchema = z.enum(['none', 'password', 'trusted-header']);

/** The user a request acts as: a person or an API token (`token:<id>:<name>`). */
const sessionUserSchema = z
  .object({ id: z.string(), name: z.string(), role: z.enum(ROLES) })
  .meta({ id: 'SessionUser' });

/** `GET /api/local/session` and a JSON sign-in: who is signed in (null: nobody) and how. */
const sessionSchema = z.object({ user: sessionUserSchema.nullable(), auth: authSchema });
export type SessionAnswer = z.infer<typeof sessionSchema>;

export const getSessionRoute = defineRoute({
  method: 'GET',
  path: '/api/local/session',
  tag: 'Session',
  summary: 'Who is signed in, with their role',
  responses: { 200: sessionSchema },
});

const CREDENTIALS = 'username and password are required';

export const signInRoute = defineRoute({
  method: 'POST',
  path: '/api/local/session',
  tag: 'Session',
  summary: 'Sign in (DASHBOARD_AUTH=password)',
  description:
    'JSON answers JSON and sets the session cookie; the login form (application/x-www-form-urlencoded) ' +
    'is answered with a redirect, or the login page again with the error.',
  body: z.object({
    username: z.string({ error: CREDENTIALS }).min(1, { error: CREDENTIALS }),
    password: z.string({ error: CREDENTIALS }).min(1, { error: CREDENTIALS }).max(1024, {
      error: CREDENTIALS,
    }),
    next: z.unknown().optional().meta({ description: 'form only: where to go after signing in' }),
  }),
  responses: {
    200: sessionSchema,
    303: empty('The form signed in: go to `next`'),
    400: errors('invalid_credentials_body', 'login_not_available'),
    401: errors('bad_credentials'),
    429: errors('login_rate_limited', 'login_locked'),
  },
});

export const signOutRoute = defineRoute({
  method: 'DELETE',
  path: '/api/local/session',
  tag: 'Session',
  summary: 'Sign out',
  responses: { 204: empty('Signed out'), 400: errors('login_not_available') },
});

const billingSchema = z.object({
  billed: z.boolean().meta({ description: 'false in sandbox/test: nothing is billed' }),
  note: z.string(),
});

const proxyConfigSchema = z.object({
  mode: modeSchema,
  legacy: z.boolean(),
  embeddedSandbox: z.boolean(),
  profileSummaries: z.boolean(),
  billing: billingSchema,
  budgetUsd: z.number().nullable(),
  orgName: z.string().nullable(),
  auth: authSchema,
  csrfHeader: z.object({ name: z.string(), value: z.string() }),
  currency: z.literal('USD'),
  prices: z.array(
    z.object({ endpoint: z.enum(ENDPOINT_NAMES), usd: z.number(), unit: z.string() }),
  ),
  user: sessionUserSchema.nullable(),
});

export const getConfigRoute = defineRoute({
  method: 'GET',
  path: '/api/local/config',
  tag: 'Governance',
  summary: 'The proxy’s mode, budget, prices and the signed-in user (never the key)',
  responses: { 200: proxyConfigSchema },
});

const spendLineSchema = z.object({ calls: z.number(), usd: z.number() });

/** `GET /api/local/usage`: this month's spend. */
const usageSchema = z.object({
  month: z.string(),
  mode: modeSchema,
  spentUsd: z.number().meta({ description: 'settled, reserved and uncertain' }),
  reservedUsd: z.number(),
  uncertainUsd: z.number(),
  budgetUsd: z.number().nullable(),
  remainingUsd: z.number().nullable(),
  byCategory: z.array(
    z.object({
      category: z.enum(['profile', 'profile-lite', 'profile-fmcsa', 'autocomplete', 'monitoring']),
      calls: z.number(),
      cacheHits: z.number(),
      billedUnits: z.number(),
      usd: z.number(),
    }),
  ),
  byEndpoint: z.array(
    z.object({
      endpoint: z.enum(ENDPOINT_NAMES),
      calls: z.number(),
      cacheHits: z.number(),
      billedUnits: z.number(),
      usd: z.number(),
    }),
  ),
  byUser: z.array(spendLineSchema.extend({ user: z.string() })),
  byToken: z
    .array(spendLineSchema.extend({ id: z.number(), name: z.string() }))
    .meta({ description: 'the API tokens’ share of byUser' }),
  byDay: z.array(spendLineSchema.extend({ day: z.string() })),
  billing: billingSchema,
  currency: z.literal('USD'),
});
export type UsageAnswer = z.infer<typeof usageSchema>;

export const getUsageRoute = defineRoute({
  method: 'GET',
  path: '/api/local/usage',
  tag: 'Governance',
  summary: 'This month’s spend by category, endpoint, user, token and day',
  responses: { 200: usageSchema },
});

const DOT = /^\d{1,10}$/;
/** A profile id `<dot>-<docket>`, e.g. 568253-MC277621 (the DOT is the first group). */
const PROFILE_ID = /^(\d{1,10})-((MC|MX|FF)?\d{1,10})$/i;
const MAX_PLAN_ITEMS = 100_000;
const MAX_COUNT = 10_000_000;
const COUNT = `"count" must be an integer from 1 to ${MAX_COUNT}`;
const PROFILE_IDS = '"profile_ids" must be a non-empty array of strings';
const DOTS = '"dots" must be a non-empty array of DOT numbers';

/** A non-empty array of at most MAX_PLAN_ITEMS strings, with one message for every way to miss. */
function stringList(message: string) {
  return z
    .array(z.string({ error: message }), { error: message })
    .min(1, { error: message })
    .max(MAX_PLAN_ITEMS, { error: message });
}

/** A plan of calls, read: the endpoint and the DOTs (profile ids' DOTs first) or the count. */
interface EstimatePlan {
  endpoint: Endpoint;
  /** the DOT parts as written (the spend meter normalises them) */
  dots?: string[];
  count?: number;
}

const estimateBodySchema = z
  .strictObject(
    {
      action: z.enum(ENDPOINT_NAMES, { error: '"action" is not a metered endpoint' }),
      profile_ids: stringList(PROFILE_IDS)
        .superRefine((ids, ctx) => {
          const bad = ids.find((id) => !PROFILE_ID.test(id.trim()));
          if (bad !== undefined) {
            ctx.addIssue(
              inputIssue('invalid_profile_ids', `"profile_ids" must be not "${bad.slice(0, 40)}"`),
            );
          }
        })
        .optional(),
      dots: stringList(DOTS)
        .refine((list) => list.every((dot) => DOT.test(dot)), { error: DOTS })
        .optional(),
      count: z
        .number({ error: COUNT })
        .int({ error: COUNT })
        .min(1, { error: COUNT })
        .max(MAX_COUNT, { error: COUNT })
        .optional(),
    },
    { error: 'The body must be a JSON object' },
  )
  .transform(({ action, profile_ids = [], dots = [], count }): EstimatePlan => {
    const all = [...profile_ids.map((id) => PROFILE_ID.exec(id.trim())?.[1] ?? ''), ...dots];
    return { endpoint: action, dots: all.length > 0 ? all : undefined, count };
  })
  .superRefine(({ endpoint, dots, count }, ctx) => {
    const rule = ENDPOINTS[endpoint].price.kind;
    if (rule === 'per-dot-month' && dots === undefined) {
      ctx.addIssue(
        inputIssue('missing_dots', `"${endpoint}" is priced per DOT: send profile_ids or dots`),
      );
    }
    if (
      (rule === 'per-call' || rule === 'per-match') &&
      dots === undefined &&
      count === undefined
    ) {
      ctx.addIssue(inputIssue('missing_count', `"${endpoint}" is priced per call: send count`));
    }
  });

const estimateSchema = z.object({
  endpoint: z.enum(ENDPOINT_NAMES),
  month: z.string(),
  unitPriceUsd: z.number(),
  units: z.number(),
  billableUnits: z.number(),
  costUsd: z.number(),
  spentUsd: z.number(),
  budgetUsd: z.number().nullable(),
  withinBudget: z.boolean(),
  billing: billingSchema,
  currency: z.literal('USD'),
});

export const estimateRoute = defineRoute({
  method: 'POST',
  path: '/api/local/estimate',
  tag: 'Governance',
  summary: 'What a plan of calls would cost this month, and whether the budget allows it',
  body: estimateBodySchema,
  responses: {
    200: estimateSchema,
    400: errors(
      'invalid_body',
      'unknown_field',
      'invalid_action',
      'invalid_profile_ids',
      'invalid_dots',
      'invalid_count',
      'missing_dots',
      'missing_count',
    ),
  },
});

const AUDIT_DEFAULT_PAGE_SIZE = 50;
const AUDIT_MAX_PAGE_SIZE = 200;
const USER = '"user" must be a user name';
const DOT_NUMBER = '"dot" must be a DOT number';

/** An optional query parameter `1..max` (digits only), `fallback` when absent. */
function positiveInt(name: string, max: number, fallback: number) {
  const message = `"${name}" must be an integer from 1 to ${max}`;
  return z
    .string({ error: message })
    .regex(/^\d{1,9}$/, { error: message })
    .transform(Number)
    .pipe(z.number().min(1, { error: message }).max(max, { error: message }))
    .default(fallback);
}

const auditPageSchema = z.object({
  items: z.array(
    z.object({
      id: z.number(),
      at: z.string(),
      user: z.string(),
      method: z.string(),
      endpoint: z.string(),
      searchKey: z.string().nullable(),
      searchValue: z.string().nullable(),
      dot: z.string().nullable(),
      cacheHit: z.boolean(),
      billable: z.boolean(),
      status: z.number(),
    }),
  ),
  total_count: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

export const auditRoute = defineRoute({
  method: 'GET',
  path: '/api/local/audit',
  tag: 'Governance',
  summary: 'The audit log, newest first, by user or DOT',
  query: z.strictObject({
    user: z.string({ error: USER }).min(1, { error: USER }).max(128, { error: USER }).optional(),
    dot: z.string({ error: DOT_NUMBER }).regex(DOT, { error: DOT_NUMBER }).optional(),
    page: positiveInt('page', 1_000_000, 1),
    pageSize: positiveInt('pageSize', AUDIT_MAX_PAGE_SIZE, AUDIT_DEFAULT_PAGE_SIZE),
  }),
  responses: {
    200: auditPageSchema,
    400: errors(
      'unknown_parameter',
      'invalid_user',
      'invalid_dot',
      'invalid_page',
      'invalid_pageSize',
    ),
  },
});
