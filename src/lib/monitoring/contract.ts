/**
 * The monitoring routes' contract: the answers of `/api/local/triage*` (states, names, summary, last
 * visit), `/api/local/monitoring-badge`, `/api/local/monitoring-view` and `/api/local/names/lookup`
 * as zod schemas the proxy (server-proxy/src/triage/, routes/monitoring-*.ts, names/lookup.ts) and
 * the SPA (src/features/monitoring) both import, so neither side can drift from the other, and each
 * route's contract (`defineRoute`): what it reads and what it answers. The inputs' wording of a 400
 * (hints, codes of unknown members) is the proxy's (server-proxy/src/triage/inputs.ts).
 * Runtime-neutral: zod and src/lib only.
 */
import { z } from 'zod';
import { defineRoute, errors, inputIssue, STORAGE_UNAVAILABLE } from '../api/route-contract.ts';
import { CHANNELS } from '../service/channels.ts';
import { SERVICE_REFUSALS } from '../service/errors.ts';
import type { MonitoringList } from '../service/monitoring.ts';
import { LIST_PARAMS } from '../service/rules/list-query.ts';
import { formatProfileId, parseProfileId } from '../service/rules/profile-id.ts';
import { TRIAGE_ID_PATTERN } from '../service/triage-id.ts';

// ---------------------------------------------------------------------------------------------
// Triage: GET /api/local/triage, POST /api/local/triage/lookup, PUT /api/local/triage

/** A change's triage state; New is the absence of a stored decision. */
const triageStateSchema = z.enum(['new', 'reviewed', 'escalated']);

/** A stored triage decision (never New: setting New deletes it). */
const triageEntrySchema = z.object({
  /** the change's triage id (src/lib/service/triage-id.ts) */
  id: z.string(),
  profile_id: z.string(),
  field: z.string(),
  /** the field's channel, null for a field outside every channel */
  channel: z.enum(CHANNELS).nullable(),
  state: triageStateSchema.exclude(['new']),
  note: z.string().nullable(),
  /** who set it: the user's display name */
  by: z.string(),
  /** ISO time it was set */
  at: z.string(),
});
export type StoredTriage = z.infer<typeof triageEntrySchema>;

/** `GET /api/local/triage` and `POST /api/local/triage/lookup`: the decisions asked for. */
export const triageEntriesSchema = z.object({ items: z.array(triageEntrySchema) });

/** `PUT /api/local/triage`: how many changes were sent and the decisions as stored (New omitted). */
export const triagePutAnswerSchema = z.object({
  updated: z.number().int().nonnegative(),
  items: z.array(triageEntrySchema),
});

// ---------------------------------------------------------------------------------------------
// Visits and summary: /api/local/triage/last-visit, /api/local/triage/summary

/** The user's last two inbox visits (ISO times, null before the first). */
export const inboxVisitSchema = z.object({
  lastVisitAt: z.string().nullable(),
  previousVisitAt: z.string().nullable(),
});
export type InboxVisit = z.infer<typeof inboxVisitSchema>;

const stateCountsSchema = z.object({
  reviewed: z.number().int().nonnegative(),
  escalated: z.number().int().nonnegative(),
});

/** The user's decisions counted, overall, by channel and for fields of no channel. */
const triageCountsSchema = z.object({
  total: stateCountsSchema,
  byChannel: z.record(z.enum(CHANNELS), stateCountsSchema),
  unmapped: stateCountsSchema,
});
export type TriageCounts = z.infer<typeof triageCountsSchema>;

/** `GET /api/local/triage/summary`: the counts with the visits. */
const triageSummarySchema = triageCountsSchema.extend(inboxVisitSchema.shape);

// ---------------------------------------------------------------------------------------------
// Names: GET /api/local/triage/names, POST /api/local/names/lookup

/** Where a held name was read: an answer the name store recorded, or a decision record. */
const NAME_SOURCES = [
  'profile',
  'profile-lite',
  'profile-fmcsa',
  'autocomplete',
  'network',
  'lookup',
  'decision',
] as const;

