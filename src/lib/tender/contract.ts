/**
 * The tender check's contract (issue 33, docs/tender-check.md): the body of
 * `POST /api/local/tender-checks`, its answer, and the stored check as `GET /api/local/tender-checks`
 * lists it, as zod schemas the proxy and the dashboard both import. Runtime-neutral (zod only).
 *
 * How the answer is combined from the reasons (one rule, `answerOf` below):
 * - `do_not_tender` when any reason fails;
 * - `call_back` when any reason needs review, or a check was left pending (its cost not confirmed);
 * - `go` when every reason passes and nothing is pending.
 */
import { z } from 'zod';
import { defineRoute, errors } from '../api/route-contract.ts';
import { CARGO_CLASSES } from '../service/fields.ts';

/** The three answers, best first. */
const TENDER_ANSWERS = ['go', 'call_back', 'do_not_tender'] as const;
export type TenderAnswer = (typeof TENDER_ANSWERS)[number];

export const TENDER_ANSWER_LABELS: Record<TenderAnswer, string> = {
  go: 'Go',
  call_back: 'Call back first',
  do_not_tender: 'Do not tender',
};

const TENDER_OUTCOMES = ['pass', 'review', 'fail'] as const;
export type TenderOutcome = (typeof TENDER_OUTCOMES)[number];

/**
 * Equipment the load needs, as the profile can show it: the trailer body types of the carrier's
 * inspected units (`equipment_summary`, `equipment_history[].trailer_body_type`) and, for a reefer,
 * its `refrigerated_foods` cargo class.
 */
export const TENDER_EQUIPMENT = ['dry_van', 'reefer', 'flatbed', 'tanker', 'car_hauler'] as const;
export type TenderEquipment = (typeof TENDER_EQUIPMENT)[number];

export const TENDER_EQUIPMENT_LABELS: Record<TenderEquipment, string> = {
  dry_van: 'Dry van',
  reefer: 'Reefer',
  flatbed: 'Flatbed',
  tanker: 'Tanker',
  car_hauler: 'Car hauler',
};

/** US states, DC and Canadian provinces/territories: a load's origin and destination. */
export const STATE_CODES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA',
  'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM',
  'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA',
  'WV', 'WI', 'WY', 'PR',
  'AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT',
] as const; // prettier-ignore

/**
 * Every rule a tender check reports, in the order the answer lists them.
 * Identity: `phone_match`, `email_match` (exact, same domain, or not at all), `free_mail` (a
 * free-mail address while the carrier registers a company domain), `lookalike_domain` (a domain
 * one or two edits from the registered one, or the same name under another top-level domain),
 * `phone_other_carriers` and `email_other_carriers` (registered to other DOTs now or in the past,
 * from the service's search by phone and by e-mail/domain), `contact_changed` (the carrier's own
 * phone or e-mail changed within the team policy's `contact_changes` window, its threshold in days,
 * 30 by default).
 * Load fit: `cargo_class`, `cargo_insurance`, `liability_insurance`, `hazmat`, `equipment`,
 * `fleet`. Carrier: `verdict` (the team policy's verdict with the current decision standing).
 */
const TENDER_RULES = [
  'phone_match',
  'email_match',
  'free_mail',
  'lookalike_domain',
  'phone_other_carriers',
  'email_other_carriers',
  'contact_changed',
  'cargo_class',
  'cargo_insurance',
  'liability_insurance',
  'hazmat',
  'equipment',
  'fleet',
  'verdict',
] as const;
export type TenderRule = (typeof TENDER_RULES)[number];

/** Which part of the answer a rule belongs to. */
export const TENDER_RULE_GROUP: Record<TenderRule, 'identity' | 'load_fit' | 'verdict'> = {
  phone_match: 'identity',
  email_match: 'identity',
  free_mail: 'identity',
  lookalike_domain: 'identity',
  phone_other_carriers: 'identity',
  email_other_carriers: 'identity',
  contact_changed: 'identity',
  cargo_class: 'load_fit',
  cargo_insurance: 'load_fit',
  liability_insurance: 'load_fit',
  hazmat: 'load_fit',
  equipment: 'load_fit',
  fleet: 'load_fit',
  verdict: 'verdict',
};

/** Most a check may allow itself to spend (a guard against a typo such as 3000 for 3.00). */
const MAX_TENDER_COST_USD = 100;

const DOT = /^\d{1,8}$/;
const DOCKET = /^(MC|MX|FF)?-?\d{1,8}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
// A pragmatic address check: one @, no spaces, a dot in the domain.
const EMAIL =
  /^[^\s@]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/** A North American phone number as 10 digits (a leading +1 or 1 dropped), or undefined. */
