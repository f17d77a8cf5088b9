/**
 * The vetting routes' contract (docs/vetting.md): what each of `/api/local/verdict`,
 * `/api/local/policy*` and `/api/local/decisions*` reads and answers, as zod schemas. The proxy
 * registers the routes from these contracts (`contractRoute`, which reads the inputs with the
 * schemas below and, under tests, checks every answer against them) and the SPA parses the answers
 * with the same schemas, so neither side can drift from the other. Runtime-neutral (zod only).
 *
 * Inputs keep the wording of their 400s here (zod `error`) and a custom issue names its own code;
 * the hints are the proxy's (its `InputWording`).
 *
 * A decision record's own shape is `decisionRecordSchema` (decision-record.ts): the alerts poller
 * reads stored records with it too.
 */
import { z } from 'zod';
import { defineRoute, errors, inputIssue, STORAGE_UNAVAILABLE } from '../api/route-contract.ts';
import {
  DECISIONS,
  decisionRecordSchema,
  outcomeSchema,
  reasonSchema,
  type Decision,
} from './decision-record.ts';
import { STANDINGS } from './standing.ts';
import { CARGO_CLASSES, HAZMAT_MODES, RULE_IDS } from './index.ts';

// ---------------------------------------------------------------------------------------------
// GET /api/local/verdict

/**
 * The verdict of the current policy on a carrier's profile (the proxy's cached copy: free on a
 * hit). `reasons` are every enabled rule's result, worst first.
 */
export const verdictAnswerSchema = z.object({
  dot_number: z.string().nullable(),
  legal_name: z.string().nullable(),
  /** when the profile the verdict was computed on was fetched */
  fetched_at: z.string(),
  /** `YYYY-MM-DD` of the monitoring change the profile was fetched anew after, if it was */
  refreshed_after_change: z.string().nullable(),
  evaluated_at: z.string(),
  verdict: outcomeSchema,
  policy_version: z.number().int(),
  snapshot_date: z.string().nullable(),
  /** the day "N days ago" is counted from: the snapshot date, else the evaluation day */
  reference_date: z.string(),
  reasons: z.array(reasonSchema),
});
export type VerdictAnswer = z.infer<typeof verdictAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// The policy: GET /api/local/policy, …/versions, …/versions/:version, PUT, POST …/preview

const HIT_OUTCOMES = ['review', 'fail'] as const;

/** One rule's team settings (src/lib/vetting/types.ts `RuleSettings`). */
const ruleSettingsSchema = z.object({
  enabled: z.boolean(),
  outcome: z.enum(HIT_OUTCOMES),
  no_data: z.enum(['pass', 'review']),
  threshold: z.number().optional(),
  cargo_required: z.array(z.enum(CARGO_CLASSES)).optional(),
  cargo_refused: z.array(z.enum(CARGO_CLASSES)).optional(),
  hazmat: z.enum(HAZMAT_MODES).optional(),
});

/** Every rule's settings, keyed by rule id (all of them: the proxy fills in the defaults). */
const policySettingsSchema = z.record(z.enum(RULE_IDS), ruleSettingsSchema);

/** One numbered version of the policy (version 1, the default, exists without a stored row). */
const policyVersionSchema = z.object({
  version: z.number().int(),
  settings: policySettingsSchema,
  options: z.object({ max_revet_days: z.number().int() }),
  created_by: z.string(),
  /** null for the default version */
  created_at: z.string().nullable(),
  /** one line per changed setting ("New entrant: threshold 540 → 365") */
  changes: z.array(z.string()),
  note: z.string().nullable(),
});
export type PolicyVersion = z.infer<typeof policyVersionSchema>;

/** What the Policy page shows of a rule: its description, defaults and the choices it offers. */
const ruleInfoSchema = z.object({
  id: z.enum(RULE_IDS),
  label: z.string(),
  description: z.string(),
  tab: z.string(),
  defaults: ruleSettingsSchema,
  /** outcomes a team may choose when the rule fires */
  outcomes: z.array(z.enum(HIT_OUTCOMES)),
  threshold: z
    .object({
      label: z.string(),
      unit: z.string(),
      min: z.number(),
      max: z.number(),
      step: z.number(),
    })
    .nullable(),
  /** the choices of a list setting (`cargo_classes`), else null */
  cargo_classes: z.array(z.object({ id: z.enum(CARGO_CLASSES), label: z.string() })).nullable(),
  /** the choices of a one-of setting (`hazmat`), else null */
  hazmat_modes: z.array(z.object({ id: z.enum(HAZMAT_MODES), label: z.string() })).nullable(),
});
export type RuleInfo = z.infer<typeof ruleInfoSchema>;

