/** The words, symbols and colours of a verdict, shared by the header's summary and the full verdict. */
import type { Outcome } from '../../../../lib/vetting/index.ts';

export const OUTCOME_WORDS: Record<Outcome, string> = {
  pass: 'Pass',
  review: 'Review',
  fail: 'Fail',
};

export const OUTCOME_SYMBOL: Record<Outcome, string> = { pass: '✓', review: '!', fail: '✕' };

export const BANNER_CLASS: Record<Outcome, string> = {
  pass: 'border-emerald-400 bg-emerald-50 dark:border-emerald-700 dark:bg-emerald-950',
  review: 'border-amber-400 bg-amber-50 dark:border-amber-700 dark:bg-amber-950',
  fail: 'border-red-400 bg-red-50 dark:border-red-700 dark:bg-red-950',
};

export const WORD_CLASS: Record<Outcome, string> = {
  pass: 'text-emerald-800 dark:text-emerald-200',
  review: 'text-amber-900 dark:text-amber-200',
  fail: 'text-red-800 dark:text-red-200',
};

/** The id of the overview's full verdict (its reasons): the target of "Why" and "Full verdict". */
export const FULL_VERDICT_ID = 'verdict';