const heldNameSchema = z.object({
  /** the legal name (the DBA name when only that is known) */
  name: z.string(),
  /** the DBA name, when one is known that differs */
  dba: z.string().optional(),
  source: z.enum(NAME_SOURCES),
});
export type HeldName = z.infer<typeof heldNameSchema>;

/** `GET /api/local/triage/names`: the names held, by DOT; a DOT with none is left out. */
export const heldNamesSchema = z.object({ names: z.record(z.string(), heldNameSchema) });

/** What a name look-up would cost, before anything is sent. */
const nameLookupEstimateSchema = z.object({
  /** DOTs asked about */
  carriers: z.number(),
  /** of those, already named in the store: not looked up */
  already_named: z.number(),
  /** to look up */
  to_look_up: z.number(),
  endpoint: z.enum(['profile-fmcsa', 'profile-lite']),
  unit_price_usd: z.number(),
  /** look-ups that may bill (FMCSA: each one found; lite: DOTs not billed this month) */
  billable: z.number(),
  /** what the live service would charge at most */
  metered_cost_usd: z.number(),
  /** what is billed: the metered cost on a live key, 0 in sandbox and test modes */
  cost_usd: z.number(),
  billed: z.boolean(),
  budget_usd: z.number().nullable(),
  spent_usd: z.number(),
  within_budget: z.boolean(),
});
export type NameLookupEstimate = z.infer<typeof nameLookupEstimateSchema>;

const nameLookupResultSchema = z.object({
  named: z.record(z.string(), z.object({ name: z.string(), dba: z.string().optional() })),
  not_found: z.array(z.string()),
  failed: z.array(z.object({ dot: z.string(), code: z.string(), error: z.string() })),
  /** the look-ups stopped early (budget, rate limit, the service down); the rest were not sent */
  stopped: z.object({ code: z.string(), error: z.string(), hint: z.string() }).optional(),
});
export type NameLookupResult = z.infer<typeof nameLookupResultSchema>;

/** `POST /api/local/names/lookup` without `confirm`: the cost only. */
export const nameLookupEstimateAnswerSchema = z.object({ estimate: nameLookupEstimateSchema });
/** `POST /api/local/names/lookup` with `confirm: true`: the cost and what the look-ups found. */
export const nameLookupResultAnswerSchema = z.object({
  estimate: nameLookupEstimateSchema,
  result: nameLookupResultSchema,
});
/** Either answer of `POST /api/local/names/lookup`. */
const nameLookupAnswerSchema = z.union([
  nameLookupResultAnswerSchema,
  nameLookupEstimateAnswerSchema,
]);

// ---------------------------------------------------------------------------------------------
// GET /api/local/monitoring-badge

/** `GET /api/local/monitoring-badge`: the navigation badge's count. */
export const monitoringBadgeSchema = z.object({
  /** untriaged (state New) changes over the counted profiles */
  total: z.number().int().nonnegative(),
  /** the same by channel; `other` for fields outside every channel */
  counts: z.record(z.enum([...CHANNELS, 'other']), z.number().int().nonnegative()),
  /** how many changed profiles were counted (at most the largest page size) */
  profiles: z.number().int().nonnegative(),
  /** when the list was read (ISO time) */
  fetchedAt: z.string(),
  /**
   * per DOT of the counted profiles, the day (`YYYY-MM-DD`) of its newest change dated the day
   * before the read or later (server-proxy/src/routes/monitoring-badge.ts)
   */
  recentChanges: z.record(z.string(), z.string()),
});
export type MonitoringBadge = z.infer<typeof monitoringBadgeSchema>;

// ---------------------------------------------------------------------------------------------
// GET /api/local/monitoring-view: a page of `/v2/monitoring/list` as src/lib/service/monitoring.ts
// reads it (`MonitoringList`), with every profile's change ids

const extraSchema = z.record(z.string(), z.unknown());

const changeValueSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.unknown()),
  extraSchema,
]);

