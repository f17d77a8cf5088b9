/**
 * The queries of a history table drawn from the proxy's pages (`/api/local/profile-view`): the
 * filters, the sort as the proxy names it, offset and limit. Apart from the table's code, so the
 * profile page can ask for a tab's first page ahead without loading that code.
 */
import type { DataTableSort } from '../../../../../components/data-table/DataTable.tsx';
import type { ViewQuery } from '../../../api/profile-view.ts';

/** Rows per page of a history table drawn from the proxy's pages. */
export const VIEW_PAGE_SIZE = 100;

export interface ViewTableOptions {
  /** the table's column ids → the proxy's sort fields (columns not listed do not sort) */
  sortFields: Readonly<Record<string, string>>;
  /** the table's first sort (a column id from `sortFields`) */
  initialSort: DataTableSort;
}

/** The query of a page: the filters, the sort as the proxy names it, offset and limit. */
export function viewPageQuery(
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

/** The query of the page a view's table opens on: no paging yet, its first sort. */
export function firstViewPageQuery(
  filters: ViewQuery,
  { sortFields, initialSort }: ViewTableOptions,
): ViewQuery {
  return viewPageQuery(filters, initialSort, sortFields, 1);
}
