/** Previous / next paging with "Page N of M"; pages are 1-based. */
export interface PagerProps {
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  /** Accessible name of the navigation landmark. */
  label?: string;
}

const BUTTON =
  'rounded-md border border-neutral-300 px-3 py-1.5 text-sm font-medium text-neutral-800 hover:bg-neutral-50 disabled:cursor-not-allowed disabled:opacity-50 dark:border-neutral-700 dark:text-neutral-200 dark:hover:bg-neutral-800';

export function Pager({ page, pageCount, onPageChange, label = 'Pages' }: PagerProps) {
  return (
    <nav aria-label={label} className="flex items-center justify-end gap-3 text-sm">
      <button
        type="button"
        className={BUTTON}
        disabled={page <= 1}
        onClick={() => onPageChange(page - 1)}
      >
        Previous page
      </button>
      <span className="text-neutral-700 tabular-nums dark:text-neutral-300" aria-live="polite">
        Page {page} of {pageCount}
      </span>
      <button
        type="button"
        className={BUTTON}
        disabled={page >= pageCount}
        onClick={() => onPageChange(page + 1)}
      >
        Next page
      </button>
    </nav>
  );
}
