/** The FMCSA record as key/value rows, each value formatted by its field kind. */
import {
  formatCount,
  formatDate,
  formatDecimal,
  formatDollars,
  formatEin,
  formatFlag,
  formatPercent,
  formatPhone,
  MISSING,
} from '../../../../../lib/format.ts';
import {
  FMCSA_PROFILE_FIELDS,
  FMCSA_SPEC,
  type FmcsaField,
  type FmcsaProfile,
  type Kind,
} from '../../../../../lib/service/index.ts';

export interface FmcsaRow {
  key: FmcsaField;
  value: string;
}

const PERCENT_KEY = /percentile|threshold|_pct$/;
const PHONE_KEY = /telephone|fax|cellphone/;

function formatNumberKind(key: string, kind: Kind, value: number): string {
  if (kind === 'dollars') return formatDollars(value);
  if (kind === 'count') return formatCount(value);
  if (kind === 'year') return String(value);
  return PERCENT_KEY.test(key) ? formatPercent(value) : formatDecimal(value);
}

function formatText(key: string, value: string, kind: Kind): string {
  if (kind === 'date') return formatDate(value);
  if (key === 'ein') return formatEin(value);
  return PHONE_KEY.test(key) ? formatPhone(value) : value;
}

/** One FMCSA value for display; `null` (FMCSA has no value) reads "—". */
function formatFmcsaValue(key: FmcsaField, value: unknown): string {
  const kind = FMCSA_SPEC[key] as Kind;
  if (value === null || value === undefined) return MISSING;
  if (typeof value === 'boolean') return formatFlag(value);
  if (typeof value === 'number') return formatNumberKind(key, kind, value);
  if (typeof value === 'string') return formatText(key, value, kind);
  return JSON.stringify(value);
}

export function buildFmcsaRows(record: FmcsaProfile): FmcsaRow[] {
  return FMCSA_PROFILE_FIELDS.map((key) => ({ key, value: formatFmcsaValue(key, record[key]) }));
}

/** Rows whose key or displayed value contains the query (case-insensitive; `_` matches a space). */
export function filterFmcsaRows(rows: readonly FmcsaRow[], query: string): FmcsaRow[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...rows];
  const spaced = needle.replace(/\s+/g, '_');
  return rows.filter(
    (row) =>
      row.key.includes(needle) ||
      row.key.includes(spaced) ||
      row.value.toLowerCase().includes(needle),
  );
}
