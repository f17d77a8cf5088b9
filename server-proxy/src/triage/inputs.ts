/**
 * Validation of the triage routes' inputs. Every failure is a 400 body `{error, code, hint}` naming
 * the first problem (with the item's index for bulk bodies).
 */
import { TRIAGE_ID_PATTERN } from '../../../src/lib/service/triage-id.ts';
import type { ErrorBody } from '../http/api-error.ts';
import { formatProfileId, parseProfileId } from '../sandbox/monitoring/ids.ts';
import { TRIAGE_STATES, type TriageState, type TriageUpdate } from './store.ts';

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: ErrorBody };

const MAX_QUERY_IDS = 500;
const MAX_PUT_ITEMS = 1000;
const MAX_NOTE_CHARS = 2000;

const FIELD = /^[a-z][a-z0-9_]{0,99}$/;
const ITEM_KEYS = ['id', 'profile_id', 'field', 'state', 'note'];
const ITEM_HINT =
  'Send {"items": [{"id", "profile_id", "field", "state": "new"|"reviewed"|"escalated", "note"?}]}.';
const ID_HINT = 'Triage ids are c1- and 14 hex digits, computed by src/lib/service/triage-id.ts.';

function fail(code: string, error: string, hint: string): { ok: false; problem: ErrorBody } {
  return { ok: false, problem: { error, code, hint } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownKey(input: Record<string, unknown>, allowed: readonly string[]) {
  return Object.keys(input).find((key) => !allowed.includes(key));
}

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

export type TriageLookup =
  { by: 'ids'; values: string[] } | { by: 'profile_ids'; values: string[] };

/** GET /api/local/triage: `ids=…` or `profile_ids=…` (one of them, at most 500 values). */
export function parseLookup(query: unknown): Checked<TriageLookup> {
  const raw = isRecord(query) ? query : {};
  const extra = unknownKey(raw, ['ids', 'profile_ids']);
  if (extra !== undefined) {
    return fail(
      'unknown_parameter',
      `Unknown parameter "${clip(extra)}"`,
      'Use ids=<id>,<id> or profile_ids=<profile id>,<profile id>.',
    );
  }
  if ((raw.ids === undefined) === (raw.profile_ids === undefined)) {
    return fail(
      'missing_ids',
      'Give exactly one of "ids" or "profile_ids"',
      'E.g. /api/local/triage?ids=c1-0123456789abcd or ?profile_ids=568253-MC277621.',
    );
  }
  const by = raw.ids !== undefined ? 'ids' : 'profile_ids';
  const values = commaList(raw[by]);
  if (values.length === 0 || values.length > MAX_QUERY_IDS) {
    return fail(
      'invalid_ids',
      `"${by}" must list 1 to ${MAX_QUERY_IDS} values, got ${values.length}`,
      `Ask for at most ${MAX_QUERY_IDS} at a time (one inbox page of profiles).`,
    );
  }
  return by === 'ids' ? checkIds(values) : checkProfileIds(values);
}

function checkIds(values: string[]): Checked<TriageLookup> {
  const bad = values.find((id) => !TRIAGE_ID_PATTERN.test(id));
  if (bad !== undefined) {
    return fail('invalid_triage_id', `"${clip(bad)}" is not a triage id`, ID_HINT);
  }
  return { ok: true, value: { by: 'ids', values } };
}

function canonicalProfileId(value: string): string | undefined {
  const parsed = parseProfileId(value.trim());
  return parsed && formatProfileId(parsed.dot, parsed.docket);
}

function checkProfileIds(values: string[]): Checked<TriageLookup> {
  const canonical: string[] = [];
  for (const value of values) {
    const id = canonicalProfileId(value);
    if (id === undefined) return invalidProfileId(value);
    canonical.push(id);
  }
  return { ok: true, value: { by: 'profile_ids', values: [...new Set(canonical)] } };
}

function invalidProfileId(value: string, where = '') {
  return fail(
    'invalid_profile_id',
    `${where}"${clip(value)}" is not a profile id`,
    'Profile ids are <dot>-<docket> (568253-MC277621), or the bare DOT for carriers without a docket.',
  );
}

function readNote(value: unknown, where: string): Checked<string | undefined> {
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (typeof value !== 'string') {
    return fail('invalid_note', `${where}"note" must be a string`, 'Send text, or leave it out.');
  }
  const note = value.trim();
  if ([...note].length > MAX_NOTE_CHARS) {
    return fail(
      'note_too_long',
      `${where}"note" has ${[...note].length} characters; at most ${MAX_NOTE_CHARS} are kept`,
      'Shorten the note.',
    );
  }
  return { ok: true, value: note === '' ? undefined : note };
}

function isState(value: unknown): value is TriageState {
  return typeof value === 'string' && (TRIAGE_STATES as readonly string[]).includes(value);
}

/** One item of a PUT body, `where` is its position for messages ("items[3]: "). */
function readItem(raw: unknown, where: string): Checked<TriageUpdate> {
  if (!isRecord(raw)) {
    return fail('invalid_items', `${where}each item must be an object`, ITEM_HINT);
  }
  const extra = unknownKey(raw, ITEM_KEYS);
  if (extra !== undefined) {
    return fail('unknown_field', `${where}unknown member "${clip(extra)}"`, ITEM_HINT);
  }
  if (typeof raw.id !== 'string' || !TRIAGE_ID_PATTERN.test(raw.id)) {
    return fail('invalid_triage_id', `${where}"id" is not a triage id`, ID_HINT);
  }
  const profileId = typeof raw.profile_id === 'string' ? canonicalProfileId(raw.profile_id) : '';
  if (!profileId) return invalidProfileId(String(raw.profile_id), where);
  if (typeof raw.field !== 'string' || !FIELD.test(raw.field)) {
    return fail(
      'invalid_field',
      `${where}"field" must be a service field name`,
      'Send the base field name of the change, e.g. insurance_bipd_on_file.',
    );
  }
  if (!isState(raw.state)) {
    return fail('invalid_state', `${where}"state" must be new, reviewed or escalated`, ITEM_HINT);
  }
  const note = readNote(raw.note, where);
  if (!note.ok) return note;
  const update: TriageUpdate = { id: raw.id, profileId, field: raw.field, state: raw.state };
  if (note.value !== undefined) update.note = note.value;
  return { ok: true, value: update };
}

/** PUT /api/local/triage: `{items: [...]}`, 1 to 1,000 items with distinct ids. */
export function parseTriagePut(body: unknown): Checked<TriageUpdate[]> {
  if (!isRecord(body)) return fail('invalid_body', 'The body must be a JSON object', ITEM_HINT);
  const extra = unknownKey(body, ['items']);
  if (extra !== undefined) {
    return fail('unknown_field', `Unknown member "${clip(extra)}"`, ITEM_HINT);
  }
  const { items } = body;
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_PUT_ITEMS) {
    return fail(
      'invalid_items',
      `"items" must be an array of 1 to ${MAX_PUT_ITEMS} changes`,
      `Send larger batches in pieces of at most ${MAX_PUT_ITEMS}.`,
    );
  }
  const updates: TriageUpdate[] = [];
  const seen = new Set<string>();
  for (const [index, raw] of items.entries()) {
    const item = readItem(raw, `items[${index}]: `);
    if (!item.ok) return item;
    if (seen.has(item.value.id)) {
      return fail(
        'duplicate_id',
        `items[${index}]: the id ${item.value.id} appears twice`,
        'Send each change once.',
      );
    }
    seen.add(item.value.id);
    updates.push(item.value);
  }
  return { ok: true, value: updates };
}

/** PUT /api/local/triage/last-visit: no body, or an empty object (the time is the server's). */
export function parseVisitPut(body: unknown): Checked<null> {
  if (body === undefined || body === null) return { ok: true, value: null };
  if (!isRecord(body) || Object.keys(body).length > 0) {
    return fail(
      'invalid_body',
      'The body must be empty or {}',
      'The visit is recorded at the server time; send no members.',
    );
  }
  return { ok: true, value: null };
}