const fieldChangeSchema = z.object({
  field: z.string(),
  current: changeValueSchema,
  prior: changeValueSchema,
  /** absent for a field outside every channel (JSON has no undefined) */
  channel: z.enum(CHANNELS).optional(),
});

const changeRecordSchema = z.object({
  changes: z.array(fieldChangeSchema),
  lastChangedDate: z.string().optional(),
  startedMonitoringAt: z.string().optional(),
  lastAcknowledgedAt: z.string().optional(),
  extra: extraSchema,
});

const monitoredProfileSchema = z.object({
  profileId: z.string(),
  dot: z.string(),
  docket: z.string().optional(),
  records: z.array(changeRecordSchema),
});

const monitoringListSchema = z.object({
  totalCount: z.number().int().nonnegative(),
  profiles: z.array(monitoredProfileSchema),
});

/** `GET /api/local/monitoring-view`: the page and, per profile in order, its change ids. */
export const monitoringViewSchema = z.object({
  list: monitoringListSchema,
  changeIds: z.array(z.array(z.string())),
});
/**
 * The same answer with its profiles left unread: what the SPA checks before it draws a page (the
 * inbox, src/features/monitoring/api/get-monitoring-list.ts). Reading every change record of a page
 * of 500 profiles (about 4 MB) with `monitoringViewSchema` takes 30 to 470 ms in V8, over the inbox's
 * 250 ms budget from answer to rows (docs/performance.md); the proxy built the page with the shared
 * parser (`parseMonitoringList`), and the route tests check it against the full schema.
 */
export const monitoringViewShellSchema = z.object({
  list: monitoringListSchema.extend({ profiles: z.array(z.unknown()) }),
  changeIds: z.array(z.unknown()),
});

export interface MonitoringView {
  list: MonitoringList;
  /** per profile of `list.profiles`, in order: its change ids, in `inboxChangesOf` order */
  changeIds: string[][];
}

// The schema reads what the parser makes, and what it reads is a `MonitoringList`.
const _viewReadsTheParserType: z.ZodType<MonitoringView> = monitoringViewSchema;
void _viewReadsTheParserType;

// ---------------------------------------------------------------------------------------------
// Inputs. Each failure is a 400 `{error, code, hint}` naming the first problem (with the item's
// index for bulk bodies); codes of custom issues are their own (`inputIssue`), the others come
// from the proxy's wording.

/** Profile ids or triage ids one lookup takes at most: one inbox page of the largest size. */
export const MAX_TRIAGE_QUERY_IDS = 500;
/** Changes one PUT takes at most. */
const MAX_PUT_ITEMS = 1000;
/** Characters of a note kept at most. */
const MAX_NOTE_CHARS = 2000;

const FIELD = /^[a-z][a-z0-9_]{0,99}$/;
const ID_HINT = 'Triage ids are c1- and 14 hex digits, computed by src/lib/service/triage-id.ts.';
export const PROFILE_ID_HINT =
  'Profile ids are <dot>-<docket> (568253-MC277621), or the bare DOT for carriers without a docket.';

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** `a,b,c` (or the parameter repeated) as a list of trimmed, non-empty, distinct values. */
function commaList(value: unknown): string[] {
  const parts = [value]
    .flat()
    .filter((part): part is string => typeof part === 'string')
    .flatMap((part) => part.split(','));
  return [...new Set(parts.map((part) => part.trim()).filter((part) => part !== ''))];
}

function canonicalProfileId(value: string): string | undefined {
  const parsed = parseProfileId(value.trim());
  return parsed && formatProfileId(parsed.dot, parsed.docket);
}

/** What a lookup of triage states asks for: change ids, or every change of some profiles. */
export type TriageLookup =
  { by: 'ids'; values: string[] } | { by: 'profile_ids'; values: string[] };

const idList = z
  .unknown()
  .transform(commaList)
  .meta({ type: 'string', description: 'comma-separated (or the parameter repeated)' });