export function normalisePhone(raw: string): string | undefined {
  if (!/^[\d\s().+-]{7,25}$/.test(raw.trim())) return undefined;
  const digits = raw.replace(/\D/g, '');
  const ten = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return /^[2-9]\d{2}[2-9]\d{6}$/.test(ten) ? ten : undefined;
}

const stateSchema = z
  .string({ error: 'A state must be a two-letter code such as TX or ON' })
  .transform((value) => value.trim().toUpperCase())
  .refine((value) => (STATE_CODES as readonly string[]).includes(value), {
    error: 'A state must be a two-letter US state or Canadian province code such as TX or ON',
  });

const loadSchema = z.strictObject(
  {
    /** USD; compared with the carrier's cargo insurance on file */
    cargo_value: z
      .number({ error: '"load.cargo_value" must be a number of USD' })
      .nonnegative({ error: '"load.cargo_value" must not be negative' })
      .max(1_000_000_000, { error: '"load.cargo_value" is too large' })
      .optional(),
    /** the profile's cargo classes (MCS-150) the load falls under */
    cargo_classes: z
      .array(z.enum(CARGO_CLASSES, { error: 'Unknown cargo class' }), {
        error: '"load.cargo_classes" must be an array of cargo classes',
      })
      .max(CARGO_CLASSES.length)
      .optional(),
    hazmat: z.boolean({ error: '"load.hazmat" must be true or false' }).optional(),
    equipment: z
      .enum(TENDER_EQUIPMENT, {
        error: `"load.equipment" must be one of ${TENDER_EQUIPMENT.join(', ')}`,
      })
      .optional(),
    /** YYYY-MM-DD */
    pickup_date: z
      .string({ error: '"load.pickup_date" must be a date YYYY-MM-DD' })
      .regex(DAY, { error: '"load.pickup_date" must be a date YYYY-MM-DD' })
      .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), {
        error: '"load.pickup_date" is not a calendar date',
      })
      .optional(),
    origin_state: stateSchema.optional(),
    destination_state: stateSchema.optional(),
  },
  { error: '"load" must be an object' },
);

/**
 * The body of `POST /api/local/tender-checks`: the carrier as claimed (exactly one of `dot_number`
 * and `docket_number`), how the offer came (`phone` and/or `email`; without either, identity is
 * not checked and the answer is at best Call back first), the load, and what the check may spend
 * on billed searches (`max_cost_usd`, default 0: only what is held or free).
 * Parsed values: `phone` as 10 digits, `email` lower-cased, `docket_number` as `MC123456`.
 */
export const tenderCheckRequestSchema = z
  .strictObject(
    {
      dot_number: z
        .string({ error: '"dot_number" must be a USDOT number (digits)' })
        .transform((v) => v.trim().replace(/^0+(?=\d)/, ''))
        .refine((v) => DOT.test(v) && v !== '0', {
          error: '"dot_number" must be a USDOT number (1 to 8 digits)',
        })
        .optional(),
      docket_number: z
        .string({ error: '"docket_number" must be an MC/MX/FF docket such as MC277621' })
        .transform((v) => v.trim().toUpperCase().replace('-', ''))
        .refine((v) => DOCKET.test(v), {
          error: '"docket_number" must be an MC/MX/FF docket such as MC277621',
        })
        .transform((v) => (/^\d/.test(v) ? `MC${v}` : v))
        .optional(),
      phone: z
        .string({ error: '"phone" must be a phone number' })
        .transform((v, ctx) => {
          const phone = normalisePhone(v);
          if (phone === undefined) {
            ctx.addIssue({
              code: 'custom',
              message: '"phone" must be a 10-digit US or Canadian phone number',
            });
            return z.NEVER;
          }
          return phone;
        })
        .optional(),
      email: z
        .string({ error: '"email" must be an e-mail address' })
        .transform((v) => v.trim().toLowerCase())
        .refine((v) => v.length <= 254 && EMAIL.test(v), {
          error: '"email" must be an e-mail address such as dispatch@example.com',
        })
        .optional(),
      contact_name: z
        .string({ error: '"contact_name" must be text' })
        .transform((v) => v.trim())
        .refine(
          (v) =>
            v.length <= 120 && ![...v].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127),
          {
            error: '"contact_name" must be at most 120 characters, without control characters',
          },
        )
        .optional(),
      load: loadSchema.optional(),
      max_cost_usd: z
        .number({ error: '"max_cost_usd" must be a number of USD' })
        .nonnegative({ error: '"max_cost_usd" must not be negative' })
        .max(MAX_TENDER_COST_USD, {
          error: `"max_cost_usd" must be at most ${MAX_TENDER_COST_USD}`,
        })
        .default(0),
    },
    { error: 'The body must be a JSON object' },
  )
  .superRefine((body, ctx) => {
    if (body.dot_number === undefined && body.docket_number === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'Name the carrier as claimed: "dot_number" or "docket_number"',
        params: { code: 'missing_carrier' },
      });
    } else if (body.dot_number !== undefined && body.docket_number !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'Send "dot_number" or "docket_number", not both',
        params: { code: 'ambiguous_carrier' },
      });
    }
  });
