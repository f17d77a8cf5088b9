/**
 * The bulk-vetting routes' contract (docs/bulk-vetting.md): the bodies and queries the proxy reads
 * (their messages are the 400s it sends) and the shapes it answers, as zod schemas both the proxy
 * and the dashboard import, so neither side can drift from the other. Runtime-neutral (zod only).
 */
import { z } from 'zod';
import { defineRoute, errors, STORAGE_UNAVAILABLE } from '../api/route-contract.ts';

/** Most identifiers one job takes; more is a 400 naming the limit. */
export const MAX_JOB_IDENTIFIERS = 5_000;
/** Items per page of `GET /api/local/bulk-jobs/:id` by default, and at most. */
export const DEFAULT_ITEMS_LIMIT = 500;
export const MAX_ITEMS_LIMIT = 5_000;

const JOB_STATUSES = ['queued', 'running', 'paused', 'done', 'cancelled', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const ITEM_STATUSES = ['pending', 'done', 'failed', 'cancelled'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** What positions count: lines of pasted text, or rows of an uploaded CSV/XLSX file. */
export const NUMBERINGS = ['line', 'row'] as const;

/** Entries one request may hold (valid or not): a file's rows besides the 5,000 carriers. */
const MAX_LIST_ENTRIES = 20_000;

// ---- requests -------------------------------------------------------------------------------

const thousands = (n: number) => n.toLocaleString('en-US');

/** The hint of a 400 about the body of `POST /api/local/bulk-jobs`. */
export const CREATE_HINT = `Send {"identifiers": ["568253", "MC277621", ...], "rows"?: [2, 5, ...], "numbering"?: "line" | "row", "dry_run"?: true}: at most ${thousands(MAX_JOB_IDENTIFIERS)} USDOT numbers or MC/MX/FF dockets (and ${thousands(MAX_LIST_ENTRIES)} entries in all), each entry's line or row in "rows".`;
/** The hint of a 400 `too_many_identifiers`. */
export const TOO_MANY_HINT = `A job takes at most ${thousands(MAX_JOB_IDENTIFIERS)} identifiers (MAX_JOB_IDENTIFIERS); split the list into several jobs.`;

/** A problem with its own code and hint (read by the proxy's parse-input.ts). */
function codedIssue(code: string, message: string, hint: string) {
  return { code: 'custom' as const, message, params: { code, hint } };
}

/**
 * The body of `POST /api/local/bulk-jobs`: every entry of the list (those left out too, so the job
 * keeps them with their reason), each entry's line or row, and `dry_run` for the estimate only.
 */
const createJobInputSchema = z
  .strictObject(
    {
      identifiers: z
        .array(z.string({ error: '"identifiers" must hold text entries' }), {
          error: '"identifiers" must be an array of USDOT numbers or dockets',
        })
        .superRefine((list, ctx) => {
          if (list.length > MAX_LIST_ENTRIES) {
            ctx.addIssue(
              codedIssue(
                'too_many_identifiers',
                `${list.length} entries given; a request takes at most ${MAX_LIST_ENTRIES}`,
                TOO_MANY_HINT,
              ),
            );
          }
        }),
      /** the line (pasted text) or row (uploaded file) of each entry, in the same order */
      rows: z
        .array(z.number().int().min(1).max(10_000_000), {
          error: '"rows" must be an array of whole numbers ≥ 1, one per identifier',
        })
        .optional(),
      numbering: z
        .enum(NUMBERINGS, { error: `"numbering" must be one of ${NUMBERINGS.join(', ')}` })
        .optional(),
      dry_run: z.boolean({ error: '"dry_run" must be true or false' }).optional(),
    },
    { error: 'The body must be a JSON object' },
  )
  .superRefine((body, ctx) => {
    if (body.rows !== undefined && body.rows.length !== body.identifiers.length) {
      ctx.addIssue(
        codedIssue(
          'invalid_rows',
          `"rows" holds ${body.rows.length} numbers for ${body.identifiers.length} identifiers`,
          CREATE_HINT,
        ),
      );
    }
  });
export type CreateJobInput = z.input<typeof createJobInputSchema>;

const LIMIT_TEXT = `"limit" must be a whole number from 1 to ${MAX_ITEMS_LIMIT}`;
const wholeNumber = (error: string, min: number, max: number) =>
  z
    .string({ error })
    .regex(/^\d{1,9}$/, { error })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error });

/** The query of `GET /api/local/bulk-jobs/:id`: a page of its items, of one status or all. */
const jobPageQuerySchema = z.strictObject({
  offset: wholeNumber('"offset" must be a whole number ≥ 0', 0, 1_000_000_000).optional(),
  limit: wholeNumber(LIMIT_TEXT, 1, MAX_ITEMS_LIMIT).optional(),
  status: z
    .enum(ITEM_STATUSES, { error: `"status" must be one of ${ITEM_STATUSES.join(', ')}` })
    .optional(),
});

