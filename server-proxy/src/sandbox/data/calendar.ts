/** Dates as whole days; the dataset has one fixed snapshot date so output is deterministic. */

export const SNAPSHOT_DATE = '2026-11-16';

const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
export function dayOf(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / MS_PER_DAY);
}

/** `YYYY-MM-DD` of a day number. */
export function dateOf(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export const SNAPSHOT_DAY = dayOf(SNAPSHOT_DATE);

/** The date `days` days before the snapshot. */
export function daysAgo(days: number): string {
  return dateOf(SNAPSHOT_DAY - days);
}

/** Whole days from `date` to the snapshot. */
export function ageInDays(date: string): number {
  return SNAPSHOT_DAY - dayOf(date);
}

/** `YYYY-MM-01` of the month holding `date`. */
export function monthOf(date: string): string {
  return `${date.slice(0, 7)}-01`;
}
