/**
 * The results table of a job: one row per carrier (its inputs listed when it was given more than
 * once), one per entry left out of the job with why, in the order of the user's list; the filters
 * and sort the URL keeps
 * (`?verdict=&status=&q=&sort=&dir=`), and the columns the CSV and XLSX exports write. Pure.
 */
import { compareCellValues, type CellValue } from '../../../components/data-table/DataTable.tsx';
import type { CsvColumn } from '../../../components/data-table/csv.ts';
import { ITEM_STATUSES, type BulkEstimate, type BulkItem } from '../../../lib/bulk/contract.ts';
import { positionLabel, type Numbering } from '../../../lib/bulk/list.ts';
import { BASIC_LABELS, type BasicCategory } from '../../../lib/service/basics.ts';
import { ROW_STATUS_LABELS, VERDICT_LABELS, type RowStatus, type Verdict } from './format.ts';

/** The statuses a row may have: an item's, or left out of the job before it ran. */
export const ROW_STATUSES = [...ITEM_STATUSES, 'left_out'] as const satisfies readonly RowStatus[];

export interface ResultRow {
  /** unique within a job: `item-<position>` or `left-<index>` */
  id: string;
  /** the line (pasted text) or row (uploaded file) of the input */
  row: number;
  identifier: string;
  /** every input naming this carrier with its line or row, when there were several */
  inputs: { identifier: string; row: number }[];
  dot: string | undefined;
  name: string | undefined;
  status: RowStatus;
  verdict: Verdict | undefined;
  authority: string | undefined;
  insurance: string | undefined;
  safetyRating: string | undefined;
  basicAlerts: string[];
  outOfService: boolean | undefined;
  linkedWarnings: number | undefined;
  reasons: string[];
  error: string | undefined;
  /** why the entry was left out of the job (invalid, repeat…), in full */
  leftOut: string | undefined;
  /** the same in one sentence, as the table shows it */
  leftOutShort?: string | undefined;
}

/** "Not a USDOT number or docket." of "Not a USDOT number or docket. Expected …" */
export function firstSentence(text: string): string {
  return /^.*?\.(?=\s|$)/.exec(text)?.[0] ?? text;
}

function orUndefined<T>(value: T | null | undefined): T | undefined {
  return value ?? undefined;
}

function basicLabel(basic: string): string {
  return Object.hasOwn(BASIC_LABELS, basic) ? BASIC_LABELS[basic as BasicCategory] : basic;
}

export function resultRow(item: BulkItem): ResultRow {
  const result = item.result;
  return {
    id: `item-${item.position}`,
    row: item.row ?? item.position,
    identifier: item.identifier,
    inputs: item.inputs ?? [],
    dot: item.dot_number,
    name: orUndefined(result?.name),
    status: item.status,
    verdict: item.verdict ?? result?.verdict,
    authority: orUndefined(result?.authority),
    insurance: orUndefined(result?.insurance),
    safetyRating: orUndefined(result?.safety_rating),
    basicAlerts: (result?.basic_alerts ?? []).map(basicLabel),
    outOfService: orUndefined(result?.out_of_service),
    linkedWarnings: result?.linked_warnings,
    reasons: result?.reasons ?? [],
    error: item.error?.message,
    leftOut: undefined,
  };
}

/** An entry left out of the job (kept in its estimate), as a row with its reason. */
function leftOutRow(entry: BulkEstimate['rejected'][number], index: number): ResultRow {
  return {
    id: `left-${index}`,
    row: entry.position,
    identifier: entry.input,
    inputs: [],
    dot: undefined,
    name: undefined,
    status: 'left_out',
    verdict: undefined,
    authority: undefined,
    insurance: undefined,
    safetyRating: undefined,
    basicAlerts: [],
    outOfService: undefined,
    linkedWarnings: undefined,
    reasons: [],
    error: undefined,
    leftOut: `${ROW_STATUS_LABELS.left_out} (${entry.reason.replace('_', ' ')}): ${entry.message}`,
    leftOutShort: `${ROW_STATUS_LABELS.left_out}: ${firstSentence(entry.message)}`,
  };
}

/** The job's rows: its carriers and the entries left out, in the order of the user's list. */
export function jobRows(
  items: readonly BulkItem[],
  rejected: BulkEstimate['rejected'],
): ResultRow[] {
  const rows = [...items.map(resultRow), ...rejected.map(leftOutRow)];
  // stable: a line holding several entries keeps their order
  return rows.sort((a, b) => a.row - b.row);
}

export const VERDICTS = ['pass', 'review', 'fail'] as const satisfies readonly Verdict[];

/** The sortable columns, by id: what each sorts by (also the table's `value`). */
export const SORT_VALUES = {
  row: (row: ResultRow) => row.row,
  identifier: (row: ResultRow) => row.identifier,
  dot: (row: ResultRow) => (row.dot === undefined ? undefined : Number(row.dot)),
  name: (row: ResultRow) => row.name,
  status: (row: ResultRow) => ROW_STATUS_LABELS[row.status],
  // worst first when descending: pass < review < fail
  verdict: (row: ResultRow) =>
    row.verdict === undefined ? undefined : VERDICTS.indexOf(row.verdict),
  authority: (row: ResultRow) => row.authority,
  insurance: (row: ResultRow) => row.insurance,
  safety: (row: ResultRow) => row.safetyRating,
  basics: (row: ResultRow) => row.basicAlerts.length,
  oos: (row: ResultRow) => row.outOfService,
  linked: (row: ResultRow) => row.linkedWarnings,
} satisfies Record<string, (row: ResultRow) => CellValue>;