/** What a client sends (before defaults and normalising). */
export type TenderCheckInput = z.input<typeof tenderCheckRequestSchema>;
/** The body as the proxy reads it. */
export type TenderCheckRequest = z.output<typeof tenderCheckRequestSchema>;

/** The endpoints a tender check reads; `held`: answered from what the proxy holds. */
const SOURCES = ['profile', 'profile-lite', 'policy', 'decisions', 'input'] as const;

/**
 * One value a reason rests on: the field (a profile field path such as `contact_history[2].value`,
 * or `input.phone`), its value, which endpoint (or the policy, the decision record, the offer)
 * said so, the date of that data (the profile's snapshot date, a search's fetch day, a decision's
 * day), and where the app shows it (`/carriers/<dot>/<tab>#<anchor>`, `/decisions/<id>`), if
 * anywhere.
 */
const tenderEvidenceSchema = z.object({
  field: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  source: z.enum(SOURCES),
  date: z.string().nullable(),
  link: z.string().nullable(),
});
export type TenderEvidence = z.infer<typeof tenderEvidenceSchema>;

const tenderReasonSchema = z.object({
  rule: z.enum(TENDER_RULES),
  outcome: z.enum(TENDER_OUTCOMES),
  /** what the rule saw and what to do, in plain language */
  text: z.string(),
  evidence: z.array(tenderEvidenceSchema),
});
export type TenderReason = z.infer<typeof tenderReasonSchema>;

/** A search the check ran (or would run), by phone or by e-mail/domain. */
const SEARCH_CHECKS = ['carrier_profile', 'phone_search', 'email_search'] as const;
export type TenderSearchCheck = (typeof SEARCH_CHECKS)[number];

export const TENDER_CHECK_LABELS: Record<TenderSearchCheck, string> = {
  carrier_profile: "The claimed carrier's profile",
  phone_search: 'Search the service by phone',
  email_search: 'Search the service by e-mail',
};

/**
 * How a check's data was had: `held` (the proxy's cache), `free` (a repeat of a call billed this
 * month), `billed` (a new billed call within `max_cost_usd`), `pending` (not run: its cost was not
 * allowed), `failed` (the service refused or is down), `skipped` (nothing to search for).
 */
const SEARCH_STATUSES = ['held', 'free', 'billed', 'pending', 'failed', 'skipped'] as const;
export type TenderSearchStatus = (typeof SEARCH_STATUSES)[number];

/** A carrier a search found: now (its current contact matches) or in the past. */
const foundCarrierSchema = z.object({
  dot_number: z.string(),
  legal_name: z.string().nullable(),
  usdot_status: z.string().nullable(),
  /** its current phone/e-mail matches (else: only a past one, from the service's history) */
  now: z.boolean(),
});

const tenderSearchSchema = z.object({
  check: z.enum(SEARCH_CHECKS),
  endpoint: z.enum(['profile', 'profile-lite']),
  /** the search key and value sent (`dot_number`, `docket_number`, `phone`, `email`) */
  key: z.string(),
  value: z.string(),
  status: z.enum(SEARCH_STATUSES),
  /** what it added to the month's metered spend (published prices, every mode) */
  cost_usd: z.number(),
  fetched_at: z.string().nullable(),
  /** carriers found other than the claimed one (searches by phone and e-mail) */
  found: z.array(foundCarrierSchema),
  /** the service's total for the search (more than `found` holds when it pages) */
  total_count: z.number().nullable(),
});
export type TenderSearch = z.infer<typeof tenderSearchSchema>;

/** A check not run because its cost exceeds `max_cost_usd`: run it by sending that much. */
const tenderPendingSchema = z.object({
  check: z.enum(SEARCH_CHECKS),
  /** most it may cost at the published price (a search bills each new carrier it finds) */
  cost_usd: z.number(),
  endpoint: z.enum(['profile', 'profile-lite']),
  unit_price_usd: z.number(),
  /** carriers it may bill at most (a search's page size) */
  max_units: z.number(),
});
export type TenderPending = z.infer<typeof tenderPendingSchema>;