/** `GET /api/local/policy` and the `201` of `PUT /api/local/policy`: a version and the rules. */
export const currentPolicySchema = policyVersionSchema.extend({ rules: z.array(ruleInfoSchema) });
export type CurrentPolicy = z.infer<typeof currentPolicySchema>;

/** `GET /api/local/policy/versions`: every version, newest first. */
export const policyVersionsSchema = z.object({ items: z.array(policyVersionSchema) });

/** One current decision whose standing or verdict a proposed policy would change. */
const previewEntrySchema = z.object({
  dot_number: z.string(),
  legal_name: z.string().nullable(),
  decision: z.enum(DECISIONS),
  decision_id: z.number().int(),
  standing_before: z.enum(STANDINGS),
  standing_after: z.enum(STANDINGS),
  verdict_before: outcomeSchema,
  verdict_after: outcomeSchema,
  /** the non-pass rule results under the proposed policy */
  reasons: z.array(reasonSchema),
});
export type PreviewEntry = z.infer<typeof previewEntrySchema>;

/** `POST /api/local/policy/preview`: what saving the change would do (nothing stored). */
export const policyPreviewSchema = z.object({
  version_from: z.number().int(),
  would_fail: z.array(previewEntrySchema),
  would_review: z.array(previewEntrySchema),
  would_pass: z.array(previewEntrySchema),
  /** current decisions whose standing and verdict stay as they are (or nothing is held of) */
  unchanged: z.number().int(),
});
export type PolicyPreview = z.infer<typeof policyPreviewSchema>;

// ---------------------------------------------------------------------------------------------
// Decisions: GET /api/local/decisions, …/:id, POST, …/current, …/revet-due

