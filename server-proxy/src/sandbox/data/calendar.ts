/** Dates as whole days; the dataset has one fixed snapshot date so output is deterministic. */

export const SNAPSHOT_DATE = '2026-11-16';

const MS_PER_DAY = 86_400_000;
const DASH = 45;
const ZERO = 48;

/** The decimal number in `text[from, from + length)`, or -1 when a character is not a digit. */
function digitsAt(text: string, from: number, length: number): number {
  let value = 0;
  for (let i = from; i < from + length; i += 1) {
    const digit = text.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Days since 1970-01-01 of a `YYYY-MM-DD` date. Profile building calls this hundreds of times per
 * carrier, so the common shape is read digit by digit; anything else goes through `Date.parse`,
 * which defines the result (including its roll-over of e.g. 02-30 and NaN for nonsense).
 */
export function dayOf(date: string): number {
  if (date.length === 10 && date.charCodeAt(4) === DASH && date.charCodeAt(7) === DASH) {
    const year = digitsAt(date, 0, 4);
    const month = digitsAt(date, 5, 2);
    const day = digitsAt(date, 8, 2);
    if (year >= 100 && month >= 1 && month <= 12 && day >= 1 && day <= 31) {
      return Date.UTC(year, month - 1, day) / MS_PER_DAY;
    }
  }
  return Math.round(Date.parse(`${date}T00:00:00Z`) / MS_PER_DAY);
}

/** `YYYY-MM-DD` of each day number formatted so far (a few thousand distinct days at most). */
const formatted = new Map<number, string>();

/** `YYYY-MM-DD` of a day number. */
export function dateOf(day: number): string {
  let date = formatted.get(day);
  if (date === undefined) {
    date = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    formatted.set(day, date);
  }
  return date;
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
