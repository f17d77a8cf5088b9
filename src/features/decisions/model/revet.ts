/**
 * The re-vet queue's words: how far a current decision's re-vet date is from the proxy's today
 * (`as_of`, a UTC day), and the URL switch of the Decisions page (`?revet=due`).
 */

const DAY_MS = 86_400_000;

/** Whether the Decisions page shows the re-vet queue (`?revet=due`) rather than every record. */
export function isRevetView(params: URLSearchParams): boolean {
  return params.get('revet') === 'due';
}

/** Whole days from `from` to `to`, both YYYY-MM-DD. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** "overdue by 3 days", "due today", "due in 1 day". */
export function dueWords(expiresOn: string, asOf: string): string {
  const days = daysBetween(asOf, expiresOn);
  const plural = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  if (days < 0) return `overdue by ${plural(-days)}`;
  return days === 0 ? 'due today' : `due in ${plural(days)}`;
}

/** The navigation's words for the count: "2 decisions due for re-vet (1 overdue)". */
export function revetCountWords(overdue: number, soon: number): string {
  const total = overdue + soon;
  const what = `${total} decision${total === 1 ? '' : 's'} due for re-vet`;
  return overdue > 0 ? `${what} (${overdue} overdue)` : what;
}
