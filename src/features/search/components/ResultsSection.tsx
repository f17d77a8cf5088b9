/**
 * The results of the search named by the URL, and the lite preview of one of them. A lazy chunk of
 * the search page (with the table library and the watchlist): the page's first paint is the form
 * and the recently viewed carriers; see `lazy-parts.ts`.
 *
 * Sorting: the service's `/v2/profile` has no sort parameter, and sorting every match would mean
 * fetching (and, on a live key, paying for) every page. So a sort orders the rows of the page on
 * screen, says so ("Sorted within this page (10 of 1,038)"), and is kept in the URL
 * (`sort`, `order`) across pages, reloads and back/forward.
 */
import { useId } from 'react';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { LoadingBlock } from '../../../components/Skeleton.tsx';
import { downloadCsv } from '../../../lib/download.ts';
import { formatCount } from '../../../lib/format.ts';
import { usePricing } from '../api/get-prices.ts';
import { isBadRequest, type SearchResultsQuery } from '../api/search-profiles.ts';
import { loadResultsCsv } from '../lazy-parts.ts';
import { describeSort, sortResults, type ResultRow } from '../lib/results-columns.ts';
import { searchCostLabel } from '../lib/search-cost.ts';
import {
  RESULTS_PAGE_SIZE,
  RESULT_SORT_COLUMNS,
  describeSearch,
  type ResultsSort,
  type SearchRequest,
} from '../lib/search-params.ts';
import { LitePreview } from './LitePreview.tsx';
import { ResultsTable } from './ResultsTable.tsx';
import { VinDetails } from './VinDetails.tsx';

export interface PreviewTarget {
  dot: string;
  name: string;
}

interface ResultsSectionProps {
  request: SearchRequest;
  results: SearchResultsQuery;
  sort: ResultsSort | undefined;
  onSort: (sort: ResultsSort | undefined) => void;
  onPage: (page: number) => void;
  preview: PreviewTarget | undefined;
  onPreview: (row: ResultRow) => void;
  onClosePreview: () => void;
}

export function ResultsSection({ preview, onClosePreview, ...body }: ResultsSectionProps) {
  return (
    <>
      <ResultsBody {...body} />
      {preview ? (
        <LitePreview
          key={preview.dot}
          dot={preview.dot}
          name={preview.name}
          onClose={onClosePreview}
        />
      ) : null}
    </>
  );
}

type ResultsBodyProps = Omit<ResultsSectionProps, 'preview' | 'onClosePreview'>;

/** The select's value for a sort: "risk-desc"; "" is the service's order. */
function sortValue(sort: ResultsSort | undefined): string {
  return sort ? `${sort.column}-${sort.desc ? 'desc' : 'asc'}` : '';
}

function readSortValue(value: string): ResultsSort | undefined {
  const [column, direction] = value.split('-');
  const known = RESULT_SORT_COLUMNS.find((name) => name === column);
  return known ? { column: known, desc: direction === 'desc' } : undefined;
}

/** `carriers-company-hansen-page-2.csv` */
function csvFileName(request: SearchRequest): string {
  const value = request.value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
  return `carriers-${request.key.replace('_number', '')}-${value || 'search'}-page-${request.page}.csv`;
}

function ResultsBody({ request, results, sort, onSort, onPage, onPreview }: ResultsBodyProps) {
  const ids = useId();
  const pricing = usePricing();
  if (results.isPending) return <LoadingBlock label="Searching" lines={5} />;
  if (results.isError) {
    if (isBadRequest(results.error)) {
      return (
        <p className="text-sm text-neutral-700 dark:text-neutral-300">
          Nothing was searched: correct the highlighted field.
        </p>
      );
    }
    return (
      <ErrorState
        error={results.error}
        what="the search results"
        onRetry={() => void results.refetch()}
        retrying={results.isFetching}
      />
    );
  }
  const { items, totalCount, vin } = results.data;
  if (totalCount === 0) {
    return (
      <div
        role="status"
        className="rounded-lg border border-dashed border-neutral-300 p-6 text-center dark:border-neutral-700"
      >
        <p className="font-medium text-neutral-950 dark:text-neutral-50">
          No carrier matches {describeSearch(request)}.
        </p>
        <p className="mt-1 text-sm text-neutral-600 dark:text-neutral-400">
          Check the spelling, try part of the name, or search by another key.
        </p>
      </div>
    );
  }
  const pageCount = Math.max(1, Math.ceil(totalCount / RESULTS_PAGE_SIZE));
  const rows = sortResults(items, sort);
  const scope = `${formatCount(items.length)} of ${formatCount(totalCount)}`;
  const sortNote = sort
    ? `Sorted within this page (${scope}): ${describeSort(sort)}. Other pages keep the service's order.`
    : `In the service's order. A sort applies within this page (${scope}) only.`;
  return (
    <div
      className={`space-y-4 ${results.isPlaceholderData ? 'opacity-60' : ''}`}
      aria-busy={results.isFetching}
    >
      <p role="status" className="text-sm text-neutral-700 dark:text-neutral-300">
        {formatCount(totalCount)} {totalCount === 1 ? 'carrier matches' : 'carriers match'}{' '}
        {describeSearch(request)} · page {request.page} of {pageCount}
      </p>
      {vin ? <VinDetails vin={request.value} details={vin} /> : null}
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-0">
          <label
            htmlFor={`${ids}-sort`}
            className="mb-1 block text-sm font-medium text-neutral-800 dark:text-neutral-200"
          >
            Sort this page
          </label>
          <select
            id={`${ids}-sort`}
            value={sortValue(sort)}
            onChange={(event) => onSort(readSortValue(event.target.value))}
            aria-describedby={`${ids}-sort-note`}
            className="h-9 max-w-full rounded-md border border-neutral-300 bg-white px-2 text-sm text-neutral-800 dark:border-neutral-700 dark:bg-neutral-950 dark:text-neutral-100"
          >
            <option value="">Service order</option>
            {RESULT_SORT_COLUMNS.flatMap((column) =>
              [false, true].map((desc) => (
                <option key={`${column}-${desc}`} value={sortValue({ column, desc })}>
                  {describeSort({ column, desc })}
                </option>
              )),
            )}
          </select>
        </div>
        <button
          type="button"
          onClick={() =>
            void loadResultsCsv().then(({ resultsCsv }) =>
              downloadCsv(resultsCsv(rows), csvFileName(request)),
            )
          }
          className="h-9 rounded-md border border-neutral-300 px-3 text-sm font-medium text-neutral-800 hover:bg-neutral-100 dark:border-neutral-700 dark:text-neutral-100 dark:hover:bg-neutral-800"
        >
          Download this page (CSV)
        </button>
      </div>
      <p id={`${ids}-sort-note`} className="text-sm text-neutral-600 dark:text-neutral-400">
        {sortNote} {pageCount > 1 ? searchCostLabel(pricing.data, request.key) : null}
      </p>
      <ResultsTable
        items={rows}
        caption={`Carriers matching ${describeSearch(request)}, page ${request.page} of ${pageCount}${sort ? `, sorted within this page by ${describeSort(sort)}` : ''}`}
        pager={{
          page: request.page,
          pageCount,
          onPageChange: onPage,
        }}
        onPreview={onPreview}
      />
    </div>
  );
}
