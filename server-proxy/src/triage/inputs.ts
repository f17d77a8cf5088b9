/**
 * Validation of the triage routes' inputs, with zod (http/parse-input.ts). Every failure is a 400
 * body `{error, code, hint}` naming the first problem (with the item's index for bulk bodies).
 */
import { z } from 'zod';
import { TRIAGE_ID_PATTERN } from '../../../src/lib/service/triage-id.ts';
import { issue, parseInput, type InputWording, type Parsed } from '../http/parse-input.ts';
import { formatProfileId, parseProfileId } from '../../../src/lib/service/rules/profile-id.ts';
import { TRIAGE_STATES, type TriageState, type TriageUpdate } from './store.ts';

export type Checked<T> = Parsed<T>;

const MAX_QUERY_IDS = 500;
const MAX_PUT_ITEMS = 1000;
const MAX_NOTE_CHARS = 2000;

const FIELD = /^[a-z][a-z0-9_]{0,99}$/;
const ITEM_HINT =
  'Send {"items": [{"id", "profile_id", "field", "state": "new"|"reviewed"|"escalated", "note"?}]}.';
const ID_HINT = 'Triage ids are c1- and 14 hex digits, computed by src/lib/service/triage-id.ts.';
const PROFILE_ID_HINT =
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

export type TriageLookup =
  { by: 'ids'; values: string[] } | { by: 'profile_ids'; values: string[] };

const idList = z.unknown().transform(commaList);

const lookupSchema = z
  .strictObject({ ids: idList.optional(), profile_ids: idList.optional() })
  .superRefine((query, ctx) => {
    if ((query.ids === undefined) === (query.profile_ids === undefined)) {
      ctx.addIssue(issue('missing_ids', 'Give exactly one of "ids" or "profile_ids"'));
      return;
    }
    const by = query.ids !== undefined ? 'ids' : 'profile_ids';
    const count = (query[by] ?? []).length;
    if (count === 0 || count > MAX_QUERY_IDS) {
      const message = `"${by}" must list 1 to ${MAX_QUERY_IDS} values, got ${count}`;
      ctx.addIssue(issue('invalid_ids', message));
    }
  })
  .transform(({ ids, profile_ids }, ctx): TriageLookup => {
    if (ids !== undefined) {
      const bad = ids.find((id) => !TRIAGE_ID_PATTERN.test(id));
      if (bad !== undefined) {
        ctx.addIssue(issue('invalid_triage_id', `"${clip(bad)}" is not a triage id`, ID_HINT));
      }
      return { by: 'ids', values: ids };
    }
    const canonical: string[] = [];
    for (const value of profile_ids ?? []) {
      const id = canonicalProfileId(value);
      if (id === undefined) {
        ctx.addIssue(issue('invalid_profile_id', `"${clip(value)}" is not a profile id`));
        break;
      }
      canonical.push(id);
    }
    return { by: 'profile_ids', values: [...new Set(canonical)] };
  });

const LOOKUP_WORDING: InputWording = {
  hint: 'Use ids=<id>,<id> or profile_ids=<profile id>,<profile id>.',
  hints: {
    missing_ids: 'E.g. /api/local/triage?ids=c1-0123456789abcd or ?profile_ids=568253-MC277621.',
    invalid_ids: `Ask for at most ${MAX_QUERY_IDS} at a time (one inbox page of profiles).`,
    invalid_profile_id: PROFILE_ID_HINT,
  },
  unknown: { code: 'unknown_parameter', message: (key) => `Unknown parameter "${clip(key)}"` },
};

/** GET /api/local/triage: `ids=…` or `profile_ids=…` (one of them, at most 500 values). */
export function parseLookup(query: unknown): Checked<TriageLookup> {
  return parseInput(lookupSchema, query ?? {}, LOOKUP_WORDING);
}

/** The body form: arrays of strings only (the query form's comma lists are for URLs). */
const lookupBodySchema = z.strictObject(
  {
    ids: z.array(z.string(), { error: '"ids" must be an array of strings' }).optional(),
    profile_ids: z
      .array(z.string(), { error: '"profile_ids" must be an array of strings' })
      .optional(),
  },
  { error: 'The body must be a JSON object' },
);

