/**
 * A sortable, virtualised table (@tanstack/react-virtual) that stays a real <table>: caption, column
 * headers with `aria-sort`, one <tbody> per rendered row (the row plus its optional detail row), and
 * spacer rows for the rows scrolled out of view. Rows can be selected (the first cell is a toggle
 * button) and expanded; the selected row is scrolled into view whenever the selection changes.
 */
import { Fragment, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ExportCsvButton, type CsvExport } from '../data-table/ExportCsvButton.tsx';
import { Spacer, useRowWindow } from './row-window.tsx';
import { nextSort, sortRows, type SortState, type SortValue } from './sort.ts';

export interface VirtualColumn<Row> {
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** makes the column sortable */
  sortValue?: (row: Row) => SortValue;
  /** first direction when the header is clicked (default 'asc') */
  firstDirection?: 'asc' | 'desc';
  /** extra classes of the header and cells (width, alignment) */
  className?: string;
}

export interface VirtualTableProps<Row> {
  caption: ReactNode;
  rows: readonly Row[];
  columns: readonly VirtualColumn<Row>[];
  rowId: (row: Row) => string;
  initialSort?: SortState;
  selectedId?: string | undefined;
  onSelect?: ((id: string) => void) | undefined;
  /** accessible name of the select button of a row, e.g. "Show inspection of 3 Mar 2026 on map" */
  selectLabel?: (row: Row) => string;
  /** content of the expandable detail row; rows without detail have no expand button */
  renderDetail?: ((row: Row) => ReactNode) | undefined;
  /** accessible name of the expand button of a row */
  expandLabel?: (row: Row) => string;
  /**
   * An "Export … as CSV" button above the table: every row, in the order the table is sorted by
   * (`noun`: what a row is, plural).
   */
  csv?: (CsvExport<Row> & { noun: string }) | undefined;
  /** CSS max height of the scrolling body (default 480px) */
  maxHeight?: number;
  estimateRowHeight?: number;
}

const DEFAULT_MAX_HEIGHT = 480;

function useSortedRows<Row>(
  rows: readonly Row[],
  columns: readonly VirtualColumn<Row>[],
  sort: SortState | undefined,
): readonly Row[] {
  return useMemo(() => {
    const column = columns.find((c) => c.id === sort?.columnId);
    if (!sort || !column?.sortValue) return rows;
    return sortRows(rows, column.sortValue, sort.direction);
  }, [rows, columns, sort]);
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
const BUTTON =
  'rounded px-1 text-left font-medium text-blue-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300';

export function VirtualTable<Row>(props: VirtualTableProps<Row>) {
  const { rows, columns, rowId, selectedId, renderDetail } = props;
  const maxHeight = props.maxHeight ?? DEFAULT_MAX_HEIGHT;
  const estimate = props.estimateRowHeight ?? 41;
  const [sort, setSort] = useState<SortState | undefined>(props.initialSort);
  const [expanded, toggleExpanded] = useExpanded();
  const sorted = useSortedRows(rows, columns, sort);
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const {
    virtualizer,
    rows: windowRows,
    after,
  } = useRowWindow({
    count: sorted.length,
    scrollRef,
    rowKey: (index) => {
      const row = sorted[index];
      return row === undefined ? index : rowId(row);
    },
    estimate,
    fallbackHeight: maxHeight,
  });

  const selectedIndex = selectedId ? sorted.findIndex((row) => rowId(row) === selectedId) : -1;
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  const columnCount = columns.length + (renderDetail ? 1 : 0);

  const table = (
    <div
      ref={scrollRef}
      // relative: a visually hidden (absolute) label inside a cell is clipped by this box too,
      // instead of widening the page from where it would sit unscrolled
      className="relative overflow-auto rounded-md border border-neutral-200 dark:border-neutral-800"
      style={{ maxHeight }}
      data-testid="virtual-table-scroll"
    >
      <table className="w-full border-collapse text-sm" data-row-count={sorted.length}>
        <caption className="px-3 py-2 text-left text-sm text-neutral-700 dark:text-neutral-300">
          {props.caption}
        </caption>
        <thead className="sticky top-0 z-10 bg-neutral-100 text-left text-xs tracking-wide text-neutral-700 uppercase dark:bg-neutral-900 dark:text-neutral-300">
          <tr>
            {renderDetail && (
              <th scope="col" className={`${CELL} w-10`}>
                <span className="sr-only">Details</span>
              </th>
            )}
            {columns.map((column) => (
              <HeaderCell
                key={column.id}
                column={column}
                sort={sort}
                onSort={() => setSort(nextSort(sort, column.id, column.firstDirection ?? 'asc'))}
              />
            ))}
          </tr>
        </thead>
        {windowRows.map((item) => {
          const row = sorted[item.index];
          if (row === undefined) return null;
          const id = rowId(row);
          return (
            <Fragment key={item.key}>
              {item.gapBefore > 0 && <Spacer height={item.gapBefore} columns={columnCount} />}
              <tbody data-index={item.index} ref={virtualizer.measureElement}>
                <BodyRow
                  {...props}
                  row={row}
                  id={id}
                  selected={id === selectedId}
                  expanded={expanded.has(id)}
                  onToggle={() => toggleExpanded(id)}
                />
                {renderDetail && expanded.has(id) && (
                  <tr id={`${id}-detail`} className="bg-neutral-50 dark:bg-neutral-900/60">
                    <td colSpan={columnCount} className="px-3 py-3">
                      {renderDetail(row)}
                    </td>
                  </tr>
                )}
              </tbody>
            </Fragment>
          );
        })}
        {after > 0 && <Spacer height={after} columns={columnCount} />}
      </table>
    </div>
  );
  if (!props.csv) return table;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex justify-end">
        <ExportCsvButton rows={sorted} {...props.csv} />
      </div>
      {table}
    </div>
  );
}