/** `GET /api/local/triage`: `ids=…` or `profile_ids=…` (one of them, at most 500 values). */
const triageLookupQuerySchema = z
  .strictObject({ ids: idList.optional(), profile_ids: idList.optional() })
  .superRefine((query, ctx) => {
    if ((query.ids === undefined) === (query.profile_ids === undefined)) {
      ctx.addIssue(inputIssue('missing_ids', 'Give exactly one of "ids" or "profile_ids"'));
      return;
    }
    const by = query.ids !== undefined ? 'ids' : 'profile_ids';
    const count = (query[by] ?? []).length;
    if (count === 0 || count > MAX_TRIAGE_QUERY_IDS) {
      const message = `"${by}" must list 1 to ${MAX_TRIAGE_QUERY_IDS} values, got ${count}`;
      ctx.addIssue(inputIssue('invalid_ids', message));
    }
  })
  .transform(({ ids, profile_ids }, ctx): TriageLookup => {
    if (ids !== undefined) {
      const bad = ids.find((id) => !TRIAGE_ID_PATTERN.test(id));
      if (bad !== undefined) {
        ctx.addIssue(inputIssue('invalid_triage_id', `"${clip(bad)}" is not a triage id`, ID_HINT));
      }
      return { by: 'ids', values: ids };
    }
    const canonical: string[] = [];
    for (const value of profile_ids ?? []) {
      const id = canonicalProfileId(value);
      if (id === undefined) {
        ctx.addIssue(inputIssue('invalid_profile_id', `"${clip(value)}" is not a profile id`));
        break;
      }
      canonical.push(id);
    }
    return { by: 'profile_ids', values: [...new Set(canonical)] };
  });

interface LookupArrays {
  ids?: string[] | undefined;
  profile_ids?: string[] | undefined;
}

/**
 * `POST /api/local/triage/lookup`: the same lookup with the values in a JSON body (arrays of strings
 * only: the query form's comma lists are for URLs), so a whole page of profile ids is one request
 * whatever a URL's length limit on the way.
 */
const triageLookupBodySchema = z
  .strictObject(
    {
      ids: z.array(z.string(), { error: '"ids" must be an array of strings' }).optional(),
      profile_ids: z
        .array(z.string(), { error: '"profile_ids" must be an array of strings' })
        .optional(),
    },
    { error: 'The body must be a JSON object' },
  )
  // the query's reading, on arrays (its input is `unknown` per member: the type needs telling)
  .pipe(triageLookupQuerySchema as unknown as z.ZodType<TriageLookup, LookupArrays>);

const NOT_TEXT = inputIssue(
  'invalid_note',
  '"note" must be a string',
  'Send text, or leave it out.',
);

/** Optional text, trimmed; empty means none. */
const noteSchema = z
  .unknown()
  .optional()
  .transform((value, ctx): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') {
      ctx.addIssue(NOT_TEXT);
      return undefined;
    }
    const note = value.trim();
    const length = [...note].length;
    if (length > MAX_NOTE_CHARS) {
      const message = `"note" has ${length} characters; at most ${MAX_NOTE_CHARS} are kept`;
      ctx.addIssue(inputIssue('note_too_long', message, 'Shorten the note.'));
    }
    return note === '' ? undefined : note;
  })
  .meta({ type: 'string', description: `at most ${MAX_NOTE_CHARS} characters` });

/** `items[3]: ` from the full path zod gives an error function, e.g. ["items", 3]. */
function itemPlace(path: readonly PropertyKey[] | undefined): string {
  return `${String(path?.[0] ?? 'items')}[${String(path?.[1] ?? '?')}]: `;
}

const triageItemSchema = z.strictObject(
  {
    id: z
      .string({ error: '"id" is not a triage id' })
      .regex(TRIAGE_ID_PATTERN, { error: '"id" is not a triage id' }),
    profile_id: z
      .unknown()
      .optional()
      .transform((value, ctx) => {
        const id = typeof value === 'string' ? canonicalProfileId(value) : undefined;
        if (!id) {
          const message = `"${clip(String(value))}" is not a profile id`;
          ctx.addIssue(inputIssue('invalid_profile_id', message, PROFILE_ID_HINT));
        }
        return id ?? '';
      })
      .meta({ type: 'string', description: '<dot>-<docket>, or the bare DOT' }),
    field: z
      .string({ error: '"field" must be a service field name' })
      .regex(FIELD, { error: '"field" must be a service field name' }),
    state: z.enum(triageStateSchema.options, {
      error: '"state" must be new, reviewed or escalated',
    }),
    note: noteSchema,
  },
  {
    error: (found) =>
      found.code === 'invalid_type'
        ? `${itemPlace(found.path)}each item must be an object`
        : undefined,
  },
);

