interface SkeletonProps {
  className?: string;
}

/** One grey placeholder block while data loads; hidden from assistive technology. */
export function Skeleton({ className = 'h-4 w-full' }: SkeletonProps) {
  return (
    <div
      aria-hidden="true"
      className={`animate-pulse rounded bg-neutral-200 dark:bg-neutral-800 ${className}`}
    />
  );
}

interface LoadingBlockProps {
  /** what is loading, announced to screen readers: "Loading carrier profile" */
  label: string;
  lines?: number;
}

/** A labelled loading state: a status message for screen readers and a few placeholder lines. */
export function LoadingBlock({ label, lines = 4 }: LoadingBlockProps) {
  return (
    <div role="status" className="space-y-3">
      <span className="sr-only">{label}…</span>
      {Array.from({ length: lines }, (_, index) => (
        <Skeleton key={index} className={index === 0 ? 'h-6 w-1/3' : 'h-4 w-full'} />
      ))}
    </div>
  );
}
