/**
 * Formatting, once, for every view: the shared parser has already turned the service's strings into
 * numbers, booleans and ISO dates, so these only decide how a value reads. Missing values read "—".
 */

export const MISSING = '—';

const countFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimalFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const dollarFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});
const centsFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const percentFormat = new Intl.NumberFormat('en-US', {
  style: 'percent',
  maximumFractionDigits: 1,
});

function isNumber(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A counter as a grouped whole number: 101844 → "101,844". */
export function formatCount(value: number | null | undefined): string {
  return isNumber(value) ? countFormat.format(value) : MISSING;
}

/** A measure or other decimal: 3.14159 → "3.14". */
export function formatDecimal(value: number | null | undefined): string {
  return isNumber(value) ? decimalFormat.format(value) : MISSING;
}

/** A dollar amount without cents: 1000000 → "$1,000,000". */
export function formatDollars(value: number | null | undefined): string {
  return isNumber(value) ? dollarFormat.format(value) : MISSING;
}

/** A price or spend with cents: 0.5 → "$0.50". */
export function formatUsd(value: number | null | undefined): string {
  return isNumber(value) ? centsFormat.format(value) : MISSING;
}

/** A 0–1 rate or percentile as a percentage: 0.183 → "18.3%". */
export function formatPercent(value: number | null | undefined): string {
  return isNumber(value) ? percentFormat.format(value) : MISSING;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A calendar date `YYYY-MM-DD` (or the date part of an ISO timestamp) as "16 Nov 2026". Read as a
 * calendar date, never shifted by the viewer's time zone.
 */
export function formatDate(value: string | null | undefined): string {
  const match = value ? /^(\d{4})-(\d{2})-(\d{2})/.exec(value) : null;
  if (!match) return value ? value : MISSING;
  const [, year, month, day] = match;
  const name = MONTHS[Number(month) - 1];
  return name ? `${Number(day)} ${name} ${year}` : (value ?? MISSING);
}

/** A moment (ISO timestamp) in the viewer's time zone: "16 Nov 2026, 14:05". */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return MISSING;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return MISSING;
  dateTimeFormat ??= new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  return dateTimeFormat.format(date);
}

/** Made on first use (in the viewer's time zone) and kept: building one costs more than using it. */
let dateTimeFormat: Intl.DateTimeFormat | undefined;

/** How long ago a moment was, relative to `now`: "just now", "5 min ago", "3 h ago", "2 days ago". */
export function formatAge(value: string | Date | null | undefined, now: Date = new Date()): string {
  if (!value) return MISSING;
  const date = value instanceof Date ? value : new Date(value);
  const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
  if (Number.isNaN(seconds)) return MISSING;
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86_400);
  return days === 1 ? '1 day ago' : `${days} days ago`;
}

/** Tri-state indicators: only an explicit false is a failure; null/absent is "not applicable". */
export type TriState = 'pass' | 'fail' | 'not-applicable';

export function triState(value: boolean | null | undefined): TriState {
  if (value === true) return 'pass';
  if (value === false) return 'fail';
  return 'not-applicable';
}

export const TRI_STATE_LABELS: Record<TriState, string> = {
  pass: 'Pass',
  fail: 'Fail',
  'not-applicable': 'Not applicable',
};

/** A yes/no flag; absent reads "—" (unknown), not "No". */
export function formatFlag(value: boolean | null | undefined): string {
  if (value === true) return 'Yes';
  if (value === false) return 'No';
  return MISSING;
}

/** The risk score, or "Not scored" when absent (intrastate, private and non-carrier entities). */
export function formatRiskScore(value: string | null | undefined): string {
  return value ? value : 'Not scored';
}

/** A ten-digit North American phone number as "(412) 747-8482"; anything else as sent. */
export function formatPhone(value: string | null | undefined): string {
  if (!value) return MISSING;
  const digits = value.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (national.length !== 10) return value;
  return `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`;
}

/** An EIN as "34-1441019". */
export function formatEin(value: string | null | undefined): string {
  if (!value) return MISSING;
  const digits = value.replace(/\D/g, '');
  return digits.length === 9 ? `${digits.slice(0, 2)}-${digits.slice(2)}` : value;
}
