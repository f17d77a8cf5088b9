/** Tailwind class strings of plain form controls, shared by features (buttons, inputs, labels). */
export const BUTTON =
  'inline-flex items-center gap-1 rounded-md border border-neutral-300 bg-white px-3 py-1.5 text-sm font-medium text-neutral-900 hover:bg-neutral-50 disabled:opacity-50 dark:border-neutral-600 dark:bg-neutral-900 dark:text-neutral-100 dark:hover:bg-neutral-800';
export const PRIMARY_BUTTON =
  'inline-flex items-center gap-1 rounded-md bg-neutral-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-neutral-700 disabled:opacity-50 dark:bg-neutral-100 dark:text-neutral-900 dark:hover:bg-neutral-300';
export const INPUT =
  'rounded-md border border-neutral-300 bg-white px-2 py-1 text-sm text-neutral-900 dark:border-neutral-600 dark:bg-neutral-900 dark:text-neutral-100';
export const LABEL =
  'flex flex-col gap-1 text-sm font-medium text-neutral-700 dark:text-neutral-300';
export const MUTED = 'text-sm text-neutral-600 dark:text-neutral-400';
