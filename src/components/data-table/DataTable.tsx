/**
 * The one data table of the dashboard: a typed shell over TanStack Table v9 (rows, sort state) that
 * windows its rows with TanStack Virtual once there are many, and stays a real <table> throughout.
 *
 * API (keep it small):
 * - `columns`: `{ id, header, value, cell?, sortable?, firstDirection?, align?, className?,
 *   rowHeader? }[]`. `value(row)` is what the column sorts by and shows when there is no `cell(row)`.
 *   Columns are sortable unless `sortable: false`; the first click sorts `firstDirection` (default
 *   ascending); missing values (undefined, '') always sort last.
 * - `sortable={false}`: a table that does not sort (its columns may still opt in).
 * - `data` + `getRowId(row)`; `caption` (required: every table is named; `captionHidden` keeps it
 *   for screen readers only).
 * - Sort: uncontrolled with `initialSort`, or controlled with `sort` + `onSortChange` (e.g. a page
 *   that keeps the sort in its URL).
 * - `onRowActivate(row)`: makes each row clickable and focusable (Enter or Space activates). Clicks on
 *   links, buttons and inputs inside the row keep their own behaviour.
 * - `onSelect(id)` + `selectedId`: the row-header cell becomes a toggle button (`selectLabel`); the
 *   selected row is marked and scrolled into view whenever the selection changes.
 * - `renderDetail(row)`: an expand button per row opens a detail row under it (`expandLabel`);
 *   with `detailToggle="cell"` a column's `cell(row, detail)` renders its own toggle instead.
 * - `csv`: an "Export … as CSV" button above the table, for every row in the table's order.
 * - `empty`: shown in the body when there are no rows; `footer`: <tfoot> rows (a total).
 * - Paging, either `pageSize` (client side, over the sorted rows) or `pager` (controlled, e.g. a
 *   server's pages: `{ page, pageCount, onPageChange }`, pages 1-based).
 * - `maxHeight`: the table scrolls inside a box of that height, its header sticky. From
 *   `VIRTUAL_FROM` rows on, only the rows in view are rendered (each row its own measured <tbody>,
 *   spacer row groups for the rest) and the box is bounded even without `maxHeight`.
 * Headers carry `aria-sort`; the sort control is a button inside the header cell.
 */