/** The hint of a 400 about that query. */
export const PAGE_HINT = `GET /api/local/bulk-jobs/<id>?offset=0&limit=${DEFAULT_ITEMS_LIMIT}&status=failed (limit ≤ ${MAX_ITEMS_LIMIT})`;

// ---- answers --------------------------------------------------------------------------------

const rejectedIdentifierSchema = z.object({
  input: z.string(),
  /** the line (pasted text) or row (uploaded file) the entry stands on */
  position: z.number(),
  reason: z.enum(['invalid', 'too_long', 'duplicate']),
  message: z.string(),
});

/** What a run would cost and take, before anything is sent. */
export const bulkEstimateSchema = z.object({
  /** distinct valid identifiers: what would run */
  carriers: z.number(),
  /** invalid and duplicate entries, with why, in list order: kept with the job */
  rejected: z.array(rejectedIdentifierSchema),
  /** what the positions count (absent: lines, as before the list was numbered by its source) */
  numbering: z.enum(NUMBERINGS).optional(),
  /** carriers whose profile was already fetched this month (or is cached): free */
  already_fetched: z.number(),
  /** new billable profile calls at most (a docket's DOT is unknown before the call) */
  billable: z.number(),
  /** the published price of one profile call (also shown when nothing is billed) */
  unit_price_usd: z.number(),
  /** what this run adds to the month's spend: 0 when the upstream does not bill (sandbox) */
  cost_usd: z.number(),
  /**
   * what the proxy's spend meter counts against MONTHLY_BUDGET_USD: the published price in every
   * mode (the sandbox and test keys are metered as the live service would bill), so a sandbox run
   * can be refused by a budget while `cost_usd` is 0
   */
  metered_cost_usd: z.number().optional(),
  /** false in sandbox/test mode: nothing is billed whatever the price */
  billed: z.boolean(),
  /** profile calls a minute the key allows (null: no limit) */
  rate_per_minute: z.number().nullable(),
  /** expected duration at the current limits, in seconds */
  duration_seconds: z.number(),
  /** the monthly budget (null: none set), spent so far, and what is left */
  budget_usd: z.number().nullable(),
  spent_usd: z.number(),
  left_usd: z.number().nullable(),
  within_budget: z.boolean(),
});
export type BulkEstimate = z.infer<typeof bulkEstimateSchema>;

/** The status fields of one vetted carrier, as the results table shows them. */
const itemResultSchema = z.object({
  name: z.string().nullable(),
  verdict: z.enum(['pass', 'review', 'fail']),
  /** the policy version the verdict was computed under */
  policy_version: z.number(),
  /** non-pass reasons, worst first, in plain language */
  reasons: z.array(z.string()),
  usdot_status: z.string().nullable(),
  authority: z.string().nullable(),
  insurance: z.string().nullable(),
  safety_rating: z.string().nullable(),
  basic_alerts: z.array(z.string()),
  out_of_service: z.boolean().nullable(),
  /** linked carriers the profile says are revoked, inactive or out of service */
  linked_warnings: z.number(),
  snapshot_date: z.string().nullable(),
});
export type ItemResult = z.infer<typeof itemResultSchema>;

const bulkItemSchema = z.object({
  /** 1-based position among the job's identifiers (its order; unique within the job) */
  position: z.number(),
  /** the line (pasted text) or row (uploaded file) of the identifier; `estimate.numbering` says which */
  row: z.number().optional(),
  identifier: z.string(),
  /**
   * every input naming this carrier, with its line or row, when it was given more than once (a DOT
   * and its docket): resolved and vetted once, listed once
   */
  inputs: z.array(z.object({ identifier: z.string(), row: z.number() })).optional(),
  dot_number: z.string().optional(),
  status: z.enum(ITEM_STATUSES),
  verdict: z.enum(['pass', 'review', 'fail']).optional(),
  result: itemResultSchema.optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** where the profile came from: the proxy cache, a stored result of this month, or a call */
  source: z.enum(['cache', 'stored', 'upstream']).optional(),
  attempts: z.number(),
  finished_at: z.string().optional(),
});
export type BulkItem = z.infer<typeof bulkItemSchema>;

