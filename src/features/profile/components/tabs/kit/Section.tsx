import type { ReactNode } from 'react';

export interface SectionProps {
  /** the section's id (the target of `#id` links); its heading is `${id}-heading` */
  id: string;
  title: ReactNode;
  /** heading level: 3 under the page's sr-only tab heading; some tabs keep their h2 sections */
  level?: 2 | 3;
  description?: ReactNode;
  /** controls beside the heading (e.g. an export button) */
  actions?: ReactNode;
  children: ReactNode;
}

/**
 * A titled block of a profile tab: a `region` named by its heading. The id sits on the section so
 * that an evidence link (`/carriers/…/safety#safety-basics`) scrolls to, and focuses, the whole block.
 */
export function Section({ id, title, level = 3, description, actions, children }: SectionProps) {
  const headingId = `${id}-heading`;
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="min-w-0 scroll-mt-4 rounded-lg border border-neutral-200 bg-white p-4 dark:border-neutral-800 dark:bg-neutral-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading
          id={headingId}
          className="text-lg font-semibold text-neutral-950 dark:text-neutral-50"
        >
          {title}
        </Heading>
        {actions}
      </div>
      {description ? (
        <p className="mt-1 text-sm text-neutral-600 dark:text-neutral-400">{description}</p>
      ) : null}
      <div className="mt-3 space-y-3">{children}</div>
    </section>
  );
}