/** `GET /api/local/decisions`: one page of records matching the filters, newest first. */
export const decisionPageSchema = z.object({
  items: z.array(decisionRecordSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

/** A current decision's re-vet date has passed, or falls within 14 days. */
const REVET_DUE = ['overdue', 'soon'] as const;

/**
 * The verdict of a carrier's freshest held data under the current policy (never a billed call):
 * its cached profile (`source: "profile"`), else the record's evidence with the monitoring changes
 * seen since laid over (`"record"`). `reasons` are the non-pass rule results.
 */
const heldVerdictSchema = z.object({
  verdict: outcomeSchema,
  policy_version: z.number().int(),
  reasons: z.array(reasonSchema),
  fetched_at: z.string(),
  evaluated_at: z.string(),
  source: z.enum(['profile', 'record']),
  /** the held profile is marked stale after a reported change (refetched on its next view) */
  stale: z.boolean().optional(),
});
export type HeldVerdict = z.infer<typeof heldVerdictSchema>;

/** A current (newest) decision with its standing now. */
export const currentDecisionSchema = decisionRecordSchema.extend({
  now: heldVerdictSchema.nullable(),
  standing: z.enum(STANDINGS),
  /** a saved policy changed its standing and no newer decision was recorded since */
  needs_revet: z.boolean(),
  /** the record carries an override reason */
  override: z.boolean(),
  revet_due: z.enum(REVET_DUE).nullable(),
});
export type CurrentDecision = z.infer<typeof currentDecisionSchema>;

/**
 * `GET /api/local/decisions/current?dot_numbers=`: the current decisions of the carriers asked
 * that have one.
 */
export const currentDecisionsSchema = z.object({ items: z.array(currentDecisionSchema) });

/** `GET /api/local/decisions/current?all=1`: one page of every current decision, newest first. */
export const currentDecisionPageSchema = currentDecisionsSchema.extend({
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

/** Either answer of `GET /api/local/decisions/current` (the page when `all=1` was asked). */
const currentAnswerSchema = z.union([currentDecisionPageSchema, currentDecisionsSchema]);

/**
 * `GET /api/local/decisions/revet-due`: the current decisions whose re-vet date has passed or
 * falls within `within_days` of `as_of` (the proxy's UTC day), most overdue first.
 */
export const revetDueSchema = z.object({
  as_of: z.string(),
  within_days: z.number().int(),
  overdue: z.number().int(),
  soon: z.number().int(),
  items: z.array(
    z.object({
      id: z.number().int(),
      dot_number: z.string(),
      legal_name: z.string().nullable(),
      decision: z.enum(DECISIONS),
      decided_at: z.string(),
      expires_on: z.string(),
      due: z.enum(REVET_DUE),
    }),
  ),
});
export type RevetDueAnswer = z.infer<typeof revetDueSchema>;

// ---------------------------------------------------------------------------------------------
// The anchored record: GET …/verify, POST …/verify, GET …/public-key, GET …/:id/receipt

/** `GET /api/local/decisions/verify`: the hash chain and (with a key) every signature checked. */
export const chainCheckSchema = z.object({
  ok: z.boolean(),
  count: z.number().int(),
  first_bad_id: z.number().int().optional(),
  /** why the first bad record is bad */
  problem: z.string().optional(),
  /** records whose signature was checked */
  signed: z.number().int().optional(),
  /** records made before signing began (none may follow a signed one) */
  unsigned_before_signing: z.number().int().optional(),
  /** the key the signatures were checked with */
  key_id: z.string().optional(),
  /**
   * records with a tender check attached, and those whose stored check no longer matches the
   * digest the record keeps (changed) or is gone (missing); docs/tender-check.md
   */
  tender_checks: z
    .object({
      attached: z.number().int(),
      problems: z.array(
        z.object({
          decision_id: z.number().int(),
          tender_check_id: z.number().int(),
          problem: z.enum(['missing', 'changed']),
        }),
      ),
    })
    .optional(),
});
export type ChainCheck = z.infer<typeof chainCheckSchema>;

/** One kept receipt or checkpoint checked against the chain now. */
const statementResultSchema = z.object({
  /** its index in the list given */
  index: z.number().int(),
  type: z.string(),
  record_id: z.number().int().optional(),
  ok: z.boolean(),
  problem: z.string().optional(),
});

/** `POST /api/local/decisions/verify`: the chain check, and each statement given checked. */
const verifyAnswerSchema = chainCheckSchema.extend({
  receipts: z.array(statementResultSchema),
  receipts_failed: z.number().int(),
});

/** `GET /api/local/decisions/public-key`: the key records and receipts are signed with. */
const publicKeySchema = z.object({
  algorithm: z.literal('Ed25519'),
  key_id: z.string(),
  /** SPKI PEM */
  public_key: z.string(),
  /** set by DECISION_SIGNING_KEY_FILE, or generated into the data directory */
  source: z.enum(['configured', 'generated']),
});

const HASH = /^[0-9a-f]{64}$/;

/**
 * `GET /api/local/decisions/:id/receipt`: a statement signed by the proxy of the record's id,
 * position and hash and the chain's length and head hash when it was issued.
 */
export const receiptSchema = z.object({
  type: z.literal('decision-receipt'),
  record_id: z.number().int().positive(),
  record_position: z.number().int().positive(),
  record_hash: z.string().regex(HASH),
  chain_length: z.number().int().positive(),
  head_hash: z.string().regex(HASH),
  issued_at: z.string(),
  /** the exact text that was signed (canonical JSON of the fields above and `key_id`) */
  payload: z.string(),
  /** Ed25519 over `payload`, base64 */
  signature: z.string(),
  key_id: z.string(),
});
export type Receipt = z.infer<typeof receiptSchema>;

// ---------------------------------------------------------------------------------------------
// Inputs

/** A note or conditions text, at most this long. */
export const MAX_NOTE_CHARS = 4000;
/** An override reason's length, after trimming. */
export const MAX_OVERRIDE_CHARS = 2000;
/** Records per page of `GET /api/local/decisions`. */
const DECISIONS_PAGE_SIZE = 50;
const MAX_USER_CHARS = 200;
/** Most DOTs one `GET /api/local/decisions/current?dot_numbers=` asks. */
const MAX_CURRENT_DOTS = 500;
/** Most current decisions one page of `?all=1` holds. */
const MAX_CURRENT_PAGE_SIZE = 500;
/** The most statements one verify call checks (each costs a few indexed reads). */
const MAX_RECEIPTS = 1000;

const DOT = /^\d{1,8}$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day YYYY-MM-DD. */
function isDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function normaliseDot(value: string): string {
  return value.replace(/^0+(?=\d)/, '');
}

export const ONE_KEY = 'Give exactly one of dot_number or docket_number';

/** `GET /api/local/verdict`: exactly one of dot_number or docket_number, given once. */
const verdictQuerySchema = z.union(
  [z.strictObject({ dot_number: z.string() }), z.strictObject({ docket_number: z.string() })],
  { error: ONE_KEY },
);

const POLICY_NOTE = `"note" must be text of at most ${MAX_NOTE_CHARS} characters`;

/**
 * `PUT /api/local/policy` and `POST /api/local/policy/preview`: the rules change and options are
 * checked by applySettingsChange and applyOptionsChange (src/lib/vetting/policy.ts), which word
 * their own 400s.
 */
const policyChangeSchema = z.strictObject(
  {
    rules: z.unknown().optional().meta({
      description:
        '{"<rule id>": {"enabled"?, "outcome"?, "no_data"?, "threshold"?, "cargo_required"?, "cargo_refused"?, "hazmat"?}}: the settings to change',
    }),
    options: z.unknown().optional().meta({ description: '{"max_revet_days"?: 1..730}' }),
    note: z
      .string({ error: POLICY_NOTE })
      .max(MAX_NOTE_CHARS, { error: POLICY_NOTE })
      .transform((text) => text.trim() || null)
      .nullish()
      .transform((text) => text ?? null),
  },
  { error: 'The body must be a JSON object' },
);

const DECISION_VALUE = `"decision" must be one of ${DECISIONS.join(', ')}`;
const decisionSchema = z.enum(DECISIONS, { error: DECISION_VALUE });

/** Optional text of at most MAX_NOTE_CHARS, trimmed; empty or absent is null. */
function optionalText(key: 'note' | 'conditions') {
  return z
    .string({ error: `"${key}" must be text` })
    .max(MAX_NOTE_CHARS, {
      error: (found) =>
        `"${key}" is over ${MAX_NOTE_CHARS} characters (${String((found.input as string).length)})`,
    })
    .transform((value) => value.trim() || null)
    .nullish()
    .transform((value) => value ?? null);
}

const DOT_NUMBER = '"dot_number" must be a USDOT number (1 to 8 digits)';
const EXPIRES_ON = '"expires_on" must be a date YYYY-MM-DD';
const SUPERSEDES = '"supersedes" must be the id of an earlier record';
const OVERRIDE_REASON = `"override_reason" must be text of at most ${MAX_OVERRIDE_CHARS} characters`;
const TENDER_CHECK_ID = '"tender_check_id" must be the id of a tender check on this carrier';

/** `POST /api/local/decisions`. */
const decisionBodySchema = z
  .strictObject(
    {
      dot_number: z
        .union([z.string(), z.number().transform(String)], { error: DOT_NUMBER })
        .transform((value) => value.trim())
        .pipe(z.string().regex(DOT, { error: DOT_NUMBER }).transform(normaliseDot)),
      decision: decisionSchema,
      note: optionalText('note'),
      conditions: optionalText('conditions'),
      expires_on: z
        .string({ error: EXPIRES_ON })
        .refine(isDay, { error: EXPIRES_ON })
        .nullish()
        .transform((value) => value ?? null),
      supersedes: z
        .number({ error: SUPERSEDES })
        .refine((value) => Number.isSafeInteger(value) && value > 0, { error: SUPERSEDES })
        .nullish()
        .transform((value) => value ?? null),
      override_reason: z
        .string({ error: OVERRIDE_REASON })
        .transform((value) => value.trim())
        .refine((value) => value.length <= MAX_OVERRIDE_CHARS, {
          error: (found) =>
            `"override_reason" is over ${MAX_OVERRIDE_CHARS} characters (${String((found.input as string).length)})`,
        })
        .transform((value) => value || null)
        .nullish()
        .transform((value) => value ?? null),
      /** a tender check on the carrier, kept in the record (docs/tender-check.md) */
      tender_check_id: z
        .number({ error: TENDER_CHECK_ID })
        .refine((value) => Number.isSafeInteger(value) && value > 0, { error: TENDER_CHECK_ID })
        .nullish()
        .transform((value) => value ?? null),
    },
    { error: 'The body must be a JSON object' },
  )
  .superRefine((body, ctx) => {
    if (body.decision === 'approved_with_conditions' && body.conditions === null) {
      const message = 'An approval with conditions needs its "conditions"';
      ctx.addIssue(inputIssue('missing_conditions', message));
    }
    if (body.override_reason !== null && !body.decision.startsWith('approved')) {
      const message =
        'Only an approval overrides a verdict: "override_reason" goes with approved or approved_with_conditions';
      ctx.addIssue(inputIssue('invalid_override_reason', message));
    }
  });

/** A query filter: trimmed, empty means absent, then checked by `check`. */
function filter<T>(check: z.ZodType<T, string>) {
  return z
    .string()
    .optional()
    .transform((value) => value?.trim() || undefined)
    .pipe(check.optional());
}

function day(key: 'from' | 'to') {
  const message = `"${key}" must be a date YYYY-MM-DD`;
  return filter(z.string().refine(isDay, { error: message }));
}

const PAGE = '"page" must be a whole number from 1';

/** What `GET /api/local/decisions` filters on, as read (`page` from 1, 50 a page). */
export interface DecisionFilter {
  dot_number?: string;
  decision?: Decision;
  user?: string;
  /** YYYY-MM-DD, inclusive, on the decision's UTC day */
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

/** A filter as the query string gives it: documented as text, read by the filters below. */
function filterParam(description: string) {
  return z.unknown().optional().meta({ type: 'string', description });
}

/**
 * `GET /api/local/decisions`: empty filters are ignored. Unknown parameters are reported first, then
 * a filter given twice, then any one filter's problem.
 */
const decisionQuerySchema = z
  .strictObject({
    dot_number: filterParam('the carrier’s USDOT number (digits)'),
    decision: filterParam(`one of ${DECISIONS.join(', ')}`),
    user: filterParam('the id of who recorded it'),
    from: filterParam('YYYY-MM-DD: decided on or after this UTC day'),
    to: filterParam('YYYY-MM-DD: decided on or before this UTC day'),
    page: filterParam('1 or more (50 records a page)'),
  })
  .superRefine((query, ctx) => {
    if (Object.values(query).some(Array.isArray)) {
      ctx.addIssue(inputIssue('repeated_parameter', 'Give each filter once'));
    }
  })
  .pipe(
    z.strictObject({
      dot_number: filter(
        z
          .string()
          .regex(DOT, { error: '"dot_number" must be 1 to 8 digits' })
          .transform(normaliseDot),
      ),
      decision: filter(decisionSchema),
      user: filter(z.string().max(MAX_USER_CHARS, { error: '"user" is too long' })),
      from: day('from'),
      to: day('to'),
      page: filter(
        z
          .string()
          .regex(/^\d{1,6}$/, { error: PAGE })
          .transform(Number)
          .pipe(z.number().min(1, { error: PAGE })),
      ),
    }),
  )
  .transform(({ page, ...filters }): DecisionFilter => {
    const result: DecisionFilter = { page: page ?? 1, pageSize: DECISIONS_PAGE_SIZE };
    for (const [key, value] of Object.entries(filters)) {
      if (value !== undefined) Object.assign(result, { [key]: value });
    }
    return result;
  });

export const CURRENT_DOTS = `"dot_numbers" must be 1 to ${MAX_CURRENT_DOTS} comma-separated USDOT numbers`;
const ALL = `"all" must be 1, with "page" (1 or more), "page_size" (1 to ${MAX_CURRENT_PAGE_SIZE}) and "needs_revet" (1) optional`;

const dotNumbers = z
  .string({ error: CURRENT_DOTS })
  .transform((raw) => raw.split(',').map((dot) => dot.trim()))
  .refine((dots) => dots.length <= MAX_CURRENT_DOTS && dots.every((dot) => DOT.test(dot)), {
    error: CURRENT_DOTS,
  })
  .transform((dots) => dots.map(normaliseDot));

const positive = (max: number) =>
  z
    .string({ error: ALL })
    .regex(/^\d{1,6}$/, { error: ALL })
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, { error: ALL });

/** `GET /api/local/decisions/current`: either `dot_numbers`, or `all=1` with paging. */
const currentQuerySchema = z
  .object({
    dot_numbers: dotNumbers.optional(),
    all: z.literal('1', { error: ALL }).optional(),
    page: positive(1_000_000).optional(),
    page_size: positive(MAX_CURRENT_PAGE_SIZE).optional(),
    needs_revet: z.literal('1', { error: ALL }).optional(),
  })
  .refine((query) => (query.dot_numbers === undefined) !== (query.all === undefined), {
    error: `${CURRENT_DOTS}, or "all=1" (not both)`,
  });

/**
 * `POST /api/local/decisions/verify`: receipts and checkpoints exactly as the proxy gave them (no
 * body reads as `{}`).
 */
const verifyBodySchema = z.preprocess(
  (body) => body ?? {},
  z.strictObject({
    receipts: z.array(z.unknown(), { error: 'receipts must be a list' }).max(MAX_RECEIPTS, {
      error: `At most ${MAX_RECEIPTS} receipts in one call`,
    }),
  }),
);

const idParams = z.object({ id: z.string().meta({ description: 'the record’s id (digits)' }) });

// ---------------------------------------------------------------------------------------------
// The routes

const TAG = 'Vetting';
/** Any route of stored state answers 503 while its database is unreachable. */
const POLICY_CHANGE_ERRORS = errors(
  'invalid_body',
  'unknown_field',
  'invalid_note',
  'invalid_rules',
  'unknown_rule',
  'invalid_rule',
  'invalid_setting',
  'invalid_options',
);

export const verdictRoute = defineRoute({
  method: 'GET',
  path: '/api/local/verdict',
  tag: TAG,
  summary: 'The verdict of the team’s policy on a carrier',
  description:
    'Computed on the proxy’s cached profile (free on a hit; a miss is one billed profile call).',
  query: verdictQuerySchema,
  responses: {
    200: verdictAnswerSchema,
    400: errors('invalid_query'),
    404: errors('not_found'),
    502: errors('upstream_error'),
    503: errors('storage_unavailable', 'upstream_error'),
  },
});

export const policyRoute = defineRoute({
  method: 'GET',
  path: '/api/local/policy',
  tag: TAG,
  summary: 'The current policy with every rule’s description',
  responses: { 200: currentPolicySchema, 503: STORAGE_UNAVAILABLE },
});

export const policyVersionsRoute = defineRoute({
  method: 'GET',
  path: '/api/local/policy/versions',
  tag: TAG,
  summary: 'Every version of the policy, newest first',
  responses: { 200: policyVersionsSchema, 503: STORAGE_UNAVAILABLE },
});

export const policyVersionRoute = defineRoute({
  method: 'GET',
  path: '/api/local/policy/versions/:version',
  tag: TAG,
  summary: 'One version of the policy',
  params: z.object({ version: z.string().meta({ description: 'the version number' }) }),
  responses: { 200: policyVersionSchema, 404: errors('unknown_version'), 503: STORAGE_UNAVAILABLE },
});

export const policyPreviewRoute = defineRoute({
  method: 'POST',
  path: '/api/local/policy/preview',
  tag: TAG,
  summary: 'What saving a policy change would do to the decisions on record',
  description: 'Nothing is stored and nothing billed: judged on held data.',
  body: policyChangeSchema,
  responses: { 200: policyPreviewSchema, 400: POLICY_CHANGE_ERRORS, 503: STORAGE_UNAVAILABLE },
});

export const savePolicyRoute = defineRoute({
  method: 'PUT',
  path: '/api/local/policy',
  tag: TAG,
  summary: 'Save a policy change as a new numbered version',
  description:
    'The decisions whose standing the change moves are flagged "needs re-vet" in the same transaction.',
  body: policyChangeSchema,
  responses: {
    201: currentPolicySchema,
    400: errors(...POLICY_CHANGE_ERRORS.codes, 'no_change'),
    409: errors('policy_changed'),
    503: STORAGE_UNAVAILABLE,
  },
});

export const decisionsRoute = defineRoute({
  method: 'GET',
  path: '/api/local/decisions',
  tag: TAG,
  summary: 'Decision records matching the filters, newest first, 50 a page',
  query: decisionQuerySchema,
  responses: {
    200: decisionPageSchema,
    400: errors(
      'unknown_parameter',
      'repeated_parameter',
      'invalid_dot_number',
      'invalid_decision',
      'invalid_user',
      'invalid_from',
      'invalid_to',
      'invalid_page',
    ),
    503: STORAGE_UNAVAILABLE,
  },
});

export const currentDecisionsRoute = defineRoute({
  method: 'GET',
  path: '/api/local/decisions/current',
  tag: TAG,
  summary: 'The current decision of each carrier asked (or of all), with its standing now',
  description:
    '?dot_numbers=568253,2214589 (at most 500), or ?all=1&page=1&page_size=100 (&needs_revet=1). Never a billed call.',
  query: currentQuerySchema,
  responses: {
    200: currentAnswerSchema,
    400: errors('invalid_dot_numbers', 'invalid_query'),
    503: STORAGE_UNAVAILABLE,
  },
});

export const revetDueRoute = defineRoute({
  method: 'GET',
  path: '/api/local/decisions/revet-due',
  tag: TAG,
  summary: 'Current decisions whose re-vet date has passed or falls within 14 days',
  responses: { 200: revetDueSchema, 503: STORAGE_UNAVAILABLE },
});

export const chainCheckRoute = defineRoute({
  method: 'GET',
  path: '/api/local/decisions/verify',
  tag: TAG,
  summary: 'Check the decision record’s hash chain and every record’s signature',
  responses: { 200: chainCheckSchema, 503: STORAGE_UNAVAILABLE },
});

export const publicKeyRoute = defineRoute({
  method: 'GET',
  path: '/api/local/decisions/public-key',
  tag: TAG,
  summary: 'The public key records and receipts are signed with',
  responses: { 200: publicKeySchema },
});

export const receiptRoute = defineRoute({
  method: 'GET',
  path: '/api/local/decisions/:id/receipt',
  tag: TAG,
  summary: 'A signed receipt for one decision record, issued now',
  params: idParams,
  responses: { 200: receiptSchema, 404: errors('unknown_decision'), 503: STORAGE_UNAVAILABLE },
});

export const verifyReceiptsRoute = defineRoute({
  method: 'POST',
  path: '/api/local/decisions/verify',
  tag: TAG,
  summary: 'Check kept receipts and checkpoints against the chain now',
  body: verifyBodySchema,
  responses: {
    200: verifyAnswerSchema,
    400: errors('invalid_receipts', 'unknown_field'),
    503: STORAGE_UNAVAILABLE,
  },
});

export const decisionRoute = defineRoute({
  method: 'GET',
  path: '/api/local/decisions/:id',
  tag: TAG,
  summary: 'One decision record',
  params: idParams,
  responses: {
    200: decisionRecordSchema,
    404: errors('unknown_decision'),
    503: STORAGE_UNAVAILABLE,
  },
});

export const recordDecisionRoute = defineRoute({
  method: 'POST',
  path: '/api/local/decisions',
  tag: TAG,
  summary: 'Record a decision on a carrier whose profile was viewed',
  description:
    'Kept with the verdict and the evidence seen, chained to the record before and signed.',
  body: decisionBodySchema,
  responses: {
    201: decisionRecordSchema,
    400: errors(
      'invalid_body',
      'unknown_field',
      'invalid_dot_number',
      'invalid_decision',
      'invalid_note',
      'invalid_conditions',
      'invalid_expires_on',
      'invalid_supersedes',
      'invalid_override_reason',
      'missing_conditions',
      'invalid_tender_check_id',
      'invalid_tender_check',
    ),
    404: errors('profile_not_fetched', 'unknown_dot'),
    409: errors('override_reason_required'),
    502: errors('upstream_error'),
    503: STORAGE_UNAVAILABLE,
  },
});

/** Every vetting route's contract, in the order the proxy registers them. */
export const VETTING_CONTRACTS = [
  verdictRoute,
  policyRoute,
  policyVersionsRoute,
  policyVersionRoute,
  savePolicyRoute,
  policyPreviewRoute,
  recordDecisionRoute,
  decisionsRoute,
  revetDueRoute,
  publicKeyRoute,
  receiptRoute,
  verifyReceiptsRoute,
  chainCheckRoute,
  currentDecisionsRoute,
  decisionRoute,
] as const;
