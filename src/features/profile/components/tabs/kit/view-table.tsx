/**
 * What the history tabs share when the proxy pages, sorts and filters their rows
 * (`/api/local/profile-view`): the page and sort state (a new sort or filter starts again from the
 * first page), the view's query, the table's pager, and a CSV export that fetches every matching
 * row when clicked (the rows on screen are only one page).
 */
import { useState } from 'react';
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

/** Rows per page of a history table drawn from the proxy's pages. */
const VIEW_PAGE_SIZE = 100;

interface ViewTableOptions {
  /** the table's column ids → the proxy's sort fields (columns not listed do not sort) */
  sortFields: Readonly<Record<string, string>>;
  /** the table's first sort (a column id from `sortFields`) */
  initialSort: DataTableSort;
}

/** The query of a page: the filters, the sort as the proxy names it, offset and limit. */
function viewPageQuery(
  filters: ViewQuery,
  sort: DataTableSort | undefined,
  sortFields: Readonly<Record<string, string>>,
  page: number,
): ViewQuery {
  const field = sort ? sortFields[sort.id] : undefined;
  return {
    ...filters,
    ...(field && sort ? { sort: field, dir: sort.desc ? 'desc' : 'asc' } : {}),
    offset: String((page - 1) * VIEW_PAGE_SIZE),
    limit: String(VIEW_PAGE_SIZE),
  };
}

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
