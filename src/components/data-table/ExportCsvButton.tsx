import { downloadCsv } from '../../lib/download.ts';
import { tableCsv, type CsvColumn } from './csv.ts';

export interface CsvExport<Row> {
  columns: readonly CsvColumn<Row>[];
  /** the file's name, e.g. from `csvFileName('inspections-568253')` */
  fileName: string;
}

interface ExportCsvButtonProps<Row> extends CsvExport<Row> {
  rows: readonly Row[];
  /** what a row is, plural, for the button's name: "inspections" */
  noun: string;
}

const BUTTON =
  'rounded-md border border-neutral-300 bg-white px-2.5 py-1 text-xs font-medium text-neutral-800 hover:bg-neutral-100 disabled:cursor-not-allowed disabled:opacity-50 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100 dark:hover:bg-neutral-800';

/** Saves the rows given (all of them, in that order, not only those drawn) as a CSV file. */
export function ExportCsvButton<Row>({ rows, columns, fileName, noun }: ExportCsvButtonProps<Row>) {
  return (
    <button
      type="button"
      className={BUTTON}
      disabled={!rows.length}
      onClick={() => downloadCsv(tableCsv(rows, columns), fileName)}
    >
      Export {rows.length.toLocaleString('en-US')} {noun} as CSV
    </button>
  );
}
