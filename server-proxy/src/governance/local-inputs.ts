import type { Endpoint } from '../context.ts';
import type { ErrorBody } from './errors.ts';
import type { AuditQuery } from './audit.ts';
import { PRICE_RULES, dotOfProfileId, isEndpoint, ENDPOINTS } from './pricing.ts';

/** A validated input, or the 400 body explaining what is wrong. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: ErrorBody };

const fail = (code: string, error: string, hint: string): { ok: false; problem: ErrorBody } => ({
  ok: false,
  problem: { error, code, hint },
});

const DOT = /^\d{1,10}$/;
const MAX_PLAN_ITEMS = 100_000;
const MAX_COUNT = 10_000_000;
const AUDIT_DEFAULT_PAGE_SIZE = 50;
const AUDIT_MAX_PAGE_SIZE = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownKey(input: Record<string, unknown>, allowed: readonly string[]) {
  return Object.keys(input).find((key) => !allowed.includes(key));
}

export interface EstimatePlan {
  endpoint: Endpoint;
  dots?: string[];
  count?: number;
}

function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_PLAN_ITEMS)
    return undefined;
  return value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
}

function planDots(body: Record<string, unknown>): Parsed<string[] | undefined> {
  const dots: string[] = [];
  if (body.profile_ids !== undefined) {
    const ids = stringList(body.profile_ids);
    const bad = ids?.find((id) => dotOfProfileId(id) === undefined);
    if (ids === undefined || bad !== undefined) {
      const what = bad === undefined ? 'a non-empty array of strings' : `not "${bad.slice(0, 40)}"`;
      return fail(
        'invalid_profile_ids',
        `"profile_ids" must be ${what}`,
        'Use <dot>-<docket> ids such as 568253-MC277621.',
      );
    }
    dots.push(...ids.map((id) => dotOfProfileId(id) ?? ''));
  }
  if (body.dots !== undefined) {
    const list = stringList(body.dots);
    if (list === undefined || !list.every((dot) => DOT.test(dot))) {
      return fail(
        'invalid_dots',
        '"dots" must be a non-empty array of DOT numbers',
        'Send digits only, e.g. ["568253"].',
      );
    }
    dots.push(...list);
  }
  return { ok: true, value: dots.length > 0 ? dots : undefined };
}

function planCount(value: unknown): Parsed<number | undefined> {
  if (value === undefined) return { ok: true, value: undefined };
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_COUNT) {
    return { ok: true, value };
  }
  return fail(
    'invalid_count',
    `"count" must be an integer from 1 to ${MAX_COUNT}`,
    'Give the number of planned calls.',
  );
}

/** Body of POST /api/local/estimate: `{action, profile_ids?, dots?, count?}`. */
export function parseEstimate(body: unknown): Parsed<EstimatePlan> {
  if (!isRecord(body))
    return fail(
      'invalid_body',
      'The body must be a JSON object',
      'Send {"action": "monitoring/add", "profile_ids": [...]}.',
    );
  const extra = unknownKey(body, ['action', 'profile_ids', 'dots', 'count']);
  if (extra !== undefined)
    return fail(
      'unknown_field',
      `Unknown field "${extra.slice(0, 40)}"`,
      'Allowed: action, profile_ids, dots, count.',
    );
  if (!isEndpoint(body.action))
    return fail(
      'invalid_action',
      '"action" is not a metered endpoint',
      `One of: ${ENDPOINTS.join(', ')}.`,
    );
  const endpoint = body.action;
  const dots = planDots(body);
  if (!dots.ok) return dots;
  const count = planCount(body.count);
  if (!count.ok) return count;
  const rule = PRICE_RULES[endpoint].kind;
  if (rule === 'per-dot-month' && dots.value === undefined) {
    return fail(
      'missing_dots',
      `"${endpoint}" is priced per DOT: send profile_ids or dots`,
      'List the carriers the action concerns.',
    );
  }
  if (
    (rule === 'per-call' || rule === 'per-match') &&
    dots.value === undefined &&
    count.value === undefined
  ) {
    return fail(
      'missing_count',
      `"${endpoint}" is priced per call: send count`,
      'Give the number of planned calls.',
    );
  }
  return { ok: true, value: { endpoint, dots: dots.value, count: count.value } };
}

function positiveInt(raw: unknown, name: string, max: number, fallback: number): Parsed<number> {
  if (raw === undefined) return { ok: true, value: fallback };
  const value = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (value >= 1 && value <= max) return { ok: true, value };
  return fail(
    `invalid_${name}`,
    `"${name}" must be an integer from 1 to ${max}`,
    `Omit it for the default ${fallback}.`,
  );
}

/** Query of GET /api/local/audit: `user`, `dot`, `page`, `pageSize`. */
export function parseAuditQuery(query: unknown): Parsed<AuditQuery> {
  const input = isRecord(query) ? query : {};
  const extra = unknownKey(input, ['user', 'dot', 'page', 'pageSize']);
  if (extra !== undefined)
    return fail(
      'unknown_parameter',
      `Unknown parameter "${extra.slice(0, 40)}"`,
      'Allowed: user, dot, page, pageSize.',
    );
  const { user, dot } = input;
  if (user !== undefined && (typeof user !== 'string' || user.length === 0 || user.length > 128)) {
    return fail(
      'invalid_user',
      '"user" must be a user name',
      'Give one user name, as shown in the audit.',
    );
  }
  if (dot !== undefined && (typeof dot !== 'string' || !DOT.test(dot))) {
    return fail('invalid_dot', '"dot" must be a DOT number', 'Digits only, e.g. 568253.');
  }
  const page = positiveInt(input.page, 'page', 1_000_000, 1);
  if (!page.ok) return page;
  const pageSize = positiveInt(
    input.pageSize,
    'pageSize',
    AUDIT_MAX_PAGE_SIZE,
    AUDIT_DEFAULT_PAGE_SIZE,
  );
  if (!pageSize.ok) return pageSize;
  return { ok: true, value: { user, dot, page: page.value, pageSize: pageSize.value } };
}
