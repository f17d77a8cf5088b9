/** Calendar helpers for the monitoring module; every date is a UTC calendar day. */

const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' of `at` (the profile's date format). */
export function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** 'YYYYMMDD' of `at` (the format of `last_changed_date` and of `date_min`/`date_max`). */
export function compactDay(at: Date): string {
  return isoDay(at).replaceAll('-', '');
}

/** Whole days since 1970-01-01 (UTC); the event script is keyed by this number. */
export function dayNumber(at: Date): number {
  return Math.floor(at.getTime() / DAY_MS);
}

/** Midnight UTC of day number `day`. */
export function dateOfDay(day: number): Date {
  return new Date(day * DAY_MS);
}

/** `at` moved by `days` whole days (negative moves back). */
export function addDays(at: Date, days: number): Date {
  return new Date(at.getTime() + days * DAY_MS);
}

/** Calendar month 'YYYY-MM' of `at`. */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** The months after `from` up to and including `to` ('YYYY-MM'), oldest first. */
export function monthsAfter(from: string, to: string): string[] {
  const months: string[] = [];
  let cursor = nextMonth(from);
  while (cursor <= to) {
    months.push(cursor);
    cursor = nextMonth(cursor);
  }
  return months;
}

function nextMonth(month: string): string {
  const [year, mm] = month.split('-').map(Number) as [number, number];
  return mm === 12 ? `${year + 1}-01` : `${year}-${String(mm + 1).padStart(2, '0')}`;
}

/** Midnight UTC on the first day of `month` ('YYYY-MM'). */
export function startOfMonth(month: string): Date {
  return new Date(`${month}-01T00:00:00.000Z`);
}

/**
 * A date value of any format the module meets ('YYYY-MM-DD', 'YYYY-MM-DDTHH:MM:SS', ISO with zone,
 * 'YYYYMMDD') as 'YYYYMMDD', or undefined when it is not a date.
 */
export function toCompactDay(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const dashed = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (dashed) return `${dashed[1]}${dashed[2]}${dashed[3]}`;
  return /^\d{8}$/.test(value) ? value : undefined;
}
