import type { ReactNode } from 'react';

export interface Definition {
  term: string;
  value: ReactNode;
}

interface DefinitionListProps {
  items: readonly Definition[];
  /** columns on wide screens (one on phones, two from small screens) */
  columns?: 2 | 3;
  className?: string;
}

const COLUMN_CLASS = { 2: 'sm:grid-cols-2', 3: 'sm:grid-cols-2 lg:grid-cols-3' } as const;

/** Key/value pairs as a responsive grid of <dt>/<dd>. */
export function DefinitionList({ items, columns = 3, className = '' }: DefinitionListProps) {
  return (
    <dl className={`grid grid-cols-1 gap-x-6 gap-y-3 ${COLUMN_CLASS[columns]} ${className}`}>
      {items.map((item) => (
        <div key={item.term} className="min-w-0">
          <dt className="text-sm text-neutral-600 dark:text-neutral-400">{item.term}</dt>
          <dd className="font-medium break-words text-neutral-900 dark:text-neutral-100">
            {item.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