const BATCH = `"items" must be an array of 1 to ${MAX_PUT_ITEMS} changes`;
const BATCH_HINT = `Send larger batches in pieces of at most ${MAX_PUT_ITEMS}.`;

/** One change to set, as validated from a PUT body. */
export interface TriageUpdate {
  id: string;
  profileId: string;
  field: string;
  state: z.infer<typeof triageStateSchema>;
  note?: string;
}

/** `PUT /api/local/triage`: `{items: [...]}`, 1 to 1,000 items with distinct ids. */
const triagePutBodySchema = z
  .strictObject(
    {
      items: z
        .unknown()
        .superRefine((items, ctx) => {
          if (!Array.isArray(items) || items.length === 0 || items.length > MAX_PUT_ITEMS) {
            ctx.addIssue(inputIssue('invalid_items', BATCH, BATCH_HINT));
          }
        })
        .pipe(
          z.array(triageItemSchema).superRefine((items, ctx) => {
            const seen = new Set<string>();
            for (const [index, item] of items.entries()) {
              if (seen.has(item.id)) {
                const message = `items[${index}]: the id ${item.id} appears twice`;
                ctx.addIssue(inputIssue('duplicate_id', message, 'Send each change once.'));
                return;
              }
              seen.add(item.id);
            }
          }),
        )
        .meta({
          type: 'array',
          minItems: 1,
          maxItems: MAX_PUT_ITEMS,
          description: 'the changes: {id, profile_id, field, state, note?}, each id once',
        }),
    },
    { error: 'The body must be a JSON object' },
  )
  .transform(({ items }) =>
    items.map(({ id, profile_id, field, state, note }): TriageUpdate => {
      const update: TriageUpdate = { id, profileId: profile_id, field, state };
      if (note !== undefined) update.note = note;
      return update;
    }),
  );

export const VISIT_PROBLEM = 'The body must be empty or {}';

/** `PUT /api/local/triage/last-visit`: no body, or an empty object (the time is the server's). */
const visitPutBodySchema = z
  .strictObject({}, { error: VISIT_PROBLEM })
  .nullish()
  .transform(() => null);

/** Most DOTs `GET /api/local/triage/names` takes. */
const MAX_NAME_DOTS = 500;
const DOT = /^[1-9]\d{0,7}$/;

/** `dots=` values, comma-separated or repeated, without leading zeros and repeats. */
function dotList(value: unknown): string[] {
  const parts = [value]
    .flat()
    .filter((part): part is string => typeof part === 'string')
    .flatMap((part) => part.split(','))
    .map((part) => part.trim())
    .filter((part) => part !== '');
  return [...new Set(parts.map((part) => part.replace(/^0+/, '')))];
}

/** `GET /api/local/triage/names`: `dots=` (comma-separated or repeated), 1-500 USDOT numbers. */
export const heldNamesQuerySchema = z
  .strictObject({
    dots: z
      .unknown()
      .optional()
      .meta({ type: 'string', description: 'USDOT numbers, comma-separated (or repeated)' }),
  })
  .transform(({ dots }) => dotList(dots))
  .superRefine((dots, ctx) => {
    if (dots.length === 0 || dots.length > MAX_NAME_DOTS) {
      const message = `"dots" must list 1 to ${MAX_NAME_DOTS} USDOT numbers`;
      ctx.addIssue(inputIssue('invalid_dots', message));
      return;
    }
    const bad = dots.find((dot) => !DOT.test(dot));
    if (bad !== undefined) {
      ctx.addIssue(inputIssue('invalid_dot', `"${bad.slice(0, 40)}" is not a USDOT number`));
    }
  });