import {
  Fragment,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import {
  rowSortingFeature,
  tableFeatures,
  useTable,
  type CellContext,
  type ColumnDef,
  type Row,
  type RowData,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { ScrollHintFrame, useScrollEdges } from '../ScrollHint.tsx';
import { ExportCsvButton, type CsvExport } from './ExportCsvButton.tsx';
import { Pager, type PagerProps } from './Pager.tsx';
import { Spacer, useRowWindow } from './row-window.tsx';

export type CellValue = string | number | boolean | null | undefined;

export interface DataTableColumn<TRow extends RowData> {
  id: string;
  header: string;
  value: (row: TRow) => CellValue;
  /** the cell's content; `detail` opens and closes the row's detail row (see `detailToggle`) */
  cell?: (row: TRow, detail: DetailToggle) => ReactNode;
  sortable?: boolean;
  /** direction of the first click on the header (default 'asc') */
  firstDirection?: 'asc' | 'desc';
  align?: 'start' | 'end';
  /** extra classes of the header and cells (width, wrapping) */
  className?: string;
  /** Render this column's cells as row headers (`<th scope="row">`), e.g. the name column. */
  rowHeader?: boolean;
}

interface DetailToggle {
  expanded: boolean;
  toggle: () => void;
  /** the id of the detail row (for `aria-controls`) */
  id: string;
}

export interface DataTableSort {
  id: string;
  desc: boolean;
}

export interface DataTableProps<TRow extends RowData> {
  caption: ReactNode;
  captionHidden?: boolean;
  columns: readonly DataTableColumn<TRow>[];
  data: readonly TRow[];
  getRowId: (row: TRow) => string;
  /** false: no column sorts (a column's own `sortable` still wins) */
  sortable?: boolean;
  onRowActivate?: (row: TRow) => void;
  /** extra classes of a row (e.g. a highlight for a row that needs attention) */
  rowClassName?: (row: TRow) => string | undefined;
  empty?: ReactNode;
  pageSize?: number;
  pager?: PagerProps;
  initialSort?: { id: string; desc?: boolean };
  /** controlled sort (with `onSortChange`); undefined: unsorted */
  sort?: DataTableSort | undefined;
  onSortChange?: (sort: DataTableSort | undefined) => void;
  selectedId?: string | undefined;
  onSelect?: ((id: string) => void) | undefined;
  /** accessible name of the select button of a row, e.g. "Show inspection of 3 Mar 2026 on map" */
  selectLabel?: (row: TRow) => string;
  /** content of the expandable detail row of a row */
  renderDetail?: ((row: TRow) => ReactNode) | undefined;
  /** accessible name of the expand button of a row */
  expandLabel?: (row: TRow) => string;
  /** 'column' (default): an expand button column first; 'cell': a column's `cell` renders it */
  detailToggle?: 'column' | 'cell';
  /** "Export … as CSV" above the table: every row, in the table's order (`noun`: a row, plural) */
  csv?: (CsvExport<TRow> & { noun: string }) | undefined;
  /** rows of a <tfoot> (e.g. a total), as <tr> elements */
  footer?: ReactNode;
  /** window the rows: by default from `VIRTUAL_FROM` rows on; false for a table that pages itself */
  virtualize?: boolean;
  /** CSS max height (px) of the scrolling box */
  maxHeight?: number;
  /** height (px) assumed for a row before it is measured (virtual mode) */
  estimateRowHeight?: number;
}

/** From this many rows on, only the rows in view are rendered. */
const VIRTUAL_FROM = 250;
const VIRTUAL_MAX_HEIGHT = 480;

// TanStack keeps the sort state and the header toggles and builds each row's cells once per data
// array; the order (`sortedOrder` over the sort column's values) and the client-side pages are
// worked out here, so a header click on thousands of rows re-orders the rows TanStack already
// built instead of rebuilding them (`manualSorting`: TanStack does not sort).
const features = tableFeatures({ rowSortingFeature });

type Features = typeof features;
type TableRow<TRow extends RowData> = Row<Features, TRow>;

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** One collator for every comparison: `localeCompare` with options builds one per call. */
const NATURAL = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Numbers numerically, flags false first, text naturally ("MC9" before "MC10"), any case. */
export function compareCellValues(a: CellValue, b: CellValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return NATURAL.compare(String(a), String(b));
}

/** Digit runs longer than this (after leading zeros) are left to the collator. */
const MAX_DIGITS = 15;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * A key whose plain `<` order is `NATURAL`'s order, for text of ASCII letters, digits and spaces
 * (most carrier names, identifiers, statuses); undefined for anything else (the collator decides).
 * Letters compare without case; each digit run compares by value: its length without leading zeros
 * (one character, below every letter and above the space) then its digits. The collator weighs
 * space < digits < letters too; a unit test holds the two orders equal. A collator comparison
 * costs about ten times a string `<`, and a header click on 5,000 rows makes ~60,000 of them.
 */
export function naturalKey(text: string): string | undefined {
  let key = '';
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (isDigit(code)) {
      let start = i;
      while (i < text.length && isDigit(text.charCodeAt(i))) i += 1;
      while (start < i - 1 && text.charCodeAt(start) === 48) start += 1;
      const digits = text.charCodeAt(start) === 48 ? '' : text.slice(start, i);
      if (digits.length > MAX_DIGITS) return undefined;
      key += String.fromCharCode(48 + digits.length) + digits;
      continue;
    }
    const lower = code | 32; // A-Z → a-z
    if (code === 32) key += ' ';
    else if (lower >= 97 && lower <= 122) key += String.fromCharCode(lower);
    else return undefined;
    i += 1;
  }
  return key;
}

/** The `naturalKey` of each text value (undefined for the rest). */
function naturalKeys(values: readonly CellValue[]): (string | undefined)[] {
  return values.map((value) => (typeof value === 'string' ? naturalKey(value) : undefined));
}

/**
 * The order of rows sorted by their `values` (one per row), as `compareCellValues` orders them:
 * missing values (undefined) last in either direction, equal values in their original order.
 */
export function sortedOrder(
  values: readonly CellValue[],
  desc: boolean,
  keys: readonly (string | undefined)[] = naturalKeys(values),
): number[] {
  const present: number[] = [];
  const missing: number[] = [];
  values.forEach((value, index) => (value === undefined ? missing : present).push(index));
  const compare = (a: number, b: number): number => {
    const keyA = keys[a];
    const keyB = keys[b];
    if (keyA !== undefined && keyB !== undefined) return keyA < keyB ? -1 : keyA > keyB ? 1 : 0;
    return compareCellValues(values[a], values[b]);
  };
  const sign = desc ? -1 : 1;
  present.sort((a, b) => sign * compare(a, b) || a - b);
  return present.concat(missing);
}

interface ColumnValues {
  values: CellValue[];
  keys: (string | undefined)[];
}

/**
 * Each data array's sort values and natural keys, per value function: switching the sort between
 * columns and back reads no row again. Held only while the data array lives.
 */
const columnCache = new WeakMap<object, Map<(row: never) => CellValue, ColumnValues>>();

function columnValues<TRow>(data: readonly TRow[], valueOf: (row: TRow) => CellValue) {
  let byColumn = columnCache.get(data);
  if (!byColumn) {
    byColumn = new Map();
    columnCache.set(data, byColumn);
  }
  let column = byColumn.get(valueOf);
  if (!column) {
    const values = data.map((row) => {
      const value = valueOf(row);
      return isMissing(value) ? undefined : value;
    });
    column = { values, keys: naturalKeys(values) };
    byColumn.set(valueOf, column);
  }
  return column;
}

/**
 * The order of the rows under the sort (undefined: unsorted), from the sort column's cached values
 * and natural keys (`columnValues`).
 */
function useSortOrder<TRow extends RowData>(
  data: readonly TRow[],
  columns: readonly DataTableColumn<TRow>[],
  sorting: SortingState,
): number[] | undefined {
  const first = sorting[0];
  const valueOf = first ? columns.find((column) => column.id === first.id)?.value : undefined;
  const desc = first?.desc ?? false;
  const column = useMemo(
    () => (valueOf ? columnValues(data, valueOf) : undefined),
    [data, valueOf],
  );
  return useMemo(
    () => (column ? sortedOrder(column.values, desc, column.keys) : undefined),
    [column, desc],
  );
}

function useColumnDefs<TRow extends RowData>(
  columns: readonly DataTableColumn<TRow>[],
  sortable: boolean,
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
        enableSorting: column.sortable ?? sortable,
        sortDescFirst: column.firstDirection === 'desc',
        // a column's own `cell` is rendered by BodyRow, which holds the row's detail state
        cell: (context: CellContext<Features, TRow, unknown>) => context.getValue() as CellValue,
      })),
    [columns, sortable],
  );
}

