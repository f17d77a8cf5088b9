import type { ReactNode } from 'react';

export const TABLE_CLASS = 'w-full border-collapse text-left text-sm';
export const CAPTION_CLASS =
  'mb-2 text-left text-sm font-medium text-neutral-700 dark:text-neutral-300';
export const TH_CLASS =
  'border-b border-neutral-200 px-2 py-1.5 font-medium text-neutral-600 dark:border-neutral-700 dark:text-neutral-400';
export const TD_CLASS = 'border-b border-neutral-100 px-2 py-1.5 dark:border-neutral-800';
export const NUM_CLASS = `${TD_CLASS} text-right tabular-nums`;

interface SectionProps {
  id: string;
  title: string;
  children: ReactNode;
}

/** A titled card; the heading labels the region. */
export function Section({ id, title, children }: SectionProps) {
  return (
    <section
      aria-labelledby={id}
      className="rounded-lg border border-neutral-200 bg-white p-4 dark:border-neutral-800 dark:bg-neutral-900"
    >
      <h2 id={id} className="mb-3 text-base font-semibold text-neutral-950 dark:text-neutral-50">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A warning marker: icon and words, in red, never the colour alone. */
export function Warning({ children }: { children: ReactNode }) {
  return (
    <span className="inline-flex items-center gap-1 font-medium text-red-700 dark:text-red-400">
      <span aria-hidden="true">⚠</span>
      {children}
    </span>
  );
}

/** A term/value list for single facts (ISS, rating, review). */
export function Facts({ items }: { items: readonly { term: string; value: ReactNode }[] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
      {items.map((item) => (
        <div key={item.term}>
          <dt className="text-neutral-600 dark:text-neutral-400">{item.term}</dt>
          <dd className="font-medium text-neutral-950 dark:text-neutral-50">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
