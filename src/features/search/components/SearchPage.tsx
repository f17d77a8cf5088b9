/**
 * `/search`: the advanced form, the results of the search named by the URL
 * (`/search?company=hansen&page=2&sort=risk&order=desc`), a lite preview of a result, and the
 * recently viewed carriers. A DOT or docket search with exactly one match goes straight to that
 * carrier's profile. A search the service would refuse is not sent: the form says what is wrong.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { LoadingBlock } from '../../../components/Skeleton.tsx';
import { isBadRequest, useSearchResults } from '../api/search-profiles.ts';
import type { SearchResults } from '../api/read-results.ts';
import { loadResultsSection } from '../lazy-parts.ts';
import { carrierPath } from '../../../lib/carrier/paths.ts';
import type { ResultRow } from '../lib/results-columns.ts';
import {
  searchFromParams,
  searchToParams,
  sortFromParams,
  type ResultsSort,
  type SearchRequest,
} from '../lib/search-params.ts';
import { searchProblem } from '../lib/validate-search.ts';
import type { PreviewTarget } from './ResultsSection.tsx';
import { RecentlyViewed } from './RecentlyViewed.tsx';
import { SearchForm } from './SearchForm.tsx';

/** Lazy: the results (and their table library) load with the first search, not with the page. */
const ResultsSection = lazy(() =>
  loadResultsSection().then((module) => ({ default: module.ResultsSection })),
);

/** Keys that name one carrier: a search by one of them with exactly one match opens it. */
const OPENS_SINGLE_MATCH = new Set(['dot_number', 'docket_number']);

/** The one carrier a DOT or docket search found, when it found exactly one. */
function singleMatch(request: SearchRequest | undefined, data: SearchResults | undefined) {
  if (!request || !OPENS_SINGLE_MATCH.has(request.key) || data?.totalCount !== 1) return undefined;
  return data.items[0]?.dot_number;
}

export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const request = useMemo(() => searchFromParams(params), [params]);
  const sort = useMemo(() => sortFromParams(params), [params]);
  const problem = useMemo(() => (request ? searchProblem(request) : undefined), [request]);
  const results = useSearchResults(problem ? undefined : request);
  const [preview, setPreview] = useState<PreviewTarget | undefined>(undefined);

  const onlyDot = results.isPlaceholderData ? undefined : singleMatch(request, results.data);
  useEffect(() => {
    if (onlyDot) void navigate(carrierPath(onlyDot), { replace: true });
  }, [onlyDot, navigate]);

  const onSearch = (next: SearchRequest) => {
    setPreview(undefined);
    setParams(searchToParams(next));
  };
  const onPreview = useCallback((row: ResultRow) => {
    const dot = row.dot_number ?? '';
    setPreview({ dot, name: row.legal_name ?? `DOT ${dot}` });
  }, []);

  return (
    <div className="min-w-0 space-y-6">
      <PageHeader
        title="Search"
        description="Find a carrier by DOT or MC number, company name, phone, e-mail or VIN, and open its profile."
      />
      <SearchForm
        key={request ? searchToParams(request).toString() : ''}
        initial={request}
        problem={problem}
        error={isBadRequest(results.error) ? results.error : undefined}
        onSearch={onSearch}
      />
      {request ? (
        <section aria-labelledby="results-heading" className="min-w-0 space-y-4">
          <h2 id="results-heading" className="sr-only">
            Results
          </h2>
          {problem ? (
            <p className="text-sm text-neutral-700 dark:text-neutral-300">
              Nothing was searched: correct the highlighted field.
            </p>
          ) : (
            <Suspense fallback={<LoadingBlock label="Searching" lines={5} />}>
              <ResultsSection
                request={request}
                results={results}
                sort={sort}
                onSort={(next: ResultsSort | undefined) => setParams(searchToParams(request, next))}
                onPage={(page) => {
                  setPreview(undefined);
                  setParams(searchToParams({ ...request, page }, sort));
                }}
                preview={preview}
                onPreview={onPreview}
                onClosePreview={() => setPreview(undefined)}
              />
            </Suspense>
          )}
        </section>
      ) : null}
      <RecentlyViewed />
    </div>
  );
}
