/**
 * A small, typed table shell over TanStack Table v9, for every data table of the dashboard.
 *
 * API (keep it small):
 * - `columns`: `{ id, header, value, cell?, sortable?, align?, rowHeader? }[]`. `value(row)` is what
 *   the column sorts by and shows when there is no `cell(row)`. Columns are sortable (first click ascending) unless
 *   `sortable: false`; missing values (undefined, '') always sort last.
 * - `data` + `getRowId(row)`; `caption` (required: every table is named; `captionHidden` keeps it
 *   for screen readers only).
 * - `onRowActivate(row)`: makes each row clickable and focusable (Enter or Space activates). Clicks on
 *   links, buttons and inputs inside the row keep their own behaviour.
 * - `empty`: shown in the body when there are no rows.
 * - Paging, either `pageSize` (client side, over the sorted rows) or `pager` (controlled, e.g. a
 *   server's pages: `{ page, pageCount, onPageChange }`, pages 1-based).
 * - `initialSort`: `{ id, desc? }`.
 * Headers carry `aria-sort`; the sort control is a button inside the header cell.
 */
import { useMemo, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import {
  createPaginatedRowModel,
  createSortedRowModel,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type CellContext,
  type ColumnDef,
  type PaginationState,
  type Row,
  type RowData,
  type SortingState,
} from '@tanstack/react-table';
import { Pager, type PagerProps } from './Pager.tsx';

export type CellValue = string | number | null | undefined;

export interface DataTableColumn<TRow extends RowData> {
  id: string;
  header: string;
  value: (row: TRow) => CellValue;
  cell?: (row: TRow) => ReactNode;
  sortable?: boolean;
  align?: 'start' | 'end';
  /** Render this column's cells as row headers (`<th scope="row">`), e.g. the name column. */
  rowHeader?: boolean;
}

export interface DataTableProps<TRow extends RowData> {
  caption: ReactNode;
  captionHidden?: boolean;
  columns: readonly DataTableColumn<TRow>[];
  data: readonly TRow[];
  getRowId: (row: TRow) => string;
  onRowActivate?: (row: TRow) => void;
  empty?: ReactNode;
  pageSize?: number;
  pager?: PagerProps;
  initialSort?: { id: string; desc?: boolean };
}

const features = tableFeatures({
  rowSortingFeature,
  rowPaginationFeature,
  sortedRowModel: createSortedRowModel(),
  paginatedRowModel: createPaginatedRowModel(),
});

type Features = typeof features;

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** One collator for every comparison: `localeCompare` with options builds one per call. */
const NATURAL = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Numbers numerically, text naturally ("MC9" before "MC10"), case-insensitively. */
export function compareCellValues(a: CellValue, b: CellValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return NATURAL.compare(String(a), String(b));
}

function sortRows<TRow extends RowData>(
  rowA: Row<Features, TRow>,
  rowB: Row<Features, TRow>,
  id: string,
): number {
  return compareCellValues(rowA.getValue<CellValue>(id), rowB.getValue<CellValue>(id));
}

function useColumnDefs<TRow extends RowData>(
  columns: readonly DataTableColumn<TRow>[],
): ColumnDef<Features, TRow>[] {
  return useMemo(
    () =>
      columns.map((column) => ({
        id: column.id,
        header: column.header,
        accessorFn: (row: TRow): unknown => {
          const value = column.value(row);
          return isMissing(value) ? undefined : value;
        },
        enableSorting: column.sortable ?? true,
        sortUndefined: 'last' as const,
        sortDescFirst: false,
        sortFn: sortRows<TRow>,
        cell: (context: CellContext<Features, TRow, unknown>) =>
          column.cell ? column.cell(context.row.original) : (context.getValue() as CellValue),
      })),
    [columns],
  );
}

const INTERACTIVE = 'a, button, input, select, textarea, summary, [role="button"]';

function fromInteractiveChild(event: MouseEvent | KeyboardEvent): boolean {
  const target = event.target as Element;
  return target !== event.currentTarget && target.closest(INTERACTIVE) !== null;
}

export function DataTable<TRow extends RowData>(props: DataTableProps<TRow>) {
  const { columns, data, getRowId, onRowActivate, pageSize } = props;
  const columnDefs = useColumnDefs(columns);
  const [sorting, setSorting] = useState<SortingState>(
    props.initialSort ? [{ id: props.initialSort.id, desc: props.initialSort.desc ?? false }] : [],
  );
  const [pagination, setPagination] = useState<PaginationState>({
    pageIndex: 0,
    pageSize: pageSize ?? Math.max(data.length, 1),
  });
  const effectivePagination = { ...pagination, pageSize: pageSize ?? Math.max(data.length, 1) };
  const rows = useMemo(() => [...data], [data]);
  const table = useTable({
    features,
    columns: columnDefs,
    data: rows,
    getRowId: (row) => getRowId(row),
    state: { sorting, pagination: effectivePagination },
    onSortingChange: setSorting,
    onPaginationChange: setPagination,
  });
  const alignOf = (id: string) => columns.find((c) => c.id === id)?.align ?? 'start';
  const isRowHeader = (id: string) => columns.find((c) => c.id === id)?.rowHeader === true;

  const activate = (event: MouseEvent | KeyboardEvent, row: TRow) => {
    if (!onRowActivate || fromInteractiveChild(event)) return;
    if ('key' in event && event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    onRowActivate(row);
  };

  const clientPager: PagerProps | undefined =
    pageSize && data.length > pageSize
      ? {
          page: table.state.pagination.pageIndex + 1,
          pageCount: table.getPageCount(),
          onPageChange: (page) => table.setPageIndex(page - 1),
        }
      : undefined;
  const pager = props.pager ?? clientPager;
  const bodyRows = table.getRowModel().rows;

  return (
    <div className="space-y-3">
      <div className="relative overflow-x-auto rounded-lg border border-neutral-200 dark:border-neutral-800">
        <table className="w-full border-collapse text-left text-sm">
          <caption
            className={
              props.captionHidden
                ? 'sr-only'
                : 'px-3 py-2 text-left text-sm font-medium text-neutral-700 dark:text-neutral-300'
            }
          >
            {props.caption}
          </caption>
          <thead className="bg-neutral-50 text-xs tracking-wide text-neutral-600 uppercase dark:bg-neutral-900 dark:text-neutral-400">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const ariaSort =
                    sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none';
                  const canSort = header.column.getCanSort();
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      aria-sort={canSort ? ariaSort : undefined}
                      className={`px-3 py-2 font-semibold ${alignOf(header.column.id) === 'end' ? 'text-right' : ''}`}
                    >
                      {canSort ? (
                        <button
                          type="button"
                          onClick={header.column.getToggleSortingHandler()}
                          className="inline-flex items-center gap-1 rounded uppercase hover:text-neutral-950 dark:hover:text-neutral-50"
                        >
                          <table.FlexRender header={header} />
                          <SortMark direction={sorted} />
                        </button>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-neutral-200 dark:divide-neutral-800">
            {bodyRows.length === 0 ? (
              <tr>
                <td
                  colSpan={columns.length}
                  className="px-3 py-6 text-center text-neutral-600 dark:text-neutral-400"
                >
                  {props.empty ?? 'Nothing to show.'}
                </td>
              </tr>
            ) : (
              bodyRows.map((row) => (
                <tr
                  key={row.id}
                  tabIndex={onRowActivate ? 0 : undefined}
                  onClick={onRowActivate ? (event) => activate(event, row.original) : undefined}
                  onKeyDown={onRowActivate ? (event) => activate(event, row.original) : undefined}
                  className={
                    onRowActivate
                      ? 'cursor-pointer hover:bg-neutral-50 focus-visible:bg-neutral-50 dark:hover:bg-neutral-800/60 dark:focus-visible:bg-neutral-800/60'
                      : undefined
                  }
                >
                  {row.getAllCells().map((cell) => {
                    const Cell = isRowHeader(cell.column.id) ? 'th' : 'td';
                    return (
                      <Cell
                        key={cell.id}
                        scope={Cell === 'th' ? 'row' : undefined}
                        className={`px-3 py-2 align-top font-normal ${alignOf(cell.column.id) === 'end' ? 'text-right tabular-nums' : ''}`}
                      >
                        <table.FlexRender cell={cell} />
                      </Cell>
                    );
                  })}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {pager && pager.pageCount > 1 ? <Pager {...pager} /> : null}
    </div>
  );
}

function SortMark({ direction }: { direction: false | 'asc' | 'desc' }) {
  const mark = direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕';
  return (
    <span aria-hidden="true" className={direction ? '' : 'text-neutral-400 dark:text-neutral-500'}>
      {mark}
    </span>
  );
}
