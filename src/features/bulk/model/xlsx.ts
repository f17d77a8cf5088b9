/**
 * The results as an .xlsx workbook, written by write-excel-file (loaded when the button is used,
 * not with the page). Same columns and order as the CSV; cells that look like formulas are text.
 */
import type { CsvColumn } from '../../../components/data-table/csv.ts';

type Value = string | number | boolean | null | undefined;

function cell(value: Value): { value: string | number } | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'boolean') return { value: value ? 'yes' : 'no' };
  return { value };
}

export async function xlsxBlob<Row>(
  rows: readonly Row[],
  columns: readonly CsvColumn<Row>[],
): Promise<Blob> {
  const { default: writeXlsxFile } = await import('write-excel-file/browser');
  const header = columns.map((column) => ({ value: column.header, fontWeight: 'bold' as const }));
  const body = rows.map((row) => columns.map((column) => cell(column.value(row))));
  return writeXlsxFile([header, ...body], { sheet: 'Results' }).toBlob();
}

/** `bulk-<id>-2026-11-26.xlsx` */
export function xlsxFileName(subject: string, now: Date = new Date()): string {
  return `${subject}-${now.toISOString().slice(0, 10)}.xlsx`;
}
