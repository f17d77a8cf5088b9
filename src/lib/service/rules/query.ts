/**
 * Reading a query string under the service's rules: single values of known names, positive
 * integers, exactly one search key. Every refusal is a ParamError with a specific code.
 */
import { ParamError } from '../param-error.ts';

/** Query strings as a server parses them: repeated names become arrays. */
export type RawQuery = Record<string, string | string[] | undefined>;

/** User input quoted back in a message, cut at 40 characters. */
export function quote(raw: string): string {
  return raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
}

/** Reject names outside `allowed` and repeated names; returns the single string values. */
export function singleValues(raw: RawQuery, allowed: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!allowed.includes(name)) {
      throw new ParamError(
        'unknown_parameter',
        `Unknown query parameter "${quote(name)}"`,
        `Allowed parameters: ${allowed.join(', ')}.`,
      );
    }
    if (Array.isArray(value)) {
      throw new ParamError(
        'duplicate_parameter',
        `Query parameter "${name}" was given ${value.length} times`,
        `Send "${name}" once.`,
      );
    }
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** A positive integer parameter, or undefined when absent; `code` names the 400. */
export function positiveInt(
  value: string | undefined,
  name: string,
  code: string,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,9}$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw new ParamError(
      code,
      `"${name}" must be a whole number from 1 to ${max}, got "${quote(value)}"`,
      `Use e.g. ${name}=1.`,
    );
  }
  return Number(value);
}

/** Exactly one of `keys` present; returns it. */
export function exactlyOneKey<K extends string>(
  values: Record<string, string>,
  keys: readonly K[],
): K {
  const given = keys.filter((key) => values[key] !== undefined);
  const [first] = given;
  if (first === undefined) {
    throw new ParamError(
      'missing_search_key',
      'No search key was given',
      `Give exactly one of: ${keys.join(', ')}.`,
    );
  }
  if (given.length > 1) {
    throw new ParamError(
      'multiple_search_keys',
      `Several search keys were given: ${given.join(', ')}`,
      'Give exactly one search key per request.',
    );
  }
  return first;
}