export const HELD_NAMES_HINT = `Send dots=<USDOT>,<USDOT> (1 to ${MAX_NAME_DOTS} numbers).`;

/** Most DOTs one name look-up takes. */
const MAX_LOOKUP_DOTS = 100;
const LOOKUP_DOTS = `"dots" must be an array of 1 to ${MAX_LOOKUP_DOTS} USDOT numbers`;
export const NAME_LOOKUP_HINT = `Send {"dots": ["4418207", …] (1 to ${MAX_LOOKUP_DOTS} USDOT numbers)} for the cost, then the same with "confirm": true and "max_cost_usd" to look them up.`;

/** `POST /api/local/names/lookup`: the DOTs, and the confirmation with the cost shown. */
const nameLookupBodySchema = z.strictObject(
  {
    dots: z
      .array(z.unknown(), { error: LOOKUP_DOTS })
      .min(1, { error: LOOKUP_DOTS })
      .max(MAX_LOOKUP_DOTS, { error: LOOKUP_DOTS })
      .transform((dots, ctx) => {
        const clean = dots.map((dot) =>
          typeof dot === 'string' ? dot.trim().replace(/^0+/, '') : dot,
        );
        const bad = clean.findIndex((dot) => typeof dot !== 'string' || !DOT.test(dot));
        if (bad >= 0) {
          ctx.addIssue(inputIssue('invalid_dot', `dots[${bad}] is not a USDOT number`));
        }
        return [...new Set(clean.filter((dot): dot is string => typeof dot === 'string'))];
      })
      .meta({ description: 'USDOT numbers', items: { type: 'string' } }),
    confirm: z.boolean({ error: '"confirm" must be true or false' }).default(false),
    max_cost_usd: z
      .number({ error: '"max_cost_usd" must be a number of USD' })
      .nonnegative({ error: '"max_cost_usd" must be a number of USD' })
      .optional()
      .meta({ description: 'with confirm: the cost the user was shown' }),
  },
  { error: 'The body must be a JSON object' },
);

// ---------------------------------------------------------------------------------------------
// The routes

const TAG = 'Monitoring';

export const triageLookupRoute = defineRoute({
  method: 'GET',
  path: '/api/local/triage',
  tag: TAG,
  summary: 'The caller’s triage decisions on some changes, or on every change of some profiles',
  query: triageLookupQuerySchema,
  responses: {
    200: triageEntriesSchema,
    400: errors(
      'missing_ids',
      'invalid_ids',
      'invalid_triage_id',
      'invalid_profile_id',
      'unknown_parameter',
    ),
    503: STORAGE_UNAVAILABLE,
  },
});

export const triageLookupBodyRoute = defineRoute({
  method: 'POST',
  path: '/api/local/triage/lookup',
  tag: TAG,
  summary: 'The same lookup with the ids in the body (an inbox page of 500 profiles)',
  description: 'A POST so a long list needs no long URL; it changes nothing.',
  body: triageLookupBodySchema,
  responses: {
    200: triageEntriesSchema,
    400: errors(
      'invalid_body',
      'missing_ids',
      'invalid_ids',
      'invalid_triage_id',
      'invalid_profile_id',
      'unknown_field',
    ),
    503: STORAGE_UNAVAILABLE,
  },
});

export const triagePutRoute = defineRoute({
  method: 'PUT',
  path: '/api/local/triage',
  tag: TAG,
  summary: 'Set triage states (New deletes the decision and its note), all or none',
  body: triagePutBodySchema,
  responses: {
    200: triagePutAnswerSchema,
    400: errors(
      'invalid_body',
      'invalid_items',
      'invalid_triage_id',
      'invalid_profile_id',
      'invalid_field',
      'invalid_state',
      'invalid_note',
      'note_too_long',
      'duplicate_id',
      'unknown_field',
    ),
    503: STORAGE_UNAVAILABLE,
  },
});

