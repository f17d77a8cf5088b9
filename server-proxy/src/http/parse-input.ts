/**
 * Route inputs (query strings, params, bodies) read with zod schemas. A failure becomes the same 400
 * `{error, code, hint}` the routes always sent: the first problem only, worded by the schema.
 *
 * Codes: a custom issue carries its own (`params: {code}`, see `issue`); otherwise the code is
 * `codes[key]` or `invalid_<key>`, the key being the last member name on the issue's path; a problem
 * with the input as a whole is `rootCode` (default `invalid_body`); members the schema does not know
 * are worded by `unknown`.
 * Messages: each schema states its own with zod's `error` option. An issue inside an item of an
 * array of objects is prefixed with the item's place, e.g. `items[3]: `.
 */
import type { z } from 'zod';
import { ApiError } from './api-error.ts';

export interface InputWording {
  /** hint of a 400 this input can cause, unless `hints` has one for its code */
  hint: string;
  /** hints per code */
  hints?: Record<string, string>;
  /** code and message of a member the schema does not know, given its name (cut to 40) */
  unknown: { code: string; message: (key: string) => string };
  /** codes that differ from `invalid_<key>` */
  codes?: Record<string, string>;
  /** code of a problem with the input as a whole (default `invalid_body`) */
  rootCode?: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/** A custom issue with its own code (and hint), for `ctx.addIssue` in a superRefine or transform. */
export { inputIssue as issue } from '../../../src/lib/api/route-contract.ts';

function clip(text: string): string {
  return text.length > 40 ? text.slice(0, 40) : text;
}

/** `items[3]: ` for an issue within an object inside an array, else nothing. */
function placeOf(path: readonly PropertyKey[]): string {
  for (let i = path.length - 2; i >= 1; i -= 1) {
    const at = path[i];
    if (typeof at === 'number') return `${String(path[i - 1])}[${at}]: `;
  }
  return '';
}

function lastKey(path: readonly PropertyKey[]): string | undefined {
  return path.findLast((segment): segment is string => typeof segment === 'string');
}

function toProblem(found: z.core.$ZodIssue, wording: InputWording): ApiError {
  const place = placeOf(found.path);
  const ownHint = found.code === 'custom' ? (found.params?.hint as string | undefined) : undefined;
  const fail = (code: string, message: string) =>
    new ApiError(400, code, message, ownHint ?? wording.hints?.[code] ?? wording.hint);
  if (found.code === 'unrecognized_keys') {
    const key = found.keys[0] ?? '';
    const message = wording.unknown.message(clip(key));
    const within = placeOf([...found.path, key]);
    return fail(wording.unknown.code, within ? `${within}${lowerFirst(message)}` : message);
  }
  const own = found.code === 'custom' ? (found.params?.code as string | undefined) : undefined;
  const key = lastKey(found.path);
  const code =
    own ??
    (key === undefined
      ? (wording.rootCode ?? 'invalid_body')
      : (wording.codes?.[key] ?? `invalid_${key}`));
  return fail(code, `${place}${found.message}`);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function isPrefix(prefix: readonly PropertyKey[], path: readonly PropertyKey[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => segment === path[i]);
}

/**
 * Parse `value` with `schema`. The first issue in the schema's order wins, except that an object's
 * unknown members are reported before its other problems, as the hand-written readers did.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  wording: InputWording,
): Parsed<z.output<S>> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues;
  const first = issues[0];
  if (first === undefined) throw new Error('zod reported a failure without an issue');
  const unknown = issues.find(
    (found) => found.code === 'unrecognized_keys' && isPrefix(found.path, first.path),
  );
  return { ok: false, error: toProblem(unknown ?? first, wording) };
}
