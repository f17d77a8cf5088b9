import { ErrorState } from '../../../components/ErrorState.tsx';
import { ApiError } from '../../../lib/api-client.ts';

/**
 * A refused token action: a 4xx is read out in the server's words (what was refused and what to
 * do), anything else as the app's usual error.
 */
export function TokenError({ error, what }: { error: unknown; what: string }) {
  if (!(error instanceof ApiError) || error.kind !== 'http' || error.status >= 500) {
    return <ErrorState error={error} what={what} />;
  }
  return (
    <div
      role="alert"
      className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50"
    >
      <p className="font-semibold">{error.message}</p>
      {error.hint ? <p className="mt-1">{error.hint}</p> : null}
    </div>
  );
}
