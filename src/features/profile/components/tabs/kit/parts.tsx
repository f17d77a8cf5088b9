/**
 * Small presentational parts of the profile tabs. Colour is never the only signal: every state also
 * reads as words.
 */
import type { ReactNode } from 'react';
import { formatFlag } from '../../../../../lib/format.ts';

export interface CheckItem {
  label: string;
  value: boolean | undefined;
}

const CHECK_MARK: Readonly<Record<string, string>> = { Yes: '✓', No: '✗', '—': '·' };

/** A checklist of flags: each row says Yes / No / — (not reported) in words and a mark. */
export function Checklist({ items, label }: { items: readonly CheckItem[]; label: string }) {
  return (
    <ul aria-label={label} className="grid grid-cols-1 gap-1 text-sm sm:grid-cols-2 lg:grid-cols-3">
      {items.map((item) => {
        const word = formatFlag(item.value);
        const on = item.value === true;
        return (
          <li
            key={item.label}
            className={
              on
                ? 'flex gap-2 font-medium text-neutral-950 dark:text-neutral-50'
                : 'flex gap-2 text-neutral-600 dark:text-neutral-400'
            }
          >
            <span aria-hidden="true">{CHECK_MARK[word]}</span>
            <span>
              {item.label}: {word === '—' ? 'not reported' : word}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** A short line for "nothing here" states. */
export function Empty({ children }: { children: ReactNode }) {
  return <p className="text-sm text-neutral-600 dark:text-neutral-400">{children}</p>;
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
