/**
 * The results of the search named by the URL, and the lite preview of one of them. A lazy chunk of
 * the search page (with the table library and the watchlist): the page's first paint is the form
 * and the recently viewed carriers; see `lazy-parts.ts`.
 */
import { ErrorState } from '../../../components/ErrorState.tsx';
import { LoadingBlock } from '../../../components/Skeleton.tsx';
import { formatCount } from '../../../lib/format.ts';
import type { Profile } from '../../../lib/service/index.ts';
import { isBadRequest, type SearchResultsQuery } from '../api/search-profiles.ts';
import { describeSearch, RESULTS_PAGE_SIZE, type SearchRequest } from '../lib/search-params.ts';
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
  onPage: (page: number) => void;
  preview: PreviewTarget | undefined;
  onPreview: (profile: Profile) => void;
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

function ResultsBody({ request, results, onPage, onPreview }: ResultsBodyProps) {
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
      <ResultsTable
        items={items}
        caption={`Carriers matching ${describeSearch(request)}, page ${request.page} of ${pageCount}`}
        pager={{ page: request.page, pageCount, onPageChange: onPage }}
        onPreview={onPreview}
      />
    </div>
  );
}
