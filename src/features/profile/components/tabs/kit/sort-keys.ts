/**
 * Sort keys for the profile's long tables. Numbers, not strings: the virtual table compares
 * strings with `localeCompare` (numeric collation), which costs about a hundred times more than a
 * subtraction; sorting thousands of rows by date on every tab opening made that the tab's main cost.
 */

/** 2026-11-15 → 20261115; undefined when the value does not start with an ISO date. */
export function dateSortKey(value: string | null | undefined): number | undefined {
  const match = value ? /^(\d{4})-(\d{2})-(\d{2})/.exec(value) : null;
  if (!match) return undefined;
  const [, year, month, day] = match;
  return Number(year) * 10_000 + Number(month) * 100 + Number(day);
}

/** A whole-number id as a number ("5" → 5), any other id as it is. */
export function idSortKey(value: string | null | undefined): number | string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  return /^\d{1,15}$/.test(value) ? Number(value) : value;
}
