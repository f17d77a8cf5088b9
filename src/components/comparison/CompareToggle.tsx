import { useState } from 'react';
import {
  COMPARE_MAX,
  addToCompare,
  normaliseDot,
  removeFromCompare,
  useCompareSelection,
} from '../../lib/comparison/selection.ts';

interface CompareToggleProps {
  /** the carrier's DOT number */
  dot: string;
  /** its name, shown on the compare page until the profile is held */
  name?: string | undefined;
  className?: string;
}

const BASE =
  'inline-flex items-center gap-1 rounded-md border px-2 py-1 text-xs font-medium whitespace-nowrap disabled:opacity-60 print:hidden';
const OFF =
  'border-neutral-300 text-neutral-800 hover:bg-neutral-100 dark:border-neutral-700 dark:text-neutral-100 dark:hover:bg-neutral-800';
const ON =
  'border-sky-600 bg-sky-50 text-sky-900 hover:bg-sky-100 dark:border-sky-500 dark:bg-sky-950 dark:text-sky-100 dark:hover:bg-sky-900';

/**
 * "Add to compare": a toggle button (`aria-pressed`) that puts a carrier in, or takes it out of,
 * the shared compare selection. With four carriers picked it refuses and says why.
 *
 * Usage: `<CompareToggle dot="568253" name="Hansen Freight LLC" />`.
 */
export function CompareToggle({ dot, name, className = '' }: CompareToggleProps) {
  const selection = useCompareSelection();
  const [refused, setRefused] = useState(false);
  const normal = normaliseDot(dot);
  if (!normal) return null;
  const pressed = selection.some((entry) => entry.dot === normal);
  const full = !pressed && selection.length >= COMPARE_MAX;
  const who = name ?? `DOT ${normal}`;
  return (
    <span className="inline-flex flex-col items-start print:hidden">
      <button
        type="button"
        aria-pressed={pressed}
        // the carrier in the name (an aria-label, so text queries of the row find its name once)
        aria-label={`Add to compare: ${who}`}
        data-compare-dot={normal}
        className={`${BASE} ${pressed ? ON : OFF} ${className}`}
        onClick={() => {
          if (pressed) {
            removeFromCompare(normal);
            setRefused(false);
          } else {
            setRefused(addToCompare(normal, name) === 'full');
          }
        }}
      >
        <span aria-hidden="true">{pressed ? '✓' : '+'}</span>
        Add to compare
      </button>
      {refused && full ? (
        <span role="status" className="mt-0.5 text-xs text-amber-900 dark:text-amber-200">
          Compare holds {COMPARE_MAX} carriers: remove one first.
        </span>
      ) : null}
    </span>
  );
}
