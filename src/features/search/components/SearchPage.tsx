/**
 * `/search`: the advanced form, the results of the search named by the URL
 * (`/search?company=hansen&page=2`), a lite preview of a result, and the recently viewed carriers.
 * A DOT search with exactly one match goes straight to that carrier's profile.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { LoadingBlock } from '../../../components/Skeleton.tsx';
import type { Profile } from '../../../lib/service/index.ts';
import { isBadRequest, useSearchResults } from '../api/search-profiles.ts';
import type { SearchResults } from '../api/read-results.ts';
import { loadResultsSection } from '../lazy-parts.ts';
import { profilePath } from '../lib/carrier-summary.ts';
import { searchFromParams, searchToParams, type SearchRequest } from '../lib/search-params.ts';
import type { PreviewTarget } from './ResultsSection.tsx';
import { RecentlyViewed } from './RecentlyViewed.tsx';
import { SearchForm } from './SearchForm.tsx';

/** Lazy: the results (and their table library) load with the first search, not with the page. */
const ResultsSection = lazy(() =>
  loadResultsSection().then((module) => ({ default: module.ResultsSection })),
);

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
  const [preview, setPreview] = useState<PreviewTarget | undefined>(undefined);

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
          <Suspense fallback={<LoadingBlock label="Searching" lines={5} />}>
            <ResultsSection
              request={request}
              results={results}
              onPage={(page) => onSearch({ ...request, page })}
              preview={preview}
              onPreview={onPreview}
              onClosePreview={() => setPreview(undefined)}
            />
          </Suspense>
        </section>
      ) : null}
      <RecentlyViewed />
    </div>
  );
}
