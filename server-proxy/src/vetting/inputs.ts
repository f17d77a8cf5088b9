/** Validation of the vetting routes' input: every problem is a 400 `{error, code, hint}`. */
import { DECISIONS, type Decision, type DecisionFilter } from './store.ts';

export const MAX_NOTE_CHARS = 4000;
const DECISIONS_PAGE_SIZE = 50;
const MAX_USER_CHARS = 200;
const DOT = /^\d{1,8}$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface Problem {
  error: string;
  code: string;
  hint: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: Problem };

const DECISION_HINT = `Send {"dot_number": "568253", "decision": one of ${DECISIONS.join(', ')}, "note"?: text of at most ${MAX_NOTE_CHARS} characters, "conditions"?: text (required for approved_with_conditions), "expires_on"?: "YYYY-MM-DD", "supersedes"?: the id of the record it corrects}.`;
const LIST_HINT = `Filters: dot_number (digits), decision (${DECISIONS.join(', ')}), user, from and to (YYYY-MM-DD), page (1 or more).`;

function fail<T>(code: string, error: string, hint: string): Checked<T> {
  return { ok: false, problem: { error, code, hint } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A real calendar day YYYY-MM-DD. */
function isDay(value: string): boolean {
  const match = DAY.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function normaliseDot(value: string): string {
  return value.replace(/^0+(?=\d)/, '');
}

function isDecision(value: unknown): value is Decision {
  return typeof value === 'string' && (DECISIONS as readonly string[]).includes(value);
}

export interface DecisionInput {
  dot_number: string;
  decision: Decision;
  note: string | null;
  conditions: string | null;
  expires_on: string | null;
  supersedes: number | null;
}

const DECISION_FIELDS = new Set([
  'dot_number',
  'decision',
  'note',
  'conditions',
  'expires_on',
  'supersedes',
]);

function optionalText(
  raw: Record<string, unknown>,
  key: 'note' | 'conditions',
): Checked<string | null> {
  const value = raw[key];
  if (value === undefined || value === null) return { ok: true, value: null };
  if (typeof value !== 'string')
    return fail(`invalid_${key}`, `"${key}" must be text`, DECISION_HINT);
  if (value.length > MAX_NOTE_CHARS) {
    return fail(
      `invalid_${key}`,
      `"${key}" is over ${MAX_NOTE_CHARS} characters (${value.length})`,
      DECISION_HINT,
    );
  }
  const trimmed = value.trim();
  return { ok: true, value: trimmed === '' ? null : trimmed };
}

/** `POST /api/local/decisions` body. */
export function parseDecisionBody(body: unknown): Checked<DecisionInput> {
  if (!isRecord(body)) return fail('invalid_body', 'The body must be a JSON object', DECISION_HINT);
  const extra = Object.keys(body).find((key) => !DECISION_FIELDS.has(key));
  if (extra !== undefined)
    return fail('unknown_field', `Unknown member "${extra.slice(0, 40)}"`, DECISION_HINT);
  const dotRaw = typeof body.dot_number === 'number' ? String(body.dot_number) : body.dot_number;
  if (typeof dotRaw !== 'string' || !DOT.test(dotRaw.trim())) {
    return fail(
      'invalid_dot_number',
      '"dot_number" must be a USDOT number (1 to 8 digits)',
      DECISION_HINT,
    );
  }
  if (!isDecision(body.decision)) {
    return fail(
      'invalid_decision',
      `"decision" must be one of ${DECISIONS.join(', ')}`,
      DECISION_HINT,
    );
  }
  const note = optionalText(body, 'note');
  if (!note.ok) return note;
  const conditions = optionalText(body, 'conditions');
  if (!conditions.ok) return conditions;
  if (body.decision === 'approved_with_conditions' && conditions.value === null) {
    return fail(
      'missing_conditions',
      'An approval with conditions needs its "conditions"',
      DECISION_HINT,
    );
  }
  const expires = body.expires_on;
  if (
    expires !== undefined &&
    expires !== null &&
    (typeof expires !== 'string' || !isDay(expires))
  ) {
    return fail('invalid_expires_on', '"expires_on" must be a date YYYY-MM-DD', DECISION_HINT);
  }
  const supersedes = body.supersedes;
  if (
    supersedes !== undefined &&
    supersedes !== null &&
    !(Number.isSafeInteger(supersedes) && (supersedes as number) > 0)
  ) {
    return fail(
      'invalid_supersedes',
      '"supersedes" must be the id of an earlier record',
      DECISION_HINT,
    );
  }
  return {
    ok: true,
    value: {
      dot_number: normaliseDot(dotRaw.trim()),
      decision: body.decision,
      note: note.value,
      conditions: conditions.value,
      expires_on: typeof expires === 'string' ? expires : null,
      supersedes: typeof supersedes === 'number' ? supersedes : null,
    },
  };
}

const LIST_KEYS = new Set(['dot_number', 'decision', 'user', 'from', 'to', 'page']);

function single(value: unknown): string | undefined {
  if (Array.isArray(value)) return undefined;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** `GET /api/local/decisions` query; empty filters are ignored. */
export function parseDecisionQuery(query: unknown): Checked<DecisionFilter> {
  const raw = isRecord(query) ? query : {};
  const unknown = Object.keys(raw).find((key) => !LIST_KEYS.has(key));
  if (unknown !== undefined)
    return fail('unknown_parameter', `Unknown parameter "${unknown.slice(0, 40)}"`, LIST_HINT);
  if (Object.values(raw).some(Array.isArray))
    return fail('repeated_parameter', 'Give each filter once', LIST_HINT);
  const filter: DecisionFilter = { page: 1, pageSize: DECISIONS_PAGE_SIZE };
  const dot = single(raw.dot_number);
  if (dot !== undefined) {
    if (!DOT.test(dot))
      return fail('invalid_dot_number', '"dot_number" must be 1 to 8 digits', LIST_HINT);
    filter.dot_number = normaliseDot(dot);
  }
  const decision = single(raw.decision);
  if (decision !== undefined) {
    if (!isDecision(decision))
      return fail(
        'invalid_decision',
        `"decision" must be one of ${DECISIONS.join(', ')}`,
        LIST_HINT,
      );
    filter.decision = decision;
  }
  const user = single(raw.user);
  if (user !== undefined) {
    if (user.length > MAX_USER_CHARS) return fail('invalid_user', '"user" is too long', LIST_HINT);
    filter.user = user;
  }
  for (const key of ['from', 'to'] as const) {
    const day = single(raw[key]);
    if (day === undefined) continue;
    if (!isDay(day)) return fail(`invalid_${key}`, `"${key}" must be a date YYYY-MM-DD`, LIST_HINT);
    filter[key] = day;
  }
  const page = single(raw.page);
  if (page !== undefined) {
    const n = Number(page);
    if (!/^\d{1,6}$/.test(page) || n < 1)
      return fail('invalid_page', '"page" must be a whole number from 1', LIST_HINT);
    filter.page = n;
  }
  return { ok: true, value: filter };
}
