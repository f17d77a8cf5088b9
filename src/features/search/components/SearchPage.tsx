/**
 * `/search`: the advanced form, the results of the search named by the URL
 * (`/search?company=hansen&page=2`), a lite preview of a result, and the recently viewed carriers.
 * A DOT search with exactly one match goes straight to that carrier's profile.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { LoadingBlock } from '../../../components/Skeleton.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatCount } from '../../../lib/format.ts';
import type { Profile } from '../../../lib/service/index.ts';
import { useSearchResults, type SearchResults } from '../api/search-profiles.ts';
import { profilePath } from '../lib/carrier-summary.ts';
import { SEARCH_KEY_LABELS } from '../lib/search-keys.ts';
import {
  RESULTS_PAGE_SIZE,
  searchFromParams,
  searchToParams,
  type SearchRequest,
} from '../lib/search-params.ts';
import { LitePreview } from './LitePreview.tsx';
import { RecentlyViewed } from './RecentlyViewed.tsx';
import { ResultsTable } from './ResultsTable.tsx';
import { SearchForm } from './SearchForm.tsx';
import { VinDetails } from './VinDetails.tsx';

function isBadRequest(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400;
}

function describeSearch(request: SearchRequest): string {
  const extra = request.plateState ?? request.unitType;
  return `${SEARCH_KEY_LABELS[request.key]} “${request.value}”${extra ? ` (${extra})` : ''}`;
}

/** The one carrier a DOT search found, when it found exactly one. */
function singleDotMatch(request: SearchRequest | undefined, data: SearchResults | undefined) {
  if (request?.key !== 'dot_number' || data?.totalCount !== 1) return undefined;
  return data.items[0]?.dot_number;
}

export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const request = useMemo(() => searchFromParams(params), [params]);
  const results = useSearchResults(request);
  const [preview, setPreview] = useState<{ dot: string; name: string } | undefined>(undefined);

  const onlyDot = results.isPlaceholderData ? undefined : singleDotMatch(request, results.data);
  useEffect(() => {
    if (onlyDot) void navigate(profilePath(onlyDot), { replace: true });
  }, [onlyDot, navigate]);

  const onSearch = (next: SearchRequest) => {
    setPreview(undefined);
    setParams(searchToParams(next));
  };
  const onPreview = useCallback((profile: Profile) => {
    const dot = profile.dot_number ?? '';
    setPreview({ dot, name: profile.legal_name ?? `DOT ${dot}` });
  }, []);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Search"
        description="Find a carrier by DOT or MC number, company name, phone, e-mail or VIN, and open its profile."
      />
      <SearchForm
        key={params.toString()}
        initial={request}
        error={isBadRequest(results.error) ? results.error : undefined}
        onSearch={onSearch}
      />
      {request ? (
        <section aria-labelledby="results-heading" className="space-y-4">
          <h2 id="results-heading" className="sr-only">
            Results
          </h2>
          <ResultsBody
            request={request}
            results={results}
            onPage={(page) => onSearch({ ...request, page })}
            onPreview={onPreview}
          />
          {preview ? (
            <LitePreview
              key={preview.dot}
              dot={preview.dot}
              name={preview.name}
              onClose={() => setPreview(undefined)}
            />
          ) : null}
        </section>
      ) : null}
      <RecentlyViewed />
    </div>
  );
}

interface ResultsBodyProps {
  request: SearchRequest;
  results: ReturnType<typeof useSearchResults>;
  onPage: (page: number) => void;
  onPreview: (profile: Profile) => void;
}

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
