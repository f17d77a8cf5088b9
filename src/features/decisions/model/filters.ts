/**
 * The Decisions page's filters live in the URL (`?dot_number=&decision=&user=&from=&to=&page=`).
 * Malformed values are dropped, so a bad URL never reaches the proxy as a 400; writing back keeps
 * only what is set.
 */
import { isDotNumber } from '../../../lib/carrier/paths.ts';
import { DECISIONS, type Decision, type DecisionFilters } from '../../../lib/vetting-api.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function text(params: URLSearchParams, key: string): string | undefined {
  const value = params.get(key)?.trim();
  return value ? value : undefined;
}

function isDecision(value: string | undefined): value is Decision {
  return value !== undefined && (DECISIONS as readonly string[]).includes(value);
}

export function readFilters(params: URLSearchParams): DecisionFilters {
  const dot = text(params, 'dot_number');
  const decision = text(params, 'decision');
  const from = text(params, 'from');
  const to = text(params, 'to');
  const page = Number(text(params, 'page') ?? '1');
  return {
    dot_number: dot && isDotNumber(dot) ? dot : undefined,
    decision: isDecision(decision) ? decision : undefined,
    user: text(params, 'user')?.slice(0, 200),
    from: from && DAY.test(from) ? from : undefined,
    to: to && DAY.test(to) ? to : undefined,
    page: Number.isInteger(page) && page > 1 && page < 1_000_000 ? page : undefined,
  };
}

export function writeFilters(filters: DecisionFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['dot_number', 'decision', 'user', 'from', 'to', 'page'] as const) {
    const value = filters[key];
    if (value !== undefined && value !== '' && !(key === 'page' && value === 1)) {
      params.set(key, String(value));
    }
  }
  return params;
}

/** "From" after "To": no record can match. The message the filter form shows, or undefined. */
export function dateRangeProblem(
  filters: Pick<DecisionFilters, 'from' | 'to'>,
): string | undefined {
  const { from, to } = filters;
  if (!from || !to || from <= to) return undefined;
  return `“From” (${from}) is after “To” (${to}). Change one of them; the date filter is not applied.`;
}

/** What is asked of the proxy: a backwards date range is left out (it would match nothing). */
export function appliedFilters(filters: DecisionFilters): DecisionFilters {
  return dateRangeProblem(filters) ? { ...filters, from: undefined, to: undefined } : filters;
}
