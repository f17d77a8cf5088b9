/**
 * CSV for any table of the dashboard: named columns over the rows, written by papaparse (quoting,
 * separators, line breaks inside values) with spreadsheet formulas neutralised, CRLF line ends.
 */
import Papa from 'papaparse';

type CsvValue = string | number | boolean | null | undefined;

export interface CsvColumn<Row> {
  /** the header cell, e.g. "report_number" */
  header: string;
  value: (row: Row) => CsvValue;
}

function cell(value: CsvValue): string | number {
  if (value === undefined || value === null) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return value;
}

/** One header line, then one line per row in the given order (no line end after the last). */
export function tableCsv<Row>(rows: readonly Row[], columns: readonly CsvColumn<Row>[]): string {
  const csv = Papa.unparse(
    {
      fields: columns.map((column) => column.header),
      data: rows.map((row) => columns.map((column) => cell(column.value(row)))),
    },
    { newline: '\r\n', escapeFormulae: true },
  );
  // papaparse ends a header without rows with a line break
  return csv.endsWith('\r\n') ? csv.slice(0, -2) : csv;
}

/** `inspections-568253-2026-11-25.csv` */
export function csvFileName(subject: string, now: Date = new Date()): string {
  return `${subject}-${now.toISOString().slice(0, 10)}.csv`;
}