/** Sorting state, kept here or by the caller (`sort` + `onSortChange`). */
function useSorting<TRow extends RowData>(
  props: DataTableProps<TRow>,
): [SortingState, (updater: Updater<SortingState>) => void] {
  const { initialSort, onSortChange } = props;
  const [own, setOwn] = useState<SortingState>(
    initialSort ? [{ id: initialSort.id, desc: initialSort.desc ?? false }] : [],
  );
  if (!onSortChange) return [own, setOwn];
  const controlled: SortingState = props.sort ? [props.sort] : [];
  const change = (updater: Updater<SortingState>) => {
    const next = typeof updater === 'function' ? updater(controlled) : updater;
    const first = next[0];
    onSortChange(first ? { id: first.id, desc: first.desc } : undefined);
  };
  return [controlled, change];
}

const INTERACTIVE = 'a, button, input, select, textarea, summary, [role="button"]';

function fromInteractiveChild(event: MouseEvent | KeyboardEvent): boolean {
  const target = event.target as Element;
  return target !== event.currentTarget && target.closest(INTERACTIVE) !== null;
}

function useExpanded(): [ReadonlySet<string>, (id: string) => void] {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return [expanded, toggle];
}

const CELL = 'px-3 py-2 align-top';
const SELECT_BUTTON =
  'rounded px-1 text-left font-medium text-blue-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300';

