/**
 * Small presentational parts shared by the fleet, contact and network tabs: a titled section, a
 * grid of labelled facts, a yes/no checklist and a table shell. Colour is never the only signal:
 * every state also reads as words.
 */
import type { ReactNode } from 'react';
import { formatFlag } from '../../../../lib/format.ts';

export function Section({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  const headingId = `${id}-heading`;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="scroll-mt-4 rounded-lg border border-neutral-200 bg-white p-4 dark:border-neutral-800 dark:bg-neutral-900"
    >
      <h3 id={headingId} className="text-lg font-semibold text-neutral-950 dark:text-neutral-50">
        {title}
      </h3>
      {description ? (
        <p className="mt-1 text-sm text-neutral-600 dark:text-neutral-400">{description}</p>
      ) : null}
      <div className="mt-3">{children}</div>
    </section>
  );
}

export interface Fact {
  label: string;
  value: ReactNode;
}

/** Label/value pairs as a description list in a responsive grid. */
export function Facts({ facts, label }: { facts: readonly Fact[]; label?: string }) {
  return (
    <dl
      aria-label={label}
      className="grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-3 lg:grid-cols-4"
    >
      {facts.map((fact) => (
        <div key={fact.label}>
          <dt className="text-xs font-medium text-neutral-600 uppercase dark:text-neutral-400">
            {fact.label}
          </dt>
          <dd className="mt-0.5 text-sm text-neutral-950 tabular-nums dark:text-neutral-50">
            {fact.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

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

/**
 * Scrollable frame with a caption for a semantic table. `relative` makes the frame the containing
 * block of visually hidden (absolutely positioned) labels in its cells: without it they escape the
 * scroll box and widen the whole page on a phone (the Network tab was 487 px wide at 390).
 */
export function TableFrame({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <div className="relative overflow-x-auto rounded-md border border-neutral-200 dark:border-neutral-800">
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export const TH =
  'border-b border-neutral-200 bg-neutral-50 px-3 py-2 font-medium whitespace-nowrap text-neutral-700 dark:border-neutral-800 dark:bg-neutral-950 dark:text-neutral-300';
export const TD =
  'border-b border-neutral-100 px-3 py-2 align-top tabular-nums dark:border-neutral-800';

/** A short line for "nothing here" states. */
export function Empty({ children }: { children: ReactNode }) {
  return <p className="text-sm text-neutral-600 dark:text-neutral-400">{children}</p>;
}
