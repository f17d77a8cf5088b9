/**
 * Pasted or uploaded watch lists. Resolving, estimating and sending live in src/lib/watchlist.ts
 * (shared with the profile's Network tab).
 */

/** Lines, commas, semicolons or tabs separate entries; blanks and repeats are dropped. */
export function splitEntries(text: string): string[] {
  const parts = text.split(/[\r\n,;\t]+/).map((part) => part.trim());
  return [...new Set(parts.filter((part) => part !== ''))];
}
