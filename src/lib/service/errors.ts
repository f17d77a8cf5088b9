/** Error bodies `{error, code?, hint?}` (tolerating `message` and plain-text bodies). */
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
