/** Inputs of /api/local/estimate and /api/local/audit, read with zod (http/parse-input.ts). */
import { z } from 'zod';
import type { Endpoint } from '../context.ts';
import { issue, parseInput, type InputWording, type Parsed } from '../http/parse-input.ts';
import type { AuditQuery } from './audit.ts';
import { PRICE_RULES, dotOfProfileId, isEndpoint, ENDPOINTS } from './pricing.ts';

export type { Parsed };

const DOT = /^\d{1,10}$/;
const MAX_PLAN_ITEMS = 100_000;
const MAX_COUNT = 10_000_000;
const AUDIT_DEFAULT_PAGE_SIZE = 50;
const AUDIT_MAX_PAGE_SIZE = 200;
const PLANNED_CALLS = 'Give the number of planned calls.';

export interface EstimatePlan {
  endpoint: Endpoint;
  dots?: string[];
  count?: number;
}

/** A non-empty array of at most MAX_PLAN_ITEMS strings, with one message for every way to miss. */
function stringList(message: string) {
  return z
    .array(z.string({ error: message }), { error: message })
    .min(1, { error: message })
    .max(MAX_PLAN_ITEMS, { error: message });
}

const ESTIMATE_LIST = '"profile_ids" must be a non-empty array of strings';

const estimateSchema = z
  .strictObject(
    {
      action: z.custom<Endpoint>(isEndpoint, { error: '"action" is not a metered endpoint' }),
      profile_ids: stringList(ESTIMATE_LIST)
        .superRefine((ids, ctx) => {
          const bad = ids.find((id) => dotOfProfileId(id) === undefined);
          if (bad !== undefined) {
            ctx.addIssue(
              issue('invalid_profile_ids', `"profile_ids" must be not "${bad.slice(0, 40)}"`),
            );
          }
        })
        .optional(),
      dots: stringList('"dots" must be a non-empty array of DOT numbers')
        .refine((list) => list.every((dot) => DOT.test(dot)), {
          error: '"dots" must be a non-empty array of DOT numbers',
        })
        .optional(),
      count: z
        .number({ error: `"count" must be an integer from 1 to ${MAX_COUNT}` })
        .int({ error: `"count" must be an integer from 1 to ${MAX_COUNT}` })
        .min(1, { error: `"count" must be an integer from 1 to ${MAX_COUNT}` })
        .max(MAX_COUNT, { error: `"count" must be an integer from 1 to ${MAX_COUNT}` })
        .optional(),
    },
    { error: 'The body must be a JSON object' },
  )
  .transform(({ action, profile_ids = [], dots = [], count }): EstimatePlan => {
    const all = [...profile_ids.map((id) => dotOfProfileId(id) ?? ''), ...dots];
    return { endpoint: action, dots: all.length > 0 ? all : undefined, count };
  })
  .superRefine(({ endpoint, dots, count }, ctx) => {
    const rule = PRICE_RULES[endpoint].kind;
    if (rule === 'per-dot-month' && dots === undefined) {
      ctx.addIssue(
        issue('missing_dots', `"${endpoint}" is priced per DOT: send profile_ids or dots`),
      );
    }
    if (
      (rule === 'per-call' || rule === 'per-match') &&
      dots === undefined &&
      count === undefined
    ) {
      ctx.addIssue(issue('missing_count', `"${endpoint}" is priced per call: send count`));
    }
  });

const ESTIMATE_WORDING: InputWording = {
  hint: PLANNED_CALLS,
  hints: {
    invalid_body: 'Send {"action": "monitoring/add", "profile_ids": [...]}.',
    unknown_field: 'Allowed: action, profile_ids, dots, count.',
    invalid_action: `One of: ${ENDPOINTS.join(', ')}.`,
    invalid_profile_ids: 'Use <dot>-<docket> ids such as 568253-MC277621.',
    invalid_dots: 'Send digits only, e.g. ["568253"].',
    missing_dots: 'List the carriers the action concerns.',
  },
  unknown: { code: 'unknown_field', message: (key) => `Unknown field "${key}"` },
};

/** Body of POST /api/local/estimate: `{action, profile_ids?, dots?, count?}`. */
export function parseEstimate(body: unknown): Parsed<EstimatePlan> {
  return parseInput(estimateSchema, body, ESTIMATE_WORDING);
}

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

const USER = '"user" must be a user name';
const DOT_NUMBER = '"dot" must be a DOT number';

const auditSchema = z.strictObject({
  user: z.string({ error: USER }).min(1, { error: USER }).max(128, { error: USER }).optional(),
  dot: z.string({ error: DOT_NUMBER }).regex(DOT, { error: DOT_NUMBER }).optional(),
  page: positiveInt('page', 1_000_000, 1),
  pageSize: positiveInt('pageSize', AUDIT_MAX_PAGE_SIZE, AUDIT_DEFAULT_PAGE_SIZE),
});

const AUDIT_WORDING: InputWording = {
  hint: 'Allowed: user, dot, page, pageSize.',
  hints: {
    invalid_user: 'Give one user name, as shown in the audit.',
    invalid_dot: 'Digits only, e.g. 568253.',
    invalid_page: 'Omit it for the default 1.',
    invalid_pageSize: `Omit it for the default ${AUDIT_DEFAULT_PAGE_SIZE}.`,
  },
  unknown: { code: 'unknown_parameter', message: (key) => `Unknown parameter "${key}"` },
};

/** Query of GET /api/local/audit: `user`, `dot`, `page`, `pageSize`. */
export function parseAuditQuery(query: unknown): Parsed<AuditQuery> {
  return parseInput(auditSchema, query ?? {}, AUDIT_WORDING);
}
