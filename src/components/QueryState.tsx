/**
 * The three states of a page's or section's query in one place: the error (ErrorState, with retry),
 * a short loading line announced to screen readers, and the loaded data handed to `children`.
 */
import type { ReactNode } from 'react';
import { MUTED } from './controls.ts';
import { ErrorState } from './ErrorState.tsx';

/** What QueryState reads of a TanStack query result. */
export interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isError: boolean;
  isFetching: boolean;
  errorUpdatedAt: number;
  refetch: () => unknown;
}

interface QueryStateProps<T> {
  query: QueryLike<T>;
  /** what is loaded, in the messages: "the jobs" → "Loading the jobs…", "could not load the jobs" */
  what: string;
  children: (data: T) => ReactNode;
}

export function QueryState<T>({ query, what, children }: QueryStateProps<T>) {
  if (query.isError) {
    return (
      <ErrorState
        // a new failure starts a new countdown
        key={query.errorUpdatedAt}
        error={query.error}
        what={what}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  if (query.data === undefined) {
    return (
      <p role="status" className={MUTED}>
        Loading {what}…
      </p>
    );
  }
  return children(query.data);
}
