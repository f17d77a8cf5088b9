/** Sorting for the virtual table: numbers and strings, missing values always last. */
export type SortValue = string | number | boolean | undefined;
export type SortDirection = 'asc' | 'desc';

export interface SortState {
  columnId: string;
  direction: SortDirection;
}

/** One collator for every comparison: `localeCompare` with options builds one per call. */
const NATURAL = new Intl.Collator('en', { numeric: true });

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return NATURAL.compare(String(a), String(b));
}

/** A stable sort of `rows` by `value`; rows without a value go last in both directions. */
export function sortRows<Row>(
  rows: readonly Row[],
  value: (row: Row) => SortValue,
  direction: SortDirection,
): Row[] {
  const sign = direction === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, key: value(row) }))
    .sort((a, b) => {
      if (a.key === undefined || b.key === undefined) {
        return a.key === b.key ? a.index - b.index : a.key === undefined ? 1 : -1;
      }
      return sign * compareValues(a.key, b.key) || a.index - b.index;
    })
    .map(({ row }) => row);
}

/** Clicking a header: a new column starts with `first`; the same column flips. */
export function nextSort(
  current: SortState | undefined,
  columnId: string,
  first: SortDirection,
): SortState {
  if (current?.columnId !== columnId) return { columnId, direction: first };
  return { columnId, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}
