/**
 * Validation of the vetting routes' input, with zod (http/parse-input.ts): every problem is a 400
 * `{error, code, hint}` naming the first one.
 */
import { z } from 'zod';
import { issue, parseInput, type InputWording, type Parsed } from '../http/parse-input.ts';
import { DECISIONS, type Decision, type DecisionFilter } from './store.ts';

export const MAX_NOTE_CHARS = 4000;
/** An override reason's length, after trimming. */
export const MAX_OVERRIDE_CHARS = 2000;
const DECISIONS_PAGE_SIZE = 50;
const MAX_USER_CHARS = 200;
const DOT = /^\d{1,8}$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export type Checked<T> = Parsed<T>;

const DECISION_HINT = `Send {"dot_number": "568253", "decision": one of ${DECISIONS.join(', ')}, "note"?: text of at most ${MAX_NOTE_CHARS} characters, "conditions"?: text (required for approved_with_conditions), "expires_on"?: "YYYY-MM-DD" (today up to the policy's max_revet_days ahead), "supersedes"?: the id of the record it corrects, "override_reason"?: why a Fail or Review carrier is approved anyway (required then; at most ${MAX_OVERRIDE_CHARS} characters)}.`;
const LIST_HINT = `Filters: dot_number (digits), decision (${DECISIONS.join(', ')}), user, from and to (YYYY-MM-DD), page (1 or more).`;

/** A real calendar day YYYY-MM-DD. */
function isDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function normaliseDot(value: string): string {
  return value.replace(/^0+(?=\d)/, '');
}

const DECISION_VALUE = `"decision" must be one of ${DECISIONS.join(', ')}`;
const decisionSchema = z.enum(DECISIONS, { error: DECISION_VALUE });

export interface DecisionInput {
  dot_number: string;
  decision: Decision;
  note: string | null;
  conditions: string | null;
  expires_on: string | null;
  supersedes: number | null;
  /** trimmed; null when absent or empty */
  override_reason: string | null;
}

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
    },
    { error: 'The body must be a JSON object' },
  )
  .superRefine((body, ctx) => {
    if (body.decision === 'approved_with_conditions' && body.conditions === null) {
      const message = 'An approval with conditions needs its "conditions"';
      ctx.addIssue(issue('missing_conditions', message));
    }
    if (body.override_reason !== null && !body.decision.startsWith('approved')) {
      const message =
        'Only an approval overrides a verdict: "override_reason" goes with approved or approved_with_conditions';
      ctx.addIssue(issue('invalid_override_reason', message));
    }
  });

const DECISION_WORDING: InputWording = {
  hint: DECISION_HINT,
  unknown: { code: 'unknown_field', message: (key) => `Unknown member "${key}"` },
};

/** `POST /api/local/decisions` body. */
export function parseDecisionBody(body: unknown): Checked<DecisionInput> {
  return parseInput(decisionBodySchema, body, DECISION_WORDING);
}

const LIST_KEYS = new Set(['dot_number', 'decision', 'user', 'from', 'to', 'page']);

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

const decisionQuerySchema = z
  .record(z.string(), z.unknown())
  .superRefine((query, ctx) => {
    // Reported after unknown parameters (the object below), before any one filter's problem.
    const known = Object.keys(query).every((key) => LIST_KEYS.has(key));
    if (known && Object.values(query).some(Array.isArray)) {
      ctx.addIssue(issue('repeated_parameter', 'Give each filter once'));
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

const QUERY_WORDING: InputWording = {
  hint: LIST_HINT,
  unknown: { code: 'unknown_parameter', message: (key) => `Unknown parameter "${key}"` },
};

/** `GET /api/local/decisions` query; empty filters are ignored. */
export function parseDecisionQuery(query: unknown): Checked<DecisionFilter> {
  return parseInput(decisionQuerySchema, query ?? {}, QUERY_WORDING);
}