const tenderIdentitySchema = z.object({
  outcome: z.enum(TENDER_OUTCOMES),
  /** the claimed carrier's registered contact (null: its profile was not read) */
  registered: z
    .object({
      phone: z.string().nullable(),
      email: z.string().nullable(),
      email_domain: z.string().nullable(),
      contact_name: z.string().nullable(),
      phone_last_changed: z.string().nullable(),
      email_last_changed: z.string().nullable(),
    })
    .nullable(),
  /** "Call back on the registered number (…) before tendering", when identity is in doubt */
  call_back: z.string().nullable(),
  searches: z.array(tenderSearchSchema),
});

const tenderLoadFitSchema = z.object({
  outcome: z.enum(TENDER_OUTCOMES),
  /** false when no load was described (only the carrier's own insurance is checked) */
  load_given: z.boolean(),
});

const STANDINGS = ['holds', 'now_fails', 'now_review', 'now_passes', 'unknown'] as const;

const tenderVerdictSchema = z.object({
  /** the team policy's verdict of the profile read (null: the profile was not read) */
  verdict: z.enum(TENDER_OUTCOMES).nullable(),
  policy_version: z.number().nullable(),
  /** the policy's non-pass rule results, as the profile's verdict lists them */
  reasons: z.array(
    z.object({ rule: z.string(), outcome: z.enum(TENDER_OUTCOMES), message: z.string() }),
  ),
  /** the carrier's current decision record and how it stands now (null: none recorded) */
  decision: z
    .object({
      id: z.number(),
      decision: z.enum(['approved', 'approved_with_conditions', 'rejected', 'do_not_use']),
      decided_at: z.string(),
      standing: z.enum(STANDINGS),
      expires_on: z.string().nullable(),
    })
    .nullable(),
});
export type TenderVerdict = z.infer<typeof tenderVerdictSchema>;

/** The carrier the check is about, as its profile names it. */
const tenderCarrierSchema = z.object({
  dot_number: z.string(),
  legal_name: z.string().nullable(),
  docket: z.string().nullable(),
});

/** The answer of `POST /api/local/tender-checks` and of `GET /api/local/tender-checks/:id`. */
export const tenderCheckAnswerSchema = z.object({
  id: z.number(),
  answer: z.enum(TENDER_ANSWERS),
  reasons: z.array(tenderReasonSchema),
  identity: tenderIdentitySchema,
  load_fit: tenderLoadFitSchema,
  verdict: tenderVerdictSchema,
  pending: z.array(tenderPendingSchema),
  /** what this check added to the month's metered spend (published prices, every mode) */
  cost_usd: z.number(),
  /** null when the carrier's profile was not read (pending or not found) */
  carrier: tenderCarrierSchema.nullable(),
  /** the profile's snapshot date (the data's date), when read */
  snapshot_date: z.string().nullable(),
  checked_at: z.string(),
  user: z.object({ id: z.string(), name: z.string() }),
  /**
   * the inputs as stored; `phone`, `email` and `contact_name` are null once the retention setting
   * has blanked them (`redacted: true`)
   */
  input: z.object({
    dot_number: z.string().nullable(),
    docket_number: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    contact_name: z.string().nullable(),
    load: z
      .object({
        cargo_value: z.number().optional(),
        cargo_classes: z.array(z.string()).optional(),
        hazmat: z.boolean().optional(),
        equipment: z.string().optional(),
        pickup_date: z.string().optional(),
        origin_state: z.string().optional(),
        destination_state: z.string().optional(),
      })
      .nullable(),
    max_cost_usd: z.number(),
    redacted: z.boolean(),
  }),
});
export type TenderCheckAnswer = z.infer<typeof tenderCheckAnswerSchema>;

/** One stored check as `GET /api/local/tender-checks` lists it (newest first). */
const tenderCheckListItemSchema = z.object({
  id: z.number(),
  checked_at: z.string(),
  user: z.object({ id: z.string(), name: z.string() }),
  dot_number: z.string().nullable(),
  legal_name: z.string().nullable(),
  answer: z.enum(TENDER_ANSWERS),
  /** null once retention blanked them */
  phone: z.string().nullable(),
  email: z.string().nullable(),
  cost_usd: z.number(),
  snapshot_date: z.string().nullable(),
  pending: z.number(),
  /** decision records this check is attached to */
  decision_ids: z.array(z.number()),
});
export type TenderCheckListItem = z.infer<typeof tenderCheckListItemSchema>;

