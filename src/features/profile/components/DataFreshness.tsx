import { useEffect, useState } from 'react';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { formatAge, formatDate, formatDateTime } from '../../../lib/format.ts';
import { useRefreshProfile, type ProfileResult } from '../api/get-profile.ts';

interface DataFreshnessProps {
  result: ProfileResult;
  snapshotDate: string | undefined;
}

function sourceText(cache: ProfileResult['cache']): string {
  if (cache === 'hit') return ', from cache';
  if (cache === 'miss') return ', fresh from the service';
  return '';
}

/** The current time, updated every minute, so "fetched 5 min ago" stays true. */
function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Snapshot date, when the data was fetched and whether from the proxy's cache (or, when the proxy
 * fetched it anew after a change the monitoring list reported, after which), and a refresh.
 */
export function DataFreshness({ result, snapshotDate }: DataFreshnessProps) {
  const refresh = useRefreshProfile(result.dot);
  const now = useMinuteClock();
  return (
    <div className="text-sm text-neutral-700 max-sm:text-xs dark:text-neutral-300">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 max-sm:gap-x-3 max-sm:gap-y-1">
        <p>
          Snapshot <span className="font-medium">{formatDate(snapshotDate)}</span>
        </p>
        <p data-testid="fetched-at">
          Fetched{' '}
          <time dateTime={result.fetchedAt} title={formatDateTime(result.fetchedAt)}>
            {formatAge(result.fetchedAt, now)}
          </time>
          {result.refreshedAfterChange ? (
            // the proxy fetched it anew because the monitoring list reported a change
            <span data-testid="refreshed-after-change">
              , updated after a change reported on{' '}
              <time dateTime={result.refreshedAfterChange}>
                {formatDate(result.refreshedAfterChange)}
              </time>
            </span>
          ) : (
            <span className="max-sm:hidden">{sourceText(result.cache)}</span>
          )}
        </p>
        <button
          type="button"
          data-print-hide
          onClick={() => refresh.mutate()}
          disabled={refresh.isPending}
          className="rounded-md border border-neutral-300 bg-white px-3 py-1 font-medium text-neutral-900 hover:bg-neutral-100 disabled:opacity-60 max-sm:px-2 max-sm:py-0.5 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100 dark:hover:bg-neutral-800"
        >
          {refresh.isPending ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      {refresh.isError ? (
        <div className="mt-2">
          <ErrorState
            key={refresh.submittedAt}
            error={refresh.error}
            what="fresh data (the data shown is older)"
            onRetry={() => refresh.mutate()}
          />
        </div>
      ) : null}
    </div>
  );
}
