/** Error bodies `{error, code?, hint?}` (tolerating `message` and plain-text bodies). */
import { z } from 'zod';
import { isPlainObject, readKind } from './kinds.ts';
import { readRecord, type Extra, type Parsed, type ParseIssue } from './record.ts';

export interface ServiceError {
  /** human-readable message; a generic one when the body carries none */
  error: string;
  /** machine-readable code, e.g. `not_found` */
  code?: string;
  hint?: string;
  extra: Extra;
}

const ERROR_SPEC = { error: 'text', code: 'text', hint: 'text' } as const;
export const UNKNOWN_ERROR = 'Unknown error';

function messageOf(extra: Extra): string | undefined {
  const read = readKind('text', extra.message);
  return read.ok ? read.value : undefined;
}

export function parseErrorBody(body: unknown): Parsed<ServiceError> {
  const issues: ParseIssue[] = [];
  if (!isPlainObject(body)) {
    const text = readKind('text', body);
    if (text.ok && text.value !== undefined)
      return { value: { error: text.value, extra: {} }, issues };
    issues.push({ path: '', message: 'no error message in the body' });
    return { value: { error: UNKNOWN_ERROR, extra: {} }, issues };
  }
  const { error, code, hint, extra } = readRecord(body, ERROR_SPEC, '', issues);
  const message = error ?? messageOf(extra);
  if (message === undefined)
    issues.push({ path: 'error', message: 'no error message in the body' });
  const value: ServiceError = { error: message ?? UNKNOWN_ERROR, extra };
  if (code !== undefined) value.code = code;
  if (hint !== undefined) value.hint = hint;
  return { value, issues };
}

/**
 * The service's error body as a proxy route passes a refusal of the service on, as it came: the
 * proxy's own refusals are `{error, code, hint}`, the service's may leave out the code and hint.
 */
const serviceErrorBodySchema = z
  .looseObject({ error: z.string(), code: z.string().optional(), hint: z.string().optional() })
  .meta({
    id: 'ServiceError',
    description: 'A refusal of the data service passed on as it came: {error, code?, hint?}',
  });

/**
 * The statuses a route that passes the service's refusals on may answer with such a body, for its
 * contract's `responses` (src/lib/api/route-contract.ts).
 */
export const SERVICE_REFUSALS = {
  400: serviceErrorBodySchema,
  401: serviceErrorBodySchema,
  402: serviceErrorBodySchema,
  403: serviceErrorBodySchema,
  404: serviceErrorBodySchema,
  429: serviceErrorBodySchema,
  500: serviceErrorBodySchema,
  502: serviceErrorBodySchema,
  503: serviceErrorBodySchema,
  504: serviceErrorBodySchema,
} as const;