/** `GET /api/local/tender-checks?dot_number=&page=&page_size=`. */
export const tenderCheckListSchema = z.object({
  items: z.array(tenderCheckListItemSchema),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});

/**
 * A tender check as a decision record carries it (`tender_check` of the record, inside its hashed
 * content): which check, its answer and identity outcome, when and by whom, the data's date, and
 * the SHA-256 of the check's lasting parts (answer, rule outcomes, cost, date, who, when), which
 * the decisions' verify compares with the stored check.
 */
export const tenderDecisionAttachmentSchema = z.object({
  id: z.number(),
  answer: z.enum(TENDER_ANSWERS),
  identity: z.enum(TENDER_OUTCOMES),
  checked_at: z.string(),
  checked_by: z.string(),
  snapshot_date: z.string().nullable(),
  digest: z.string(),
});
export type TenderDecisionAttachment = z.infer<typeof tenderDecisionAttachmentSchema>;

/** The query of the list: filter by carrier, one page at a time. */
export const TENDER_LIST_PAGE_SIZE = { default: 50, max: 200 } as const;

/** The one combination rule (see the top of this file). */
export function answerOf(
  reasons: readonly { outcome: TenderOutcome }[],
  pendingCount: number,
): TenderAnswer {
  if (reasons.some((r) => r.outcome === 'fail')) return 'do_not_tender';
  if (pendingCount > 0 || reasons.some((r) => r.outcome === 'review')) return 'call_back';
  return 'go';
}

const LIST_QUERY = `"page" must be 1 or more, "page_size" 1 to ${TENDER_LIST_PAGE_SIZE.max}, "dot_number" a USDOT number`;
const positiveText = (max: number) =>
  z
    .string({ error: LIST_QUERY })
    .regex(/^\d{1,7}$/, { error: LIST_QUERY })
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, { error: LIST_QUERY });

/** The query of `GET /api/local/tender-checks`. */
const tenderCheckListQuerySchema = z.strictObject(
  {
    dot_number: z
      .string({ error: LIST_QUERY })
      .regex(/^\d{1,8}$/, { error: LIST_QUERY })
      .transform((dot) => dot.replace(/^0+(?=\d)/, ''))
      .optional(),
    page: positiveText(1_000_000).optional(),
    page_size: positiveText(TENDER_LIST_PAGE_SIZE.max).optional(),
  },
  { error: LIST_QUERY },
);

export const createTenderCheckRoute = defineRoute({
  method: 'POST',
  path: '/api/local/tender-checks',
  tag: 'Tender checks',
  summary:
    'Check an offer of a load: is it from the carrier it names, and may that carrier take it',
  description:
    'Answers go, call_back or do_not_tender with every reason and its evidence. Billed searches run only within max_cost_usd (default 0: only what is held or free); the rest is listed in pending with its cost. The check is stored. docs/tender-check.md.',
  body: tenderCheckRequestSchema,
  responses: {
    201: tenderCheckAnswerSchema,
    400: errors(
      'invalid_body',
      'unknown_field',
      'missing_carrier',
      'ambiguous_carrier',
      'invalid_dot_number',
      'invalid_docket_number',
      'invalid_phone',
      'invalid_email',
      'invalid_contact_name',
      'invalid_load',
      'unknown_cargo_class',
      'invalid_cargo_value',
      'invalid_hazmat',
      'invalid_equipment',
      'invalid_pickup_date',
      'invalid_origin_state',
      'invalid_destination_state',
      'invalid_max_cost_usd',
    ),
    402: errors('budget_exceeded'),
    404: errors('unknown_carrier'),
  },
});

export const listTenderChecksRoute = defineRoute({
  method: 'GET',
  path: '/api/local/tender-checks',
  tag: 'Tender checks',
  summary: 'List the stored tender checks, newest first (optionally of one carrier)',
  query: tenderCheckListQuerySchema,
  responses: {
    200: tenderCheckListSchema,
    400: errors('invalid_query', 'unknown_parameter'),
  },
});

export const getTenderCheckRoute = defineRoute({
  method: 'GET',
  path: '/api/local/tender-checks/:id',
  tag: 'Tender checks',
  summary: 'One stored tender check, as answered',
  params: z.object({ id: z.string().meta({ description: 'the check’s id (digits)' }) }),
  responses: {
    200: tenderCheckAnswerSchema,
    404: errors('unknown_tender_check'),
  },
});
