import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ScrollHintFrame, useScrollEdges } from '../../../components/ScrollHint.tsx';
import { preloadTab } from './tab-components.ts';
import { PROFILE_TABS, type ProfileTabId } from './tabs/types.ts';
import { carrierPath } from '../../../lib/carrier/paths.ts';

interface ProfileTabNavProps {
  dot: string;
  current: ProfileTabId;
}

function tabClass(active: boolean, pending: boolean): string {
  const base =
    'block rounded-t-md border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap max-sm:px-2.5';
  if (active) return `${base} border-sky-600 text-sky-800 dark:border-sky-400 dark:text-sky-200`;
  return pending
    ? `${base} animate-pulse border-sky-300 text-neutral-950 dark:border-sky-700 dark:text-neutral-50`
    : `${base} border-transparent text-neutral-700 hover:border-neutral-300 hover:text-neutral-950 dark:text-neutral-300 dark:hover:border-neutral-600 dark:hover:text-neutral-50`;
}

/**
 * Where the strip should scroll so the current tab sits in its middle (0 when everything fits):
 * the tab's left edge minus half the room left beside it, within the strip's scroll range.
 */
export function centredScrollLeft(
  strip: { clientWidth: number; scrollWidth: number },
  tab: { offsetLeft: number; offsetWidth: number },
): number {
  const max = Math.max(0, strip.scrollWidth - strip.clientWidth);
  const centred = tab.offsetLeft - (strip.clientWidth - tab.offsetWidth) / 2;
  return Math.round(Math.min(max, Math.max(0, centred)));
}

/**
 * The tabs as links: every tab is a URL, the current one marked with aria-current. Pointing at or
 * focusing a tab starts loading its code, so it is there (or on its way) by the time of the click.
 * The switch is a transition: the current tab stays on screen until the next one can draw, and the
 * clicked tab is marked busy meanwhile (the mark goes when the page moves to any tab).
 * On a phone the tabs are one row that scrolls sideways inside its own box (the page never does),
 * with the current tab scrolled into the middle and a fade on each edge that has more tabs beyond it.
 */
export function ProfileTabNav({ dot, current }: ProfileTabNavProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const { ref: edgesRef, edges } = useScrollEdges<HTMLUListElement>();
  const setList = useCallback(
    (element: HTMLUListElement | null) => {
      listRef.current = element;
      edgesRef(element);
    },
    [edgesRef],
  );
  const [pending, setPending] = useState<{ tab: ProfileTabId; from: ProfileTabId } | null>(null);
  const busyTab = pending?.from === current ? pending.tab : null;
  useLayoutEffect(() => {
    const list = listRef.current;
    const tab = list?.querySelector<HTMLElement>('[aria-current="page"]')?.parentElement;
    // scrollLeft, not scrollIntoView: that would scroll the page too
    if (list && tab) list.scrollLeft = centredScrollLeft(list, tab);
  }, [current]);
  return (
    <nav
      aria-label="Profile sections"
      data-print-hide
      className="mb-6 border-b border-neutral-200 max-sm:mb-4 dark:border-neutral-800"
    >
      <ScrollHintFrame edges={edges} className="-mb-px">
        <ul
          ref={setList}
          className="flex flex-wrap gap-x-1 max-sm:[scrollbar-width:thin] max-sm:flex-nowrap max-sm:gap-x-0 max-sm:overflow-x-auto"
        >
          {PROFILE_TABS.map((tab) => (
            <li key={tab.id} className="max-sm:shrink-0">
              <Link
                to={carrierPath(dot, tab.id)}
                aria-current={tab.id === current ? 'page' : undefined}
                aria-busy={tab.id === busyTab ? true : undefined}
                className={tabClass(tab.id === current, tab.id === busyTab)}
                onClick={() =>
                  setPending(tab.id === current ? null : { tab: tab.id, from: current })
                }
                onPointerEnter={() => preloadTab(tab.id)}
                onFocus={() => preloadTab(tab.id)}
              >
                {tab.label}
              </Link>
            </li>
          ))}
        </ul>
      </ScrollHintFrame>
    </nav>
  );
}
