/**
 * Leaf value kinds of the service's JSON and the zod schema that reads each one tolerantly.
 * Every schema maps "no value" (null, empty or blank string) to `undefined` and otherwise either
 * produces the normalised value or fails; the record walker (record.ts) turns a failure into a
 * dropped value plus a ParseIssue. The tri-state kind keeps `null` distinct from `false`.
 */
import { z } from 'zod';

const TRUE_WORDS = new Set(['true', 'y', 'yes', 't', '1']);
const FALSE_WORDS = new Set(['false', 'n', 'no', 'f', '0']);
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})$/;
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function isBlank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && !value.trim());
}

/** Blank -> undefined; otherwise hand the value to `read`. */
function unlessBlank(read: (value: unknown) => unknown) {
  return (value: unknown): unknown => (isBlank(value) ? undefined : read(value));
}

/** Numbers stay numbers; numeric strings become numbers after removing `strip` characters. */
function toNumber(strip: RegExp) {
  return unlessBlank((value) =>
    typeof value === 'string' ? Number(value.replace(strip, '').trim()) : value,
  );
}

function toBoolean(value: unknown): unknown {
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : value;
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return value;
}

/** Identifiers are strings; a JSON number that is an integer is accepted and stringified. */
function toIdentifier(value: unknown): unknown {
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  return typeof value === 'string' ? value.trim() : value;
}

function toText(value: unknown): unknown {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
}

function isCalendarDate(year: string, month: string, day: string): boolean {
  const m = Number(month);
  const d = Number(day);
  return Number(year) > 0 && m >= 1 && m <= 12 && d >= 1 && d <= 31;
}

/** `YYYY-MM-DD`, `YYYYMMDD` (string or number) or a date-time -> `YYYY-MM-DD`; else unchanged. */
export function normaliseDate(value: unknown): unknown {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') return value;
  const trimmed = text.trim();
  const dateTime = ISO_DATE_TIME.exec(trimmed);
  const match = ISO_DATE.exec(dateTime?.[1] ?? trimmed) ?? COMPACT_DATE.exec(trimmed);
  if (!match) return value;
  const [, year = '', month = '', day = ''] = match;
  return isCalendarDate(year, month, day) ? `${year}-${month}-${day}` : value;
}

function toTimestamp(value: unknown): unknown {
  if (typeof value !== 'string') return normaliseDate(value);
  const trimmed = value.trim();
  return ISO_DATE_TIME.test(trimmed) ? trimmed : normaliseDate(trimmed);
}

const dateString = z.string().regex(ISO_DATE, 'expected a date YYYY-MM-DD');
const timestampString = z
  .string()
  .refine((s) => ISO_DATE.test(s) || ISO_DATE_TIME.test(s), 'expected YYYY-MM-DD[THH:MM:SS]');
const coordinate = z.preprocess(toNumber(/\s/g), z.number());

/** The preprocessing of the kinds that also have a hand check (see FAST_CHECKS). */
const PREPARE = {
  text: unlessBlank(toText),
  id: unlessBlank(toIdentifier),
  count: toNumber(/[,\s]/g),
  dollars: toNumber(/[$,\s]/g),
  rate: toNumber(/\s/g),
  year: toNumber(/\s/g),
  flag: unlessBlank(toBoolean),
  date: unlessBlank(normaliseDate),
  timestamp: unlessBlank(toTimestamp),
};