export const heldNamesRoute = defineRoute({
  method: 'GET',
  path: '/api/local/triage/names',
  tag: TAG,
  summary: 'Carrier names the proxy already holds (free: never an upstream call)',
  query: heldNamesQuerySchema,
  responses: {
    200: heldNamesSchema,
    400: errors('invalid_dots', 'invalid_dot', 'unknown_parameter'),
    503: STORAGE_UNAVAILABLE,
  },
});

export const triageSummaryRoute = defineRoute({
  method: 'GET',
  path: '/api/local/triage/summary',
  tag: TAG,
  summary: 'The caller’s decisions counted by state and channel, with the last two inbox visits',
  responses: { 200: triageSummarySchema, 503: STORAGE_UNAVAILABLE },
});

export const lastVisitRoute = defineRoute({
  method: 'GET',
  path: '/api/local/triage/last-visit',
  tag: TAG,
  summary: 'The caller’s last two inbox visits',
  responses: { 200: inboxVisitSchema, 503: STORAGE_UNAVAILABLE },
});

export const recordVisitRoute = defineRoute({
  method: 'PUT',
  path: '/api/local/triage/last-visit',
  tag: TAG,
  summary: 'Record an inbox visit now (the server’s time); the last becomes the previous',
  body: visitPutBodySchema,
  responses: { 200: inboxVisitSchema, 400: errors('invalid_body'), 503: STORAGE_UNAVAILABLE },
});

export const nameLookupRoute = defineRoute({
  method: 'POST',
  path: '/api/local/names/lookup',
  tag: TAG,
  summary: 'Look up the names of unnamed carriers: the cost first, then (confirmed) the look-ups',
  description:
    'Without "confirm" nothing is called: the answer is the cost. With "confirm": true and the cost shown ("max_cost_usd"), the carriers not yet named are looked up through the mirror (budget, queue, audit).',
  body: nameLookupBodySchema,
  responses: {
    200: nameLookupAnswerSchema,
    400: errors(
      'invalid_body',
      'invalid_dots',
      'invalid_dot',
      'invalid_confirm',
      'invalid_max_cost_usd',
      'missing_max_cost',
      'unknown_field',
    ),
    402: errors('budget_exceeded'),
    409: errors('cost_changed'),
    503: STORAGE_UNAVAILABLE,
  },
});

/** `GET /api/local/monitoring-badge` takes no parameters. */
const noParametersSchema = z.strictObject({}, { error: 'The query must be empty' });

export const monitoringBadgeRoute = defineRoute({
  method: 'GET',
  path: '/api/local/monitoring-badge',
  tag: TAG,
  summary: 'The navigation badge: untriaged changes over the newest 500 changed carriers',
  description:
    'Reads the newest page of changed profiles through the mirror and the caller’s triage states. A refusal of the mirror is passed on with its status.',
  query: noParametersSchema,
  responses: {
    200: monitoringBadgeSchema,
    // the mirror's refusals as they came; the route's own: 400 unknown_parameter, invalid_query,
    // 503 storage_unavailable ({error, code, hint})
    ...SERVICE_REFUSALS,
  },
});

/**
 * `GET /api/local/monitoring-view` takes the query of `/api/v2/monitoring/list`, read by that
 * route's own rules (src/lib/service/rules/list-query.ts): documented here, passed on as it came.
 */
const listQuerySchema = z.looseObject(
  Object.fromEntries(
    LIST_PARAMS.map((name) => [
      name,
      z
        .unknown()
        .optional()
        .meta({ type: 'string', description: 'as /api/v2/monitoring/list takes it' }),
    ]),
  ),
);

export const monitoringViewRoute = defineRoute({
  method: 'GET',
  path: '/api/local/monitoring-view',
  tag: TAG,
  summary: 'A page of the watchlist as the inbox draws it, with every change’s id',
  description:
    'The answer of /v2/monitoring/list read by the shared parser (free, never cached). A refusal of the mirror is passed on with its status, body and Retry-After.',
  query: listQuerySchema,
  responses: { 200: monitoringViewSchema, ...SERVICE_REFUSALS },
});