const LOOKUP_BODY_WORDING: InputWording = {
  hint: 'Send {"profile_ids": ["568253-MC277621", …]} or {"ids": ["c1-0123456789abcd", …]}.',
  codes: { ids: 'invalid_ids', profile_ids: 'invalid_ids' },
  hints: {
    missing_ids: 'E.g. {"profile_ids": ["568253-MC277621"]}.',
    invalid_ids: `Ask for at most ${MAX_QUERY_IDS} at a time (one inbox page of profiles).`,
    invalid_profile_id: PROFILE_ID_HINT,
  },
  unknown: { code: 'unknown_field', message: (key) => `Unknown member "${clip(key)}"` },
};

/**
 * POST /api/local/triage/lookup: the same lookup as the GET with the values in a JSON body, so a
 * whole page of profile ids is one request whatever a URL's length limit on the way.
 */
export function parseLookupBody(body: unknown): Checked<TriageLookup> {
  const shape = parseInput(lookupBodySchema, body ?? null, LOOKUP_BODY_WORDING);
  if (!shape.ok) return shape;
  return parseInput(lookupSchema, shape.value, LOOKUP_BODY_WORDING);
}

const NOT_TEXT = issue('invalid_note', '"note" must be a string', 'Send text, or leave it out.');

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
      ctx.addIssue(issue('note_too_long', message, 'Shorten the note.'));
    }
    return note === '' ? undefined : note;
  });

/** `items[3]: ` from the full path zod gives an error function, e.g. ["items", 3]. */
function itemPlace(path: readonly PropertyKey[] | undefined): string {
  return `${String(path?.[0] ?? 'items')}[${String(path?.[1] ?? '?')}]: `;
}

const itemSchema = z.strictObject(
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
          ctx.addIssue(issue('invalid_profile_id', message, PROFILE_ID_HINT));
        }
        return id ?? '';
      }),
    field: z
      .string({ error: '"field" must be a service field name' })
      .regex(FIELD, { error: '"field" must be a service field name' }),
    state: z.enum(TRIAGE_STATES as [TriageState, ...TriageState[]], {
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

const putSchema = z
  .strictObject(
    {
      items: z
        .unknown()
        .superRefine((items, ctx) => {
          if (!Array.isArray(items) || items.length === 0 || items.length > MAX_PUT_ITEMS) {
            ctx.addIssue(issue('invalid_items', BATCH, BATCH_HINT));
          }
        })
        .pipe(
          z.array(itemSchema).superRefine((items, ctx) => {
            const seen = new Set<string>();
            for (const [index, item] of items.entries()) {
              if (seen.has(item.id)) {
                const message = `items[${index}]: the id ${item.id} appears twice`;
                ctx.addIssue(issue('duplicate_id', message, 'Send each change once.'));
                return;
              }
              seen.add(item.id);
            }
          }),
        ),
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

const PUT_WORDING: InputWording = {
  hint: ITEM_HINT,
  codes: { id: 'invalid_triage_id' },
  hints: {
    invalid_triage_id: ID_HINT,
    invalid_field: 'Send the base field name of the change, e.g. insurance_bipd_on_file.',
  },
  unknown: { code: 'unknown_field', message: (key) => `Unknown member "${clip(key)}"` },
};

/** PUT /api/local/triage: `{items: [...]}`, 1 to 1,000 items with distinct ids. */
export function parseTriagePut(body: unknown): Checked<TriageUpdate[]> {
  return parseInput(putSchema, body, PUT_WORDING);
}

const VISIT_PROBLEM = 'The body must be empty or {}';

const visitSchema = z
  .strictObject({}, { error: VISIT_PROBLEM })
  .nullish()
  .transform(() => null);

/** PUT /api/local/triage/last-visit: no body, or an empty object (the time is the server's). */
export function parseVisitPut(body: unknown): Checked<null> {
  return parseInput(visitSchema, body, {
    hint: 'The visit is recorded at the server time; send no members.',
    unknown: { code: 'invalid_body', message: () => VISIT_PROBLEM },
  });
}