/** One schema per kind. Output `undefined` means "no value" (absent), never a failure. */
const KIND_SCHEMAS = {
  /** free text; numbers are stringified */
  text: z.preprocess(PREPARE.text, z.string().optional()),
  /** identifiers: DOT, docket, EIN, zip, phone, report numbers, `_id` */
  id: z.preprocess(PREPARE.id, z.string().min(1).optional()),
  /** counts, days, ages, miles */
  count: z.preprocess(PREPARE.count, z.number().optional()),
  /** dollar amounts; `$` and thousands separators are tolerated */
  dollars: z.preprocess(PREPARE.dollars, z.number().optional()),
  /** rates, fractions, percentages, probabilities, measures, weights */
  rate: z.preprocess(PREPARE.rate, z.number().optional()),
  /** calendar years */
  year: z.preprocess(PREPARE.year, z.number().int().optional()),
  /** booleans: true/false, "Y"/"N", 1/0, "true"/"false" */
  flag: z.preprocess(PREPARE.flag, z.boolean().optional()),
  /** tri-state indicators: true, false or null (null is kept, it is not "false") */
  tri: z.preprocess(
    (value) => (value === null ? null : isBlank(value) ? undefined : toBoolean(value)),
    z.boolean().nullable().optional(),
  ),
  /** dates, normalised to `YYYY-MM-DD` */
  date: z.preprocess(PREPARE.date, dateString.optional()),
  /** timestamps `YYYY-MM-DDTHH:MM:SS` kept as sent; compact dates normalised */
  timestamp: z.preprocess(PREPARE.timestamp, timestampString.optional()),
  /** `{lat, lon}` */
  point: z.preprocess(
    unlessBlank((v) => v),
    z.object({ lat: coordinate, lon: coordinate }).optional(),
  ),
  /** `{lat, lon, date?}` as in live `geo_points.crash_locations` */
  location: z.preprocess(
    unlessBlank((v) => v),
    z
      .object({
        lat: coordinate,
        lon: coordinate,
        date: z.preprocess(unlessBlank(normaliseDate), dateString.optional()),
      })
      .optional(),
  ),
  /** any JSON value whose structure the service does not document; kept verbatim unless empty */
  json: z.preprocess((value) => (hasContent(value) ? value : undefined), z.unknown()),
} as const;

export type Kind = keyof typeof KIND_SCHEMAS;
export type KindValue<K extends Kind> = Exclude<z.output<(typeof KIND_SCHEMAS)[K]>, undefined>;

export type ReadResult<K extends Kind> =
  { ok: true; value: KindValue<K> | undefined } | { ok: false; message: string };

function isFiniteNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value);
}

function isString(value: unknown): boolean {
  return typeof value === 'string';
}

/**
 * Hand checks for the kinds a big body reads once per value (a monitoring page reads ~100,000),
 * where zod's safeParse is the main cost. A check only answers "the schema accepts this prepared
 * value" for values the schema certainly accepts unchanged; `undefined` is always accepted (every
 * schema is optional). Anything else goes through the schema, so a rejection and its message are
 * always zod's. kinds.test.ts compares both ways over many values.
 */
const FAST_CHECKS: { [K in keyof typeof PREPARE]: (prepared: unknown) => boolean } = {
  text: isString,
  id: (prepared) => typeof prepared === 'string' && prepared.length >= 1,
  count: isFiniteNumber,
  dollars: isFiniteNumber,
  rate: isFiniteNumber,
  year: Number.isSafeInteger,
  flag: (prepared) => typeof prepared === 'boolean',
  date: (prepared) => typeof prepared === 'string' && ISO_DATE.test(prepared),
  timestamp: (prepared) =>
    typeof prepared === 'string' && (ISO_DATE.test(prepared) || ISO_DATE_TIME.test(prepared)),
};

function hasFastCheck(kind: Kind): kind is keyof typeof PREPARE {
  return Object.hasOwn(PREPARE, kind);
}

/** Read one leaf value with its zod schema only (readKind without the hand checks). */
export function readKindBySchema<K extends Kind>(kind: K, value: unknown): ReadResult<K> {
  const result = KIND_SCHEMAS[kind].safeParse(value);
  if (result.success) return { ok: true, value: result.data as KindValue<K> | undefined };
  const first = result.error.issues[0];
  return { ok: false, message: `${first?.message ?? 'unreadable'} (got ${preview(value)})` };
}

/** Read one leaf value; `ok: false` carries a human-readable reason. */
export function readKind<K extends Kind>(kind: K, value: unknown): ReadResult<K> {
  if (hasFastCheck(kind)) {
    const prepared = PREPARE[kind](value);
    if (prepared === undefined || FAST_CHECKS[kind](prepared))
      return { ok: true, value: prepared as KindValue<K> | undefined };
  }
  return readKindBySchema(kind, value);
}

/** A short, safe rendering of a value for issue messages. */
export function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** True when a value carries information: not null, not blank, not an empty array/object. */
export function hasContent(value: unknown): boolean {
  if (isBlank(value)) return false;
  if (Array.isArray(value)) return value.some(hasContent);
  if (typeof value === 'object') return Object.values(value as object).some(hasContent);
  return true;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
