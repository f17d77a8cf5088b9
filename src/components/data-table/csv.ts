/**
 * CSV for any table of the dashboard: named columns over the rows, written by papaparse (quoting,
 * separators, line breaks inside values) with spreadsheet formulas neutralised, CRLF line ends.
 * Every CSV export of the dashboard goes through `tableCsv` (exports-formulae.test.ts checks that no
 * other file writes CSV).
 */
import Papa from 'papaparse';

type CsvValue = string | number | boolean | null | undefined;

export interface CsvColumn<Row> {
  /** the header cell, e.g. "report_number" */
  header: string;
  value: (row: Row) => CsvValue;
}

/**
 * Text a spreadsheet could run as a formula when it opens the file: OWASP's leading `=`, `+`, `-`,
 * `@`, tab or carriage return; also `=`, `+`, `-`, `@` (or their full-width forms) after leading
 * white space, which some importers trim. Checked on the whole text, line breaks included (papaparse's
 * own `escapeFormulae` pattern, `/^[=+\-@\t\r].*$/`, misses a note like "=HYPERLINK(…)\nsecond line").
 */
const FORMULA_START = /^(?:[\t\r]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/;
/** "-3", "+1.5": a spreadsheet reads these as numbers, never as a formula; they stay as they are. */
const PLAIN_NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

/** The text with a leading `'` when a spreadsheet could run it as a formula (a cell shows it as text). */
export function neutralised(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

function cell(value: CsvValue): string | number {
  if (value === undefined || value === null) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  // a number (a -3 count) is written as a number; only text is neutralised
  return typeof value === 'number' ? value : neutralised(value);
}

/** One header line, then one line per row in the given order (no line end after the last). */
export function tableCsv<Row>(rows: readonly Row[], columns: readonly CsvColumn<Row>[]): string {
  const csv = Papa.unparse(
    {
      // a header can carry data too (compare's columns are named after carriers)
      fields: columns.map((column) => neutralised(column.header)),
      data: rows.map((row) => columns.map((column) => cell(column.value(row)))),
    },
    // neutralised above: papaparse's own pattern stops at a line break
    { newline: '\r\n', escapeFormulae: false },
  );
  // papaparse ends a header without rows with a line break
  return csv.endsWith('\r\n') ? csv.slice(0, -2) : csv;
}

/** `inspections-568253-2026-11-25.csv` */
export function csvFileName(subject: string, now: Date = new Date()): string {
  return `${subject}-${now.toISOString().slice(0, 10)}.csv`;
}
