/** Pasted or uploaded watch lists, split into entries (resolved and priced by `cost.ts`). */

/** Lines, commas, semicolons or tabs separate entries; blanks and repeats are dropped. */
export function splitEntries(text: string): string[] {
  const parts = text.split(/[\r\n,;\t]+/).map((part) => part.trim());
  return [...new Set(parts.filter((part) => part !== ''))];
}
