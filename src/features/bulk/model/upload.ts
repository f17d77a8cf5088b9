/**
 * An uploaded list: a CSV/TSV/text file read by papaparse or an XLSX workbook's first sheet read by
 * read-excel-file, both loaded only when a file is chosen. The result is a grid of trimmed strings;
 * the user picks the column that holds the identifiers, helped by a preview and header detection.
 */
import type { ListEntry } from '../../../lib/bulk/list.ts';
import { classifyEntry } from '../../../lib/service/rules/entries.ts';

export type Grid = string[][];

/**
 * A file's rows with text, and the file's own number of each (1-based): blank rows are left out
 * of the grid but counted, so an entry is named by the row a spreadsheet shows it on.
 */
export interface Sheet {
  grid: Grid;
  /** `rows[i]`: the row of the file `grid[i]` was read from */
  rows: number[];
}

/** Rows read at most from a file: a job takes 5,000 identifiers; a header and blanks fit besides. */
const MAX_GRID_ROWS = 20_000;

export class UploadError extends Error {
  override readonly name = 'UploadError';
}

function isXlsx(file: File): boolean {
  return (
    /\.xlsx$/i.test(file.name) ||
    file.type === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
  );
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).trim();
}

/** Rows without any text are dropped (their numbers kept); every row keeps its own length. */
function clean(rows: readonly (readonly unknown[])[]): Sheet {
  const grid: Grid = [];
  const numbers: number[] = [];
  rows.forEach((row, index) => {
    if (grid.length >= MAX_GRID_ROWS) return;
    const cells = row.map(cellText);
    if (cells.some((cell) => cell !== '')) {
      grid.push(cells);
      numbers.push(index + 1);
    }
  });
  return { grid, rows: numbers };
}

/** CSV (any separator papaparse detects: comma, semicolon, tab) or a plain list. */
export async function parseCsvText(text: string): Promise<Sheet> {
  const { default: Papa } = await import('papaparse');
  // blank lines are kept here so that each row keeps its number; clean() leaves them out
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: false });
  return clean(parsed.data);
}

export async function readUpload(file: File): Promise<Sheet> {
  if (isXlsx(file)) {
    const { readSheet } = await import('read-excel-file/browser');
    try {
      return clean(await readSheet(file));
    } catch (error) {
      throw new UploadError(
        `${file.name} could not be read as an Excel workbook (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
  }
  if (/\.xls$/i.test(file.name)) {
    throw new UploadError(
      'Old .xls workbooks are not read: save it as .xlsx or CSV and try again.',
    );
  }
  return parseCsvText(await file.text());
}

export function columnCount(grid: Grid): number {
  return grid.reduce((most, row) => Math.max(most, row.length), 0);
}

function isIdentifier(cell: string | undefined): boolean {
  return cell !== undefined && cell !== '' && classifyEntry(cell).kind !== 'invalid';
}

/** How many cells of a column (header row excluded when `from` is 1) are identifiers. */
function identifiersIn(grid: Grid, column: number, from: number): number {
  let count = 0;
  for (let row = from; row < grid.length; row += 1) {
    if (isIdentifier(grid[row]?.[column])) count += 1;
  }
  return count;
}

/** The column holding the most identifiers (the first on a tie); 0 for an empty grid. */
export function likelyColumn(grid: Grid): number {
  let best = 0;
  let bestCount = -1;
  for (let column = 0; column < columnCount(grid); column += 1) {
    const count = identifiersIn(grid, column, 0);
    if (count > bestCount) {
      best = column;
      bestCount = count;
    }
  }
  return best;
}

/**
 * The first row is a header when its cell in the column is text that is no identifier while the
 * rows under it hold identifiers ("DOT number" over 568253, 2214589...).
 */
export function detectHeader(grid: Grid, column: number): boolean {
  const first = grid[0]?.[column];
  if (first === undefined || first === '' || isIdentifier(first)) return false;
  return identifiersIn(grid, column, 1) > 0;
}

export interface ColumnPreview {
  index: number;
  /** the header's text, or "Column 3" */
  label: string;
  /** the first few values under the header */
  sample: string[];
  /** non-empty cells under the header */
  filled: number;
}

export function columnPreviews(grid: Grid, header: boolean, size = 3): ColumnPreview[] {
  const body = header ? grid.slice(1) : grid;
  return Array.from({ length: columnCount(grid) }, (_, index) => {
    const values = body.map((row) => row[index] ?? '').filter((cell) => cell !== '');
    const title = header ? grid[0]?.[index] : undefined;
    return {
      index,
      label: title ? title : `Column ${index + 1}`,
      sample: values.slice(0, size),
      filled: values.length,
    };
  });
}

/** The column's non-empty cells, header excluded, in file order, each with its row in the file. */
export function columnEntries(sheet: Sheet, column: number, header: boolean): ListEntry[] {
  const entries: ListEntry[] = [];
  sheet.grid.forEach((row, index) => {
    const input = row[column] ?? '';
    if ((header && index === 0) || input === '') return;
    entries.push({ input, position: sheet.rows[index] ?? index + 1 });
  });
  return entries;
}
