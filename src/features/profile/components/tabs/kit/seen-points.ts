/** Map points of the history tabs drawn from the proxy's compact points (`*-points` views). */
import { useEffect, useRef, useState } from 'react';
import type { MapPoint } from '../../../../../components/map/types.ts';

/**
 * The rows of a history seen so far (any page, any sort), by id: what a map point built from the
 * proxy's compact points knows about its element. Filled as pages arrive; never emptied while the
 * tab is open (a few thousand small records at most).
 */
export type SeenRows<T> = Map<string, T>;

/**
 * A map point from a compact `[lon, lat, id]` triple whose text comes from its row when that row
 * has been loaded (`seen`), else a generic label. The point list stays the same object while the
 * table pages (a new list would redraw and refit the map); the text is read when the popup opens
 * or the list of points renders, by then the selected row is usually loaded.
 */
export class SeenRowPoint<T> implements MapPoint {
  constructor(
    readonly id: string,
    readonly lat: number,
    readonly lon: number,
    private readonly seen: SeenRows<T>,
    private readonly describe: (row: T) => { label: string; details: string[] },
    private readonly generic: string,
  ) {}

  get label(): string {
    const row = this.seen.get(this.id);
    return row ? this.describe(row).label : this.generic;
  }

  get details(): string[] | undefined {
    const row = this.seen.get(this.id);
    return row ? this.describe(row).details : undefined;
  }
}

/** An empty record of the rows seen, kept for the component's life. */
export function useSeenRows<T>(): SeenRows<T> {
  const [seen] = useState<SeenRows<T>>(() => new Map());
  return seen;
}

/**
 * Records the rows of each page that arrives. In an effect, after the page is drawn: a point's
 * text is read when it is selected or listed, which comes later.
 */
export function useRemember<R extends { id: string }, T>(
  seen: SeenRows<T>,
  rows: readonly R[],
  item: (row: R) => T,
): void {
  const itemRef = useRef(item);
  useEffect(() => {
    itemRef.current = item;
  });
  useEffect(() => {
    for (const row of rows) seen.set(row.id, itemRef.current(row));
  }, [seen, rows]);
}