export type SortId = keyof typeof SORT_VALUES;

function isSortId(value: string | null): value is SortId {
  return value !== null && Object.hasOwn(SORT_VALUES, value);
}

export interface ResultParams {
  verdict: Verdict | undefined;
  status: RowStatus | undefined;
  q: string;
  sort: { id: SortId; desc: boolean } | undefined;
}

/** Unknown values are dropped, so a hand-edited URL shows the whole table rather than nothing. */
export function readResultParams(params: URLSearchParams): ResultParams {
  const verdict = params.get('verdict');
  const status = params.get('status');
  const sort = params.get('sort');
  return {
    verdict: (VERDICTS as readonly string[]).includes(verdict ?? '')
      ? (verdict as Verdict)
      : undefined,
    status: (ROW_STATUSES as readonly string[]).includes(status ?? '')
      ? (status as RowStatus)
      : undefined,
    q: (params.get('q') ?? '').slice(0, 200),
    sort: isSortId(sort) ? { id: sort, desc: params.get('dir') === 'desc' } : undefined,
  };
}

/** The result filters written over `base` (other parameters stay); empty values are removed. */
export function writeResultParams(
  base: URLSearchParams,
  next: Partial<ResultParams>,
): URLSearchParams {
  const params = new URLSearchParams(base);
  const set = (key: string, value: string | undefined) => {
    if (value) params.set(key, value);
    else params.delete(key);
  };
  if ('verdict' in next) set('verdict', next.verdict);
  if ('status' in next) set('status', next.status);
  if ('q' in next) set('q', next.q?.trim() ? next.q : undefined);
  if ('sort' in next) {
    set('sort', next.sort?.id);
    set('dir', next.sort?.desc ? 'desc' : undefined);
  }
  return params;
}

/** Rows matching the verdict, status and text (identifier, DOT or name, any case). */
export function filterRows(rows: readonly ResultRow[], params: ResultParams): ResultRow[] {
  const needle = params.q.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (params.verdict === undefined || row.verdict === params.verdict) &&
      (params.status === undefined || row.status === params.status) &&
      (needle === '' ||
        row.identifier.toLowerCase().includes(needle) ||
        row.inputs.some((input) => input.identifier.toLowerCase().includes(needle)) ||
        (row.dot ?? '').includes(needle) ||
        (row.name ?? '').toLowerCase().includes(needle)),
  );
}

function missing(value: CellValue): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * The rows in the table's order (the same comparison as DataTable; missing values last either
 * way), for the exports: what is downloaded is what is shown.
 */
export function sortRows(
  rows: readonly ResultRow[],
  sort: ResultParams['sort'],
): readonly ResultRow[] {
  if (!sort) return rows;
  const value = SORT_VALUES[sort.id];
  const sign = sort.desc ? -1 : 1;
  return [...rows].sort((a, b) => {
    const left = value(a);
    const right = value(b);
    if (missing(left) || missing(right)) return Number(missing(left)) - Number(missing(right));
    return sign * compareCellValues(left, right);
  });
}

function yesNo(value: boolean | undefined): string {
  return value === undefined ? '' : value ? 'yes' : 'no';
}

/** "568253 (row 3); MC123456 (row 9)" */
export function inputsText(row: ResultRow, numbering: Numbering): string {
  return row.inputs
    .map((input) => `${input.identifier} (${positionLabel(numbering, input.row)})`)
    .join('; ');
}

/**
 * The export's columns: the line or row in the user's list, the table's columns, every input of a
 * carrier given more than once, the reasons, failures and why an entry was left out, in words.
 */
export function exportColumns(numbering: Numbering): readonly CsvColumn<ResultRow>[] {
  return [
    { header: numbering, value: (row) => row.row },
    ...EXPORT_COLUMNS,
    { header: 'inputs', value: (row) => inputsText(row, numbering) },
    { header: 'left_out', value: (row) => row.leftOut },
  ];
}

const EXPORT_COLUMNS: readonly CsvColumn<ResultRow>[] = [
  { header: 'identifier', value: (row) => row.identifier },
  { header: 'dot_number', value: (row) => row.dot },
  { header: 'name', value: (row) => row.name },
  { header: 'status', value: (row) => row.status },
  { header: 'verdict', value: (row) => (row.verdict ? VERDICT_LABELS[row.verdict] : '') },
  { header: 'authority', value: (row) => row.authority },
  { header: 'insurance', value: (row) => row.insurance },
  { header: 'safety_rating', value: (row) => row.safetyRating },
  { header: 'basic_alerts', value: (row) => row.basicAlerts.join('; ') },
  { header: 'out_of_service', value: (row) => yesNo(row.outOfService) },
  { header: 'linked_carrier_warnings', value: (row) => row.linkedWarnings },
  { header: 'reasons', value: (row) => row.reasons.join('; ') },
  { header: 'error', value: (row) => row.error },
];
