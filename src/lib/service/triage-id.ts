/**
 * Stable identity of one field change in a monitoring change record. The service gives change
 * records no id, and triage (New / Reviewed / Escalated) is kept per changed field, so the identity
 * is derived from what makes a change unique: the profile id, the field, the record's change date
 * and the prior and current values. Runtime-neutral (no Node crypto): the SPA computes ids from the
 * list it shows, the proxy validates them. See docs/monitoring.md.
 */
import { normaliseDate } from './kinds.ts';
import type { ChangeRecord, FieldChange } from './monitoring.ts';

/** Version tag of the derivation; a new scheme would get a new tag and leave old ids alone. */
const TRIAGE_ID_PREFIX = 'c1-';
/** `c1-` and 14 lower-case hex digits (a 53-bit hash). */
export const TRIAGE_ID_PATTERN = /^c1-[0-9a-f]{14}$/;

/** What identifies one field change. Values may be raw (as sent) or as the shared parser read them. */
export interface TriageSubject {
  profileId: string;
  field: string;
  /** the record's `last_changed_date` (`YYYY-MM-DD` or `YYYYMMDD`); undefined when it has none */
  date: string | undefined;
  prior: unknown;
  current: unknown;
}

const PLAIN_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * A value in a form that does not depend on how it was sent: blanks are null, numeric strings that
 * are exactly a number's spelling become that number (`"1000000"` = `1000000`, but `"0123"` stays
 * text), text is trimmed, arrays are kept in order and object keys are sorted.
 */
export function canonicalValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'string') return canonicalText(value);
  if (Array.isArray(value)) return value.map(canonicalValue);
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, inner]) => [key, canonicalValue(inner)] as const);
    return Object.fromEntries(entries);
  }
  return value;
}

function canonicalText(value: string): string | number | null {
  const text = value.trim();
  if (text === '') return null;
  if (PLAIN_NUMBER.test(text) && String(Number(text)) === text) return Number(text);
  return text;
}

/** `YYYYMMDD` and `YYYY-MM-DD` name the same day. */
function canonicalDate(date: string | undefined): string {
  if (date === undefined) return '';
  const normalised = normaliseDate(date.trim());
  return typeof normalised === 'string' ? normalised : date.trim();
}

/**
 * cyrb53: a fast 53-bit string hash (two 32-bit multiply-xor lanes mixed together). Not
 * cryptographic; collisions among 100,000 changes have a probability below one in a million.
 */
export function cyrb53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The text that is hashed: a JSON array, so no value can imitate a separator. */
function triageKey(subject: TriageSubject): string {
  return JSON.stringify([
    subject.profileId.trim().toUpperCase(),
    subject.field.trim().toLowerCase(),
    canonicalDate(subject.date),
    canonicalValue(subject.prior),
    canonicalValue(subject.current),
  ]);
}

/** The triage id of one field change, e.g. `c1-0f3a9c12d4e5b6`. */
export function triageId(subject: TriageSubject): string {
  return `${TRIAGE_ID_PREFIX}${cyrb53(triageKey(subject)).toString(16).padStart(14, '0')}`;
}

export function isTriageId(value: unknown): value is string {
  return typeof value === 'string' && TRIAGE_ID_PATTERN.test(value);
}

/** One id per changed field of a parsed change record, in the record's field order. */
export function triageIdsOfRecord(
  profileId: string,
  record: Pick<ChangeRecord, 'changes' | 'lastChangedDate'>,
): { id: string; change: FieldChange }[] {
  return record.changes.map((change) => ({
    id: triageId({
      profileId,
      field: change.field,
      date: record.lastChangedDate,
      prior: change.prior,
      current: change.current,
    }),
    change,
  }));
}
