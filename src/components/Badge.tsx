import type { ReactNode } from 'react';

export type BadgeTone = 'good' | 'bad' | 'warn' | 'info' | 'neutral';

/** A symbol per tone, so the state never rests on colour alone (the text carries it too). */
const TONE_SYMBOL: Record<BadgeTone, string> = {
  good: '✓',
  bad: '✕',
  warn: '!',
  info: 'i',
  neutral: '–',
};

const TONE_CLASS: Record<BadgeTone, string> = {
  good: 'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100',
  bad: 'border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100',
  warn: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100',
  info: 'border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-100',
  neutral:
    'border-neutral-300 bg-neutral-100 text-neutral-800 dark:border-neutral-700 dark:bg-neutral-800 dark:text-neutral-100',
};

interface BadgeProps {
  tone: BadgeTone;
  /** what the badge is about, e.g. "Authority"; read before the value */
  label?: string;
  children: ReactNode;
  title?: string;
}

/** A small status pill: "✓ Authority: Active". */
export function Badge({ tone, label, children, title }: BadgeProps) {
  return (
    <span
      title={title}
      className={`inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-sm font-medium whitespace-nowrap ${TONE_CLASS[tone]}`}
    >
      <span aria-hidden="true" className="font-bold">
        {TONE_SYMBOL[tone]}
      </span>
      {label ? <span className="font-normal">{label}:</span> : null}
      <span>{children}</span>
    </span>
  );
}