export const bulkJobSchema = z.object({
  id: z.string(),
  status: z.enum(JOB_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
  created_by: z.string(),
  total: z.number(),
  done: z.number(),
  failed: z.number(),
  /** inputs folded into another item's carrier (a docket naming a DOT also listed): not listed */
  merged: z.number(),
  /** carriers finished a minute over the last minutes of running (null before the first) */
  rate_per_minute: z.number().nullable(),
  /** seconds left at the current rate and limits (null when not running) */
  eta_seconds: z.number().nullable(),
  estimate: bulkEstimateSchema,
  /** why a paused (or failed) job stopped when the runner stopped it: budget, outage (else null) */
  pause_reason: z.object({ code: z.string(), message: z.string() }).nullable(),
  items: z.array(bulkItemSchema),
  /** the page of items this answer holds */
  offset: z.number(),
  limit: z.number(),
});
export type BulkJob = z.infer<typeof bulkJobSchema>;

/**
 * A job without its items: each job of `GET /api/local/bulk-jobs`, and the answer of
 * `POST /api/local/bulk-jobs/:id/{pause,resume,cancel,retry-failed}` (the job as the action left it).
 */
export const bulkJobSummarySchema = bulkJobSchema.omit({ items: true, offset: true, limit: true });
export type BulkJobSummary = z.infer<typeof bulkJobSummarySchema>;

/** `GET /api/local/bulk-jobs`: the jobs, newest first, without their items. */
export const bulkJobListSchema = z.object({ jobs: z.array(bulkJobSummarySchema) });

/** `POST /api/local/bulk-jobs` answers: the estimate (dry run) or the queued job. */
export const dryRunAnswerSchema = z.object({ estimate: bulkEstimateSchema });
export const createdAnswerSchema = z.object({ id: z.string(), estimate: bulkEstimateSchema });

// ---- routes ---------------------------------------------------------------------------------

const TAG = 'Bulk vetting';
const jobParams = z.object({ id: z.string().meta({ description: 'the job’s id' }) });

export const createJobRoute = defineRoute({
  method: 'POST',
  path: '/api/local/bulk-jobs',
  tag: TAG,
  summary: 'Estimate a bulk vetting run (dry_run) or queue it as a job',
  description:
    'A dry run answers 200 with the estimate and looks nothing up; a run answers 202 with the job’s id, or 402 when it would cross the monthly budget.',
  body: createJobInputSchema,
  responses: {
    200: dryRunAnswerSchema,
    202: createdAnswerSchema,
    400: errors(
      'invalid_body',
      'unknown_field',
      'invalid_identifiers',
      'too_many_identifiers',
      'invalid_rows',
      'invalid_numbering',
      'invalid_dry_run',
      'no_valid_identifiers',
    ),
    402: errors('budget_exceeded'),
    503: STORAGE_UNAVAILABLE,
  },
});

export const listJobsRoute = defineRoute({
  method: 'GET',
  path: '/api/local/bulk-jobs',
  tag: TAG,
  summary: 'The bulk jobs, newest first, without their items',
  responses: { 200: bulkJobListSchema, 503: STORAGE_UNAVAILABLE },
});

export const getJobRoute = defineRoute({
  method: 'GET',
  path: '/api/local/bulk-jobs/:id',
  tag: TAG,
  summary: 'A bulk job with a page of its items',
  params: jobParams,
  query: jobPageQuerySchema,
  responses: {
    200: bulkJobSchema,
    400: errors('unknown_parameter', 'invalid_offset', 'invalid_limit', 'invalid_status'),
    404: errors('unknown_job'),
    503: STORAGE_UNAVAILABLE,
  },
});

/** What a job's owner (or an admin) may do to it. */
export const JOB_ACTIONS = ['pause', 'resume', 'cancel', 'retry-failed'] as const;
export type JobAction = (typeof JOB_ACTIONS)[number];

function jobActionRoute<const A extends JobAction>(action: A, summary: string) {
  return defineRoute({
    method: 'POST',
    path: `/api/local/bulk-jobs/:id/${action}`,
    tag: TAG,
    summary,
    description: 'The owner’s job, or any job for an admin. Answers the job as the action left it.',
    params: jobParams,
    responses: {
      200: bulkJobSummarySchema,
      403: errors('forbidden_role'),
      404: errors('unknown_job'),
      409: errors('invalid_transition', 'nothing_to_retry'),
      503: STORAGE_UNAVAILABLE,
    },
  });
}

export const pauseJobRoute = jobActionRoute('pause', 'Pause a bulk job after the carrier in hand');
export const resumeJobRoute = jobActionRoute('resume', 'Resume a paused bulk job');
export const cancelJobRoute = jobActionRoute(
  'cancel',
  'Cancel a bulk job: the carriers left are not looked up',
);
export const retryFailedJobRoute = jobActionRoute(
  'retry-failed',
  'Queue the failed carriers of a job again',
);

/** Each action's route, by action. */
export const JOB_ACTION_ROUTES = {
  pause: pauseJobRoute,
  resume: resumeJobRoute,
  cancel: cancelJobRoute,
  'retry-failed': retryFailedJobRoute,
} as const;
