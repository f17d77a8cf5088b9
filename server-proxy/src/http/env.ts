/**
 * Building blocks of the servers' environment schemas (the proxy's config.ts, the sandbox's
 * sandbox/config.ts): one zod schema per variable, which reports a bad value in the words the
 * operator sees and reads it as a fallback, so the rules across variables still run and one error
 * lists every problem.
 */
import { z } from 'zod';

/**
 * An optional variable: trimmed, empty means unset (→ `fallback`). `schema` reads the text; what it
 * refuses is reported with its own messages and read as `invalid(text)` (by default `fallback`).
 */
export function variable<T>(
  schema: z.ZodType<T, string>,
  fallback: T,
  invalid: (text: string) => T = () => fallback,
) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): T => {
      const text = raw?.trim();
      if (text === undefined || text === '') return fallback;
      const parsed = schema.safeParse(text);
      if (parsed.success) return parsed.data;
      for (const found of parsed.error.issues) {
        ctx.addIssue({ code: 'custom', message: found.message });
      }
      return invalid(text);
    });
}

/** Text as given (trimmed), or undefined. */
export const optionalText = variable(z.string(), undefined as string | undefined);

export function text(fallback: string) {
  return variable(z.string(), fallback);
}

export function wholeNumber(name: string, fallback: number, min: number, max: number) {
  const message = (found: { input?: unknown }) =>
    `${name} must be a whole number from ${min} to ${max}, got "${String(found.input)}"`;
  const schema = z
    .string()
    .regex(/^[0-9]+$/, { error: message, abort: true })
    .refine((raw) => Number(raw) >= min && Number(raw) <= max, { error: message })
    .transform(Number);
  return variable(schema, fallback);
}

export function flag(name: string, fallback: boolean) {
  const schema = z
    .string()
    .transform((raw) => raw.toLowerCase())
    .pipe(
      z.enum(['true', '1', 'false', '0'], {
        error: (found) => `${name} must be true or false, got "${String(found.input)}"`,
      }),
    )
    .transform((value) => value === 'true' || value === '1');
  return variable(schema, fallback);
}

export function oneOf<const T extends readonly [string, ...string[]]>(
  name: string,
  allowed: T,
  fallback: T[number],
) {
  return variable(
    z.enum(allowed, { error: `${name} must be one of ${allowed.join(', ')}` }),
    fallback,
  );
}

/** Comma-separated entries, trimmed, empty ones dropped. */
export function commaList(raw: string): string[] {
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}