function HeaderCell<Row>({
  column,
  sort,
  onSort,
}: {
  column: VirtualColumn<Row>;
  sort: SortState | undefined;
  onSort: () => void;
}) {
  const active = sort?.columnId === column.id ? sort.direction : undefined;
  const ariaSort = active === 'asc' ? 'ascending' : active === 'desc' ? 'descending' : undefined;
  return (
    <th scope="col" aria-sort={ariaSort} className={`${CELL} ${column.className ?? ''}`}>
      {column.sortValue ? (
        <button type="button" onClick={onSort} className="inline-flex items-center gap-1 uppercase">
          {column.header}
          <span aria-hidden="true">{active === 'asc' ? '▲' : active === 'desc' ? '▼' : '↕'}</span>
        </button>
      ) : (
        column.header
      )}
    </th>
  );
}

interface BodyRowProps<Row> extends VirtualTableProps<Row> {
  row: Row;
  id: string;
  selected: boolean;
  expanded: boolean;
  onToggle: () => void;
}

function BodyRow<Row>(props: BodyRowProps<Row>) {
  const { row, id, selected, expanded, columns, onSelect, renderDetail } = props;
  const [first, ...rest] = columns;
  return (
    <tr
      data-row-id={id}
      data-selected={selected || undefined}
      className={`border-t border-neutral-200 dark:border-neutral-800 ${
        selected
          ? 'bg-amber-50 shadow-[inset_4px_0_0_#f59e0b] dark:bg-amber-950/40'
          : 'hover:bg-neutral-50 dark:hover:bg-neutral-900/60'
      }`}
    >
      {renderDetail && (
        <td className={CELL}>
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={expanded ? `${id}-detail` : undefined}
            aria-label={props.expandLabel?.(row) ?? 'Details'}
            onClick={props.onToggle}
            className="h-6 w-6 rounded border border-neutral-300 text-xs focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-neutral-700"
          >
            <span aria-hidden="true">{expanded ? '−' : '+'}</span>
          </button>
        </td>
      )}
      {first && (
        <th scope="row" className={`${CELL} text-left font-normal ${first.className ?? ''}`}>
          {onSelect ? (
            <button
              type="button"
              aria-pressed={selected}
              aria-label={props.selectLabel?.(row)}
              onClick={() => onSelect(id)}
              className={BUTTON}
            >
              {first.cell(row)}
            </button>
          ) : (
            first.cell(row)
          )}
          {selected && (
            <span className="ml-1 text-xs text-amber-800 dark:text-amber-300">(selected)</span>
          )}
        </th>
      )}
      {rest.map((column) => (
        <td key={column.id} className={`${CELL} ${column.className ?? ''}`}>
          {column.cell(row)}
        </td>
      ))}
    </tr>
  );
}
