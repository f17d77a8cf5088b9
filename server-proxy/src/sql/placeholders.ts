/**
 * `?` lists for statements whose length depends on the data: `IN (?, ?, ?)` and multi-row
 * `VALUES (?, ?), (?, ?)`. Both engines take `?` (the PostgreSQL one numbers them).
 */

/** `?, ?, …`: `count` placeholders, for `IN (…)` or one row's `VALUES (…)`. */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/** `(?, ?), (?, ?), …`: `rows` tuples of `width` placeholders, for a multi-row `VALUES`. */
export function tuples(rows: number, width: number): string {
  const one = `(${placeholders(width)})`;
  return Array.from({ length: rows }, () => one).join(', ');
}
