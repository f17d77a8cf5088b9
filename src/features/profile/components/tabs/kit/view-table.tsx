/**
 * What the history tabs share when the proxy pages, sorts and filters their rows
 * (`/api/local/profile-view`): the page and sort state (a new sort or filter starts again from the
 * first page), the view's query, the table's pager, and a CSV export that fetches every matching
 * row when clicked (the rows on screen are only one page).
 */
import { useDeferredValue, useState } from 'react';
import type { DataTableSort } from '../../../../../components/data-table/DataTable.tsx';
import { tableCsv, type CsvColumn } from '../../../../../components/data-table/csv.ts';
import type { PagerProps } from '../../../../../components/data-table/Pager.tsx';
import { downloadCsv } from '../../../../../lib/download.ts';
import { formatCount } from '../../../../../lib/format.ts';
import {
  getAllViewRows,
  useViewPage,
  type PagedView,
  type ViewQuery,
  type ViewRow,
} from '../../../api/profile-view.ts';
import { VIEW_PAGE_SIZE, viewPageQuery, type ViewTableOptions } from './view-query.ts';

function pageCountOf(matched: number): number {
  return Math.max(1, Math.ceil(matched / VIEW_PAGE_SIZE));
}

/**
 * A view's page for the filters, with the table's sort and pager. The filters object must keep
 * its identity while unchanged (the caller memoises it); when it changes, the first page is shown.
 */
export function useViewTable<V extends PagedView>(
  dot: string,
  view: V,
  filters: ViewQuery,
  { sortFields, initialSort }: ViewTableOptions,
) {
  const [sort, setSortState] = useState<DataTableSort | undefined>(initialSort);
  const [paging, setPaging] = useState({ page: 1, filters });
  // new filters start again from the first page (state reset while rendering, not in an effect)
  const page = paging.filters === filters ? paging.page : 1;
  if (paging.filters !== filters) setPaging({ page: 1, filters });
  const query = viewPageQuery(filters, sort, sortFields, page);
  const result = useViewPage(dot, view, query);
  const setSort = (next: DataTableSort | undefined) => {
    setSortState(next);
    setPaging({ page: 1, filters });
  };
  const matched = result.data?.matched ?? 0;
  const pager: PagerProps | undefined =
    matched > VIEW_PAGE_SIZE
      ? {
          page,
          pageCount: pageCountOf(matched),
          onPageChange: (next) => setPaging({ page: next, filters }),
        }
      : undefined;
  return { result, sort, setSort, pager, query, page };
}

/** Rows a page table draws in its first render; the rest of the page follows a moment later. */
export const FIRST_ROWS = 15;

/**
 * A page's rows, the first `FIRST_ROWS` of them at once when the table mounts and all of them in
 * a deferred render right after (React's `useDeferredValue` with an initial value): the rows in
 * the table's window show in the tab's first frame, and the rendering and layout of the ones below
 * the window's fold (a page is 100 rows; the 480 px box shows about 11) wait for the next. Any later page (a
 * page change, a sort, a filter) is shown whole at once, so rows never lag behind the caption.
 */
export function useFirstRowsFirst<Row>(rows: readonly Row[]): readonly Row[] {
  const [mounted] = useState(() => ({
    rows,
    first: rows.length > FIRST_ROWS ? rows.slice(0, FIRST_ROWS) : rows,
  }));
  const deferred = useDeferredValue(mounted.rows, mounted.first);
  return rows === mounted.rows ? deferred : rows;
}

/** Sortable only where the proxy can sort: columns missing from `sortFields` are not. */
export function withServerSort<C extends { id: string; sortable?: boolean }>(
  columns: readonly C[],
  sortFields: Readonly<Record<string, string>>,
): C[] {
  return columns.map((column) =>
    column.id in sortFields ? column : { ...column, sortable: false },
  );
}

const BUTTON =
  'rounded-md border border-neutral-300 bg-white px-2.5 py-1 text-xs font-medium text-neutral-800 hover:bg-neutral-100 disabled:cursor-not-allowed disabled:opacity-50 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100 dark:hover:bg-neutral-800';

interface ExportViewCsvProps<V extends PagedView, Row> {
  dot: string;
  view: V;
  /** the filters and sort of the table (paging is replaced) */
  query: ViewQuery;
  matched: number;
  toRow: (row: ViewRow<V>) => Row;
  columns: readonly CsvColumn<Row>[];
  fileName: string;
  /** what a row is, plural: "inspections" */
  noun: string;
}

/** "Export N … as CSV": every row the filters match, in the table's order, fetched on the click. */
export function ExportViewCsv<V extends PagedView, Row>(props: ExportViewCsvProps<V, Row>) {
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  const exportAll = async () => {
    setState('busy');
    try {
      const { offset: _offset, limit: _limit, ...rest } = props.query;
      const rows = await getAllViewRows(props.dot, props.view, rest);
      downloadCsv(tableCsv(rows.map(props.toRow), props.columns), props.fileName);
      setState('idle');
    } catch {
      setState('failed');
    }
  };
  return (
    <div className="flex items-center justify-end gap-3">
      {state === 'failed' ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-400">
          The export failed: the rows could not be fetched. Try again.
        </p>
      ) : null}
      <button
        type="button"
        className={BUTTON}
        disabled={props.matched === 0 || state === 'busy'}
        onClick={() => void exportAll()}
      >
        {state === 'busy'
          ? `Exporting ${formatCount(props.matched)} ${props.noun}…`
          : `Export ${formatCount(props.matched)} ${props.noun} as CSV`}
      </button>
    </div>
  );
}
