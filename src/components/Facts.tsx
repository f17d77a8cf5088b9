import type { ReactNode } from 'react';

export interface Fact {
  term: string;
  value: ReactNode;
}

interface FactsProps {
  items: readonly Fact[];
  /** columns on wide screens: 2 (from small screens), 3 (2, then 3 on large), 4 (2 on phones) */
  columns?: 2 | 3 | 4;
  /** smaller type, for facts inside a table's detail row */
  dense?: boolean;
  /** accessible name of the list, when the section heading does not say it */
  label?: string;
}

const COLUMN_CLASS = {
  2: 'grid-cols-1 sm:grid-cols-2',
  3: 'grid-cols-1 sm:grid-cols-2 lg:grid-cols-3',
  4: 'grid-cols-2 sm:grid-cols-3 lg:grid-cols-4',
} as const;

/** Label/value pairs as a <dl> in a responsive grid: the one fact list of the app. */
export function Facts({ items, columns = 3, dense = false, label }: FactsProps) {
  return (
    <dl
      aria-label={label}
      className={`grid ${COLUMN_CLASS[columns]} ${dense ? 'gap-x-4 gap-y-1 text-xs' : 'gap-x-6 gap-y-3 text-sm'}`}
    >
      {items.map((item) => (
        <div key={item.term} className="min-w-0">
          <dt className="text-neutral-600 dark:text-neutral-400">{item.term}</dt>
          <dd className="font-medium break-words text-neutral-950 tabular-nums dark:text-neutral-50">
            {item.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
