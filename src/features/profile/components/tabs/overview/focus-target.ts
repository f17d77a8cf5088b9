/**
 * Moves keyboard focus to the section an evidence link names once it is on the page: following
 * "Evidence: Network" swaps the overview for the Network tab (a lazy chunk), so the link that had
 * focus is gone and focus would fall back to <body>; an evidence link to the header's badges stays
 * on the page, and only the hash changes. The page scrolls to the hash by itself (ProfilePage's
 * ScrollToHash); this only focuses, without scrolling again, and outlines the target a moment.
 */
const GIVE_UP_MS = 15_000;
const HIGHLIGHT_MS = 2_000;
const HIGHLIGHT_CLASSES = [
  'ring-2',
  'ring-sky-600',
  'ring-offset-2',
  'dark:ring-sky-400',
  'dark:ring-offset-neutral-950',
];

/** Outlines the element for two seconds (marked `data-evidence-highlight` meanwhile). */
export function highlightEvidence(target: HTMLElement): void {
  target.classList.add(...HIGHLIGHT_CLASSES);
  target.setAttribute('data-evidence-highlight', '');
  setTimeout(() => {
    target.classList.remove(...HIGHLIGHT_CLASSES);
    target.removeAttribute('data-evidence-highlight');
  }, HIGHLIGHT_MS);
}

function focus(target: HTMLElement): void {
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex'))
    target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
  highlightEvidence(target);
}

/** Focus the element with this id as soon as it exists (now, or once it renders). */
export function focusWhenShown(id: string): void {
  if (!id) return;
  const now = document.getElementById(id);
  if (now) {
    // the same page: the target is already there (the route still changes the hash)
    requestAnimationFrame(() => focus(now));
    return;
  }
  const observer = new MutationObserver(() => {
    const target = document.getElementById(id);
    if (!target) return;
    observer.disconnect();
    clearTimeout(timer);
    focus(target);
  });
  const timer = setTimeout(() => observer.disconnect(), GIVE_UP_MS);
  observer.observe(document.body, { childList: true, subtree: true });
}
