import type { ReactNode } from 'react';

/** A titled block of a profile tab (used by the Inspections and Crashes tabs). */
export function Section({
  id,
  title,
  children,
  actions,
}: {
  id: string;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold text-neutral-900 dark:text-neutral-100">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A plain sentence for an empty block. */
export function EmptyNote({ children }: { children: ReactNode }) {
  return <p className="text-sm text-neutral-600 dark:text-neutral-400">{children}</p>;
}
