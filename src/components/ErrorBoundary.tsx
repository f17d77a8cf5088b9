import { Component, type ErrorInfo, type ReactNode } from 'react';
import { CHUNK_LOAD_ADVICE, isChunkLoadError, reloadOnceForChunk } from '../lib/chunk-reload.ts';

interface ErrorBoundaryProps {
  /** what failed, in the message: "The Safety tab could not be shown." */
  label: string;
  /** shown instead of the message (e.g. `null` for a decoration that may simply be missing) */
  fallback?: ReactNode;
  children: ReactNode;
}

interface ErrorBoundaryState {
  error: Error | undefined;
}

/**
 * Contains a render error to one part of the page (one profile tab), so one unreadable field never
 * blanks the whole page. "Try again" re-renders the part. When the part's code could not be
 * downloaded (a lazy chunk), the page reloads once; after that the part says so in plain words
 * and offers a reload (re-rendering cannot help: React keeps the failed import).
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: undefined };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // Kept for the developer console; the user sees the message below.
    console.warn(`${this.props.label} failed`, error, info.componentStack);
    if (isChunkLoadError(error)) reloadOnceForChunk();
  }

  private readonly reset = () => this.setState({ error: undefined });

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (this.props.fallback !== undefined) return this.props.fallback;
    const chunk = isChunkLoadError(error);
    return (
      <div
        role="alert"
        className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
      >
        <p className="font-semibold">
          {this.props.label} could not be {chunk ? 'downloaded' : 'shown'}.
        </p>
        <p className="mt-1 text-sm">{chunk ? CHUNK_LOAD_ADVICE : error.message}</p>
        <button
          type="button"
          onClick={chunk ? () => window.location.reload() : this.reset}
          className="mt-3 rounded-md border border-red-400 px-3 py-1 text-sm font-medium hover:bg-red-100 dark:border-red-700 dark:hover:bg-red-900"
        >
          {chunk ? 'Reload page' : 'Try again'}
        </button>
      </div>
    );
  }
}