export function DataTable<TRow extends RowData>(props: DataTableProps<TRow>) {
  const { columns, data, getRowId, pageSize, selectedId, renderDetail } = props;
  const columnDefs = useColumnDefs(columns, props.sortable ?? true);
  const [sorting, setSorting] = useSorting(props);
  const [pageIndex, setPageIndex] = useState(0);
  const rows = useMemo(() => [...data], [data]);
  const table = useTable({
    features,
    columns: columnDefs,
    data: rows,
    getRowId: (row) => getRowId(row),
    manualSorting: true,
    state: { sorting },
    onSortingChange: (updater) => {
      // a new order starts again from its first page
      setPageIndex(0);
      setSorting(updater);
    },
  });
  const [expanded, toggleExpanded] = useExpanded();
  const order = useSortOrder(data, columns, sorting);
  const unsortedRows = table.getCoreRowModel().rows;
  const sortedRows = useMemo(
    () => (order ? order.map((index) => unsortedRows[index] as TableRow<TRow>) : unsortedRows),
    [order, unsortedRows],
  );
  const pageCount = pageSize ? Math.max(1, Math.ceil(sortedRows.length / pageSize)) : 1;
  const page = Math.min(pageIndex, pageCount - 1);
  const bodyRows = pageSize ? sortedRows.slice(page * pageSize, (page + 1) * pageSize) : sortedRows;
  const virtual = props.virtualize ?? bodyRows.length >= VIRTUAL_FROM;
  const maxHeight = props.maxHeight ?? (virtual ? VIRTUAL_MAX_HEIGHT : undefined);
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const { ref: edgesRef, edges } = useScrollEdges<HTMLDivElement>();
  const setScrollBox = useCallback(
    (element: HTMLDivElement | null) => {
      scrollRef.current = element;
      edgesRef(element);
    },
    [edgesRef],
  );
  const rowWindow = useRowWindow({
    count: virtual ? bodyRows.length : 0,
    scrollRef,
    // Keyed by position, not by row id: after a sort or a scroll jump React updates the rendered
    // row groups in place instead of replacing them, and the virtualizer does not measure each new
    // row group on mount (one forced layout per row); a ResizeObserver re-measures what changed.
    rowKey: (index) => index,
    estimate: props.estimateRowHeight ?? 41,
    fallbackHeight: maxHeight ?? VIRTUAL_MAX_HEIGHT,
  });

  // bring the selected row into view when the selection changes (a map click selects one)
  const selectedIndex = selectedId ? bodyRows.findIndex((row) => row.id === selectedId) : -1;
  const { virtualizer } = rowWindow;
  useEffect(() => {
    if (selectedIndex < 0) return;
    if (virtual) {
      virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
      return;
    }
    const element = [...(scrollRef.current?.querySelectorAll('tr[data-row-id]') ?? [])].find(
      (tr) => tr.getAttribute('data-row-id') === selectedId,
    );
    // jsdom (unit tests) has no scrolling
    if (element && typeof element.scrollIntoView === 'function') {
      element.scrollIntoView({ block: 'nearest' });
    }
  }, [selectedIndex, selectedId, virtual, virtualizer]);

  const clientPager: PagerProps | undefined =
    pageSize && data.length > pageSize
      ? {
          page: page + 1,
          pageCount,
          onPageChange: (next) => setPageIndex(next - 1),
        }
      : undefined;
  const pager = props.pager ?? clientPager;
  const toggleColumn = Boolean(renderDetail) && props.detailToggle !== 'cell';
  const columnCount = columns.length + (toggleColumn ? 1 : 0);

  const renderRow = (row: TableRow<TRow>) => (
    <BodyRow
      table={props}
      row={row}
      expanded={expanded.has(row.id)}
      onToggle={() => toggleExpanded(row.id)}
      renderCell={(cell) => <table.FlexRender cell={cell} />}
    />
  );

  return (
    <div className="space-y-3">
      {props.csv ? (
        <div className="flex justify-end">
          <ExportCsvButton rows={sortedRows.map((row) => row.original)} {...props.csv} />
        </div>
      ) : null}
      <ScrollHintFrame edges={edges}>
        <div
          ref={setScrollBox}
          // relative: a visually hidden (absolute) label inside a cell is clipped by this box too,
          // instead of widening the page from where it would sit unscrolled
          className="relative overflow-auto rounded-lg border border-neutral-200 dark:border-neutral-800"
          style={maxHeight ? { maxHeight } : undefined}
          data-testid="virtual-table-scroll"
        >
          <table className="w-full border-collapse text-left text-sm" data-row-count={data.length}>
            <caption
              className={
                props.captionHidden
                  ? 'sr-only'
                  : 'px-3 py-2 text-left text-sm font-medium text-neutral-700 dark:text-neutral-300'
              }
            >
              {props.caption}
            </caption>
            <thead
              className={`bg-neutral-50 text-xs tracking-wide text-neutral-600 uppercase dark:bg-neutral-900 dark:text-neutral-400 ${maxHeight ? 'sticky top-0 z-10' : ''}`}
            >
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {toggleColumn ? (
                    <th scope="col" className={`${CELL} w-10`}>
                      <span className="sr-only">Details</span>
                    </th>
                  ) : null}
                  {group.headers.map((header) => {
                    const sorted = header.column.getIsSorted();
                    const ariaSort =
                      sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none';
                    const canSort = header.column.getCanSort();
                    const column = columns.find((c) => c.id === header.column.id);
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        aria-sort={canSort ? ariaSort : undefined}
                        className={`px-3 py-2 font-semibold ${column?.align === 'end' ? 'text-right' : ''} ${column?.className ?? ''}`}
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
            {bodyRows.length === 0 ? (
              <tbody>
                <tr>
                  <td
                    colSpan={columnCount}
                    className="px-3 py-6 text-center text-neutral-600 dark:text-neutral-400"
                  >
                    {props.empty ?? 'Nothing to show.'}
                  </td>
                </tr>
              </tbody>
            ) : virtual ? (
              <>
                {rowWindow.rows.map((item) => {
                  const row = bodyRows[item.index];
                  if (row === undefined) return null;
                  return (
                    <Fragment key={item.key}>
                      {item.gapBefore > 0 && (
                        <Spacer height={item.gapBefore} columns={columnCount} />
                      )}
                      <tbody data-index={item.index} ref={virtualizer.measureElement}>
                        {renderRow(row)}
                      </tbody>
                    </Fragment>
                  );
                })}
                {rowWindow.after > 0 && <Spacer height={rowWindow.after} columns={columnCount} />}
              </>
            ) : (
              <tbody>
                {bodyRows.map((row) => (
                  <Fragment key={row.id}>{renderRow(row)}</Fragment>
                ))}
              </tbody>
            )}
            {props.footer ? (
              <tfoot className="border-t border-neutral-300 dark:border-neutral-700">
                {props.footer}
              </tfoot>
            ) : null}
          </table>
        </div>
      </ScrollHintFrame>
      {pager && pager.pageCount > 1 ? <Pager {...pager} /> : null}
    </div>
  );
}

type AnyCell<TRow extends RowData> = ReturnType<TableRow<TRow>['getAllCells']>[number];

interface BodyRowProps<TRow extends RowData> {
  table: DataTableProps<TRow>;
  row: TableRow<TRow>;
  expanded: boolean;
  onToggle: () => void;
  renderCell: (cell: AnyCell<TRow>) => ReactNode;
}

/** A row (and its detail row when expanded): row activation, selection and expansion. */
function BodyRow<TRow extends RowData>(props: BodyRowProps<TRow>) {
  const { table, row, expanded, renderCell } = props;
  const { columns, onRowActivate, onSelect, renderDetail } = table;
  const selected = row.id === table.selectedId;
  const toggleColumn = Boolean(renderDetail) && table.detailToggle !== 'cell';
  const detail: DetailToggle = { expanded, toggle: props.onToggle, id: `${row.id}-detail` };
  const activate = (event: MouseEvent | KeyboardEvent) => {
    if (!onRowActivate || fromInteractiveChild(event)) return;
    if ('key' in event && event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    onRowActivate(row.original);
  };
  const highlight = selected
    ? 'bg-amber-50 shadow-[inset_4px_0_0_#f59e0b] dark:bg-amber-950/40'
    : onRowActivate
      ? 'cursor-pointer hover:bg-neutral-50 focus-visible:bg-neutral-50 dark:hover:bg-neutral-800/60 dark:focus-visible:bg-neutral-800/60'
      : '';
  const extra = table.rowClassName?.(row.original) ?? '';
  return (
    <>
      <tr
        data-row-id={row.id}
        data-selected={selected || undefined}
        tabIndex={onRowActivate ? 0 : undefined}
        onClick={onRowActivate ? activate : undefined}
        onKeyDown={onRowActivate ? activate : undefined}
        className={`border-t border-neutral-200 dark:border-neutral-800 ${highlight} ${extra}`}
      >
        {toggleColumn ? (
          <td className={CELL}>
            <button
              type="button"
              aria-expanded={expanded}
              aria-controls={expanded ? `${row.id}-detail` : undefined}
              aria-label={table.expandLabel?.(row.original) ?? 'Details'}
              onClick={props.onToggle}
              className="h-6 w-6 rounded border border-neutral-300 text-xs focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-neutral-700"
            >
              <span aria-hidden="true">{expanded ? '−' : '+'}</span>
            </button>
          </td>
        ) : null}
        {row.getAllCells().map((cell) => {
          const column = columns.find((c) => c.id === cell.column.id);
          const header = column?.rowHeader === true;
          const Cell = header ? 'th' : 'td';
          const align = column?.align === 'end' ? 'text-right tabular-nums' : '';
          const content = column?.cell ? column.cell(row.original, detail) : renderCell(cell);
          return (
            <Cell
              key={cell.id}
              scope={header ? 'row' : undefined}
              className={`${CELL} font-normal ${align} ${column?.className ?? ''}`}
            >
              {header && onSelect ? (
                <button
                  type="button"
                  aria-pressed={selected}
                  aria-label={table.selectLabel?.(row.original)}
                  onClick={() => onSelect(row.id)}
                  className={SELECT_BUTTON}
                >
                  {content}
                </button>
              ) : (
                content
              )}
              {header && selected ? (
                <span className="ml-1 text-xs text-amber-800 dark:text-amber-300">(selected)</span>
              ) : null}
            </Cell>
          );
        })}
      </tr>
      {renderDetail && expanded ? (
        <tr id={`${row.id}-detail`} className="bg-neutral-50 dark:bg-neutral-900/60">
          <td colSpan={columns.length + (toggleColumn ? 1 : 0)} className="px-3 py-3">
            {renderDetail(row.original)}
          </td>
        </tr>
      ) : null}
    </>
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
