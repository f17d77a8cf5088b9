import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { CHUNK_LOAD_ADVICE, isChunkLoadError } from '../../lib/chunk-reload.ts';

/**
 * Shown when a route throws while rendering or loading. Used twice: inside the layout (a page failed,
 * navigation stays usable) and at the root (the layout itself failed), so it brings its own frame.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  const title = chunk ? 'This page could not be downloaded' : 'Something went wrong';
  return (
    <div role="alert" className="mx-auto max-w-prose px-4 py-12">
      <title>{`${title} · carrier-desk`}</title>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="mt-2 text-neutral-600 dark:text-neutral-400">
        {chunk
          ? CHUNK_LOAD_ADVICE
          : 'This page could not be shown. Reload to try again, or go back to search.'}
      </p>
      {chunk ? null : (
        <p className="mt-4 rounded-md bg-neutral-100 px-3 py-2 font-mono text-sm text-neutral-800 dark:bg-neutral-800 dark:text-neutral-200">
          {describeRouteError(error)}
        </p>
      )}
      <div className="mt-6 flex items-center gap-4">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-md bg-neutral-900 px-3 py-2 text-sm font-medium text-white hover:bg-neutral-700 dark:bg-neutral-100 dark:text-neutral-900 dark:hover:bg-neutral-300"
        >
          Reload page
        </button>
        <Link
          to="/search"
          className="text-sm font-medium text-sky-700 underline underline-offset-4 dark:text-sky-400"
        >
          Go to search
        </Link>
      </div>
    </div>
  );
}

export function describeRouteError(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return 'Unknown error';
}
