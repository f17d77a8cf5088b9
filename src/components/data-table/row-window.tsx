/**
 * The window of a virtualised <table> (@tanstack/react-virtual): which rows to render inside a
 * scroll box, and the spacer heights that stand for the rows above and below it. Each rendered row
 * is a <tbody> (the row plus its optional detail row) measured as one item, so rows may grow when
 * expanded. Shared by `DataTable` and the monitoring inbox.
 */
import {
  defaultRangeExtractor,
  measureElement,
  observeElementRect,
  useVirtualizer,
  type Range,
  type VirtualItem,
  type Virtualizer,
} from '@tanstack/react-virtual';
import { useCallback, type RefObject } from 'react';

type TableVirtualizer = Virtualizer<HTMLDivElement, HTMLTableSectionElement>;

export interface RowWindowOptions {
  count: number;
  scrollRef: RefObject<HTMLDivElement | null>;
  /** the key of the row at `index` (React key and measurement cache key) */
  rowKey: (index: number) => string | number;
  /** height (px) assumed for a row before it is measured */
  estimate: number;
  /** height (px) of the scroll box assumed before layout, so the first screenful renders at once */
  fallbackHeight: number;
  /** rows rendered beyond each edge of the visible ones (default 8) */
  overscan?: number;
  /** a row to keep rendered even when scrolled out of view (e.g. the one holding the focus) */
  keepIndex?: number | undefined;
}

interface WindowRow extends VirtualItem {
  /** px of the rows left out between the previous rendered row (or the top) and this one */
  gapBefore: number;
}

export interface RowWindow {
  virtualizer: TableVirtualizer;
  /** the rendered rows, in order; a kept row far from the window has a gap before it */
  rows: WindowRow[];
  /** px of the rows below the last rendered one */
  after: number;
}

/**
 * Before layout (or without a layout engine) the scroll box measures 0 × 0; assume its height so
 * the first screenful of rows renders at once.
 */
function observeRectWithFallback(height: number) {
  return (instance: TableVirtualizer, cb: (rect: { width: number; height: number }) => void) =>
    observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : { ...rect, height }));
}

/** A row always has height; without layout (0) the estimate stands, so the window stays finite. */
function measureWithFallback(estimate: number) {
  return (...args: Parameters<typeof measureElement<HTMLTableSectionElement>>) => {
    const height = measureElement(...args);
    return height > 0 ? height : estimate;
  };
}

/** The default range plus `keep`, in order (the kept row may lie outside the window). */
function rangeKeeping(keep: number | undefined) {
  return (range: Range): number[] => {
    const indexes = defaultRangeExtractor(range);
    if (keep === undefined || keep < 0 || keep >= range.count || indexes.includes(keep)) {
      return indexes;
    }
    return [...indexes, keep].sort((a, b) => a - b);
  };
}

export function useRowWindow(options: RowWindowOptions): RowWindow {
  const { count, scrollRef, rowKey, estimate, fallbackHeight, keepIndex } = options;
  const getScrollElement = useCallback(() => scrollRef.current, [scrollRef]);
  // The virtualizer's functions are not memoisable; React Compiler skips this hook, as intended.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLTableSectionElement>({
    count,
    getScrollElement,
    estimateSize: () => estimate,
    measureElement: measureWithFallback(estimate),
    getItemKey: rowKey,
    overscan: options.overscan ?? 8,
    observeElementRect: observeRectWithFallback(fallbackHeight),
    rangeExtractor: rangeKeeping(keepIndex),
  });
  return { virtualizer, ...withGaps(virtualizer.getVirtualItems(), virtualizer.getTotalSize()) };
}

/** Each rendered row with the height of the rows skipped before it, and the height after the last. */
function withGaps(items: readonly VirtualItem[], total: number): Omit<RowWindow, 'virtualizer'> {
  let end = 0;
  const rows = items.map((item) => {
    const row = { ...item, gapBefore: Math.max(0, item.start - end) };
    end = item.end;
    return row;
  });
  return { rows, after: Math.max(0, total - end) };
}

/** A spacer row group standing for rows out of view; hidden from assistive technology. */
export function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    <tbody aria-hidden="true">
      <tr style={{ height }}>
        <td colSpan={columns} className="p-0" />
      </tr>
    </tbody>
  );
}
