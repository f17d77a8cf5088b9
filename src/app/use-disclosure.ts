import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation } from 'react-router';

export interface Disclosure {
  open: boolean;
  toggle: () => void;
  close: () => void;
  /** the button that shows and hides the panel (gets the focus back on Escape) */
  buttonRef: RefObject<HTMLButtonElement | null>;
  /** the panel: a click or a focus inside it keeps it open */
  panelRef: RefObject<HTMLElement | null>;
}

function inside(target: EventTarget | null, ...elements: (HTMLElement | null)[]): boolean {
  return target instanceof Node && elements.some((element) => element?.contains(target) === true);
}

/**
 * A disclosure (a button that shows and hides a panel, as the header's navigation menu on narrow
 * screens): Escape closes it and gives the focus back to the button; a click, a tap or the focus
 * landing outside the button and the panel closes it; so does any navigation (the panel is open
 * only for the location it was opened at, so a link, the omnibox or the browser's Back all close
 * it without an effect).
 */
export function useDisclosure(): Disclosure {
  const { pathname, search, hash } = useLocation();
  const here = `${pathname}${search}${hash}`;
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === here;
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);

  const close = useCallback(() => setOpenAt(null), []);
  const toggle = useCallback(
    () => setOpenAt((current) => (current === here ? null : here)),
    [here],
  );

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!inside(event.target, buttonRef.current, panelRef.current)) close();
    };
    const onFocusIn = (event: FocusEvent) => {
      if (!inside(event.target, buttonRef.current, panelRef.current)) close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const focusWasInside = inside(document.activeElement, buttonRef.current, panelRef.current);
      close();
      if (focusWasInside) buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open, close]);

  return { open, toggle, close, buttonRef, panelRef };
}
