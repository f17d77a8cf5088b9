/**
 * The count of decisions due for re-vet next to "Decisions" in the navigation (overdue, or due
 * within 14 days; `GET /api/local/decisions/revet-due`). Asked once the page is idle, so it never
 * delays the page's own first answers; hidden until known and when zero.
 */
import { useEffect, useState } from 'react';
import { whenIdle } from '../../../lib/idle.ts';
import { useRevetDue } from '../api/decisions.ts';
import { revetCountWords } from '../model/revet.ts';

export function RevetNavCount() {
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => setIdle(true)), []);
  const queue = useRevetDue(idle);
  if (!queue.data) return null;
  const { overdue, soon } = queue.data;
  const total = overdue + soon;
  if (total === 0) return null;
  const text = total > 999 ? '999+' : String(total);
  return (
    <span
      data-testid="revet-nav-count"
      className={`ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full px-1.5 text-xs font-semibold tabular-nums ${overdue > 0 ? 'bg-red-800 text-white dark:bg-red-300 dark:text-neutral-950' : 'bg-amber-200 text-amber-950 dark:bg-amber-300 dark:text-neutral-950'}`}
    >
      <span aria-hidden="true">{text}</span>
      <span className="sr-only">{revetCountWords(overdue, soon)}</span>
    </span>
  );
}
