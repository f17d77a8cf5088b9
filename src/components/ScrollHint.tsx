/**
 * A box that scrolls sideways shows that it does: a soft shadow on each edge that has more content
 * beyond it. `useScrollEdges` watches a scroller (scroll, its own size and its children's sizes);
 * `ScrollHintFrame` wraps the scroller, draws the fades and says which edges have more in
 * `data-scroll-hint` ("none", "start", "end" or "both"), the marker the e2e layout check
 * (e2e/layout-check.ts) reads. `ScrollArea` is the two together for a plain sideways scroller.
 */
import {
  useCallback,
  useEffect,
  useState,
  type HTMLAttributes,
  type ReactNode,
  type RefCallback,
} from 'react';

export type ScrollEdges = 'none' | 'start' | 'end' | 'both';

/** Which edges of `element` have content beyond them (1 px of rounding ignored). */
function scrollEdges(element: HTMLElement): ScrollEdges {
  const hidden = element.scrollWidth - element.clientWidth;
  if (hidden <= 1) return 'none';
  // scrollLeft is negative in a right-to-left box; its magnitude is the distance from the start
  const left = Math.abs(element.scrollLeft);
  const more = { start: left > 1, end: left < hidden - 1 };
  if (more.start && more.end) return 'both';
  return more.start ? 'start' : 'end';
}

/**
 * The edges of a scroller with more content, kept current; `ref` goes on the scroller (merge it
 * with a ref of your own with a callback that calls both).
 */
export function useScrollEdges<T extends HTMLElement>(): {
  ref: RefCallback<T>;
  edges: ScrollEdges;
} {
  const [node, setNode] = useState<T | null>(null);
  const [edges, setEdges] = useState<ScrollEdges>('none');
  const ref = useCallback<RefCallback<T>>((element) => setNode(element), []);
  useEffect(() => {
    if (!node) return;
    const update = () => setEdges(scrollEdges(node));
    update();
    node.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    // The box and what is inside it: rows arriving or a column widening change the scroll width.
    const sizes = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(update);
    const observeChildren = () => {
      if (!sizes) return;
      sizes.disconnect();
      sizes.observe(node);
      for (const child of node.children) sizes.observe(child);
    };
    observeChildren();
    const children = new MutationObserver(() => {
      observeChildren();
      update();
    });
    children.observe(node, { childList: true });
    return () => {
      node.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
      sizes?.disconnect();
      children.disconnect();
    };
  }, [node]);
  return { ref, edges };
}

const FADE =
  'pointer-events-none absolute inset-y-0 z-20 w-6 from-neutral-900/15 to-transparent transition-opacity print:hidden dark:from-neutral-300/25';

/** Wraps a scroller: the fades over its edges and the `data-scroll-hint` marker. */
export function ScrollHintFrame({
  edges,
  className = '',
  children,
}: {
  edges: ScrollEdges;
  className?: string;
  children: ReactNode;
}) {
  const start = edges === 'start' || edges === 'both';
  const end = edges === 'end' || edges === 'both';
  return (
    <div className={`relative ${className}`} data-scroll-hint={edges}>
      {children}
      <div
        aria-hidden="true"
        className={`${FADE} left-0 rounded-l-lg bg-linear-to-r ${start ? 'opacity-100' : 'opacity-0'}`}
      />
      <div
        aria-hidden="true"
        className={`${FADE} right-0 rounded-r-lg bg-linear-to-l ${end ? 'opacity-100' : 'opacity-0'}`}
      />
    </div>
  );
}

/** A sideways scroller with its fades; the props go on the scrolling box. */
export function ScrollArea({
  className = '',
  frameClassName,
  children,
  ...rest
}: HTMLAttributes<HTMLDivElement> & { frameClassName?: string }) {
  const { ref, edges } = useScrollEdges<HTMLDivElement>();
  return (
    <ScrollHintFrame edges={edges} className={frameClassName}>
      <div ref={ref} className={`overflow-x-auto ${className}`} {...rest}>
        {children}
      </div>
    </ScrollHintFrame>
  );
}
