/**
 * The layout check (issue 28): what a person sees on one loaded page, at one width and theme, read
 * from the live DOM in one `page.evaluate`. It finds
 * - `page-scroll`: the document is wider than the viewport (the page scrolls sideways);
 * - `overlap`: two visible interactive elements overlap (neither inside the other, neither in a
 *   deliberate overlay: an open dialog, menu, listbox, popover or `[data-overlay]`);
 * - `target-size`: an interactive element smaller than 24×24 CSS px whose 24 px circle, centred on
 *   its box, meets another target or another small target's circle (WCAG 2.2 SC 2.5.8); a link
 *   inside running text is exempt, as the SC says;
 * - `clipped-text`: text cut off inside a box that does not scroll (overflow hidden/clip, or a text
 *   ellipsis or line clamp, whose content is wider than the box; a field whose placeholder or
 *   chosen option does not fit). Deliberate truncation is allowed when the full text is at hand:
 *   the box or an ancestor has a `title`, `aria-label` or `data-full-text` containing the whole text;
 * - `scroll-hint`: a box that scrolls sideways (overflow-x auto/scroll, content wider than the box)
 *   without the shared fade (`ScrollHint` in src/components/ScrollHint.tsx), which marks the box or
 *   its wrapper with `data-scroll-hint` naming the edges that have more ("start", "end"); the check
 *   wants it on a box that can scroll and not "none".
 * "Visible" means rendered with a box of at least 2×2 px inside every clipping ancestor, not hidden
 * by `visibility`, `opacity` or `content-visibility`; a visually hidden (sr-only) element is not.
 */
import type { Page } from '@playwright/test';

export type Theme = 'light' | 'dark';

const LAYOUT_WIDTHS = [390, 1280, 1440, 1920] as const;
const LAYOUT_THEMES: readonly Theme[] = ['light', 'dark'];

/** A box in page coordinates, rounded to whole px. */
interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface LayoutTarget {
  /** A short selector: tag, id, the first classes or data attribute. */
  selector: string;
  /** The element's text or accessible name, shortened. */
  text: string;
  box: Box;
}

export interface LayoutProblem {
  kind: 'page-scroll' | 'overlap' | 'target-size' | 'clipped-text' | 'scroll-hint';
  detail: string;
  elements: LayoutTarget[];
}

interface LayoutContext {
  route: string;
  width: number;
  /** "light+dark" for a problem found the same in both */
  theme: string;
}

/** Runs in the page: everything the check reads. Self-contained (no closures over Node values). */
function inspectLayout(): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  const MIN_TARGET = 24;
  const RADIUS = MIN_TARGET / 2;
  const INTERACTIVE = [
    'a[href]',
    'button',
    'input:not([type="hidden"])',
    'select',
    'textarea',
    'summary',
    '[role="button"]',
    '[role="link"]',
    '[role="tab"]',
    '[role="checkbox"]',
    '[role="radio"]',
    '[role="switch"]',
    '[role="menuitem"]',
    '[tabindex]:not([tabindex^="-"])',
    '[contenteditable="true"]',
  ].join(',');
  // Deliberate overlays: open dialogs, menus, listboxes, tooltips, popovers, anything marked
  // `data-overlay`, and a map's own controls drawn over the map.
  const OVERLAY =
    'dialog[open], [role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"], [role="tooltip"], [popover], [data-overlay], .maplibregl-control-container';

  const round = (value: number) => Math.round(value);
  const pageBox = (rect: { left: number; top: number; width: number; height: number }): Box => ({
    x: round(rect.left + window.scrollX),
    y: round(rect.top + window.scrollY),
    w: round(rect.width),
    h: round(rect.height),
  });
  const short = (text: string, max = 50) => {
    const flat = text.replace(/\s+/g, ' ').trim();
    return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  };
  const selectorOf = (element: Element): string => {
    const tag = element.tagName.toLowerCase();
    if (element.id) return `${tag}#${element.id}`;
    const data = [...element.attributes].find(
      (attribute) => attribute.name.startsWith('data-') && attribute.value.length < 30,
    );
    const classes = [...element.classList].slice(0, 3).map((name) => `.${CSS.escape(name)}`);
    const role = element.getAttribute('role');
    return [
      tag,
      role ? `[role=${role}]` : '',
      data ? `[${data.name}="${data.value}"]` : '',
      classes.join(''),
    ].join('');
  };
  const nameOf = (element: Element): string => {
    const label =
      element.getAttribute('aria-label') ??
      element.getAttribute('title') ??
      (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement
        ? element.placeholder || element.value
        : '');
    if (!label && element instanceof HTMLSelectElement) {
      return short(element.selectedOptions[0]?.text ?? '');
    }
    return short(label || (element.textContent ?? ''));
  };

  interface Rect {
    left: number;
    top: number;
    right: number;
    bottom: number;
  }
  const width = (rect: Rect) => rect.right - rect.left;
  const height = (rect: Rect) => rect.bottom - rect.top;
  const intersect = (a: Rect, b: Rect): Rect => ({
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  });
  const asRect = (rect: DOMRect): Rect => ({
    left: rect.left,
    top: rect.top,
    right: rect.right,
    bottom: rect.bottom,
  });
  const toBox = (rect: Rect) =>
    pageBox({ left: rect.left, top: rect.top, width: width(rect), height: height(rect) });

  /** The part of an element's box not cut off by an ancestor that clips; undefined when none. */
  const visibleRect = (element: Element): Rect | undefined => {
    if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
      return undefined;
    }
    let rect = asRect(element.getBoundingClientRect());
    if (width(rect) < 2 || height(rect) < 2) return undefined;
    const own = getComputedStyle(element);
    if (own.clipPath.startsWith('inset(50%')) return undefined;
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      if (parent === document.body || parent === document.documentElement) break;
      const style = getComputedStyle(parent);
      if (style.clipPath.startsWith('inset(50%')) return undefined;
      const clipsX = style.overflowX !== 'visible';
      const clipsY = style.overflowY !== 'visible';
      if (clipsX || clipsY) {
        const box = asRect(parent.getBoundingClientRect());
        rect = intersect(rect, {
          left: clipsX ? box.left : -Infinity,
          right: clipsX ? box.right : Infinity,
          top: clipsY ? box.top : -Infinity,
          bottom: clipsY ? box.bottom : Infinity,
        });
        if (width(rect) < 2 || height(rect) < 2) return undefined;
      }
      if (style.position === 'fixed') break;
    }
    return rect;
  };

  // 1. The page itself does not scroll sideways.
  const viewport = document.documentElement.clientWidth;
  const pageWidth = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
  if (pageWidth > viewport) {
    // Does an element's box reach the page, or is it clipped by a box that scrolls or hides?
    // A static or relative box is clipped by any clipping ancestor; an absolute one only by its
    // containing block (the nearest positioned ancestor) and what clips that.
    const escapes = (element: Element): boolean => {
      let node: Element | null = element;
      while (node && node !== document.body) {
        const position: string = getComputedStyle(node).position;
        if (position === 'fixed') return false;
        const next: Element | null =
          position === 'absolute'
            ? ((node as HTMLElement).offsetParent ?? document.body)
            : node.parentElement;
        if (!next || next === document.body) return true;
        if (getComputedStyle(next).overflowX !== 'visible') return false;
        node = next;
      }
      return true;
    };
    // The elements that reach past the right edge, outermost first.
    const wide = [...document.body.querySelectorAll('*')].filter((element) => {
      const rect = element.getBoundingClientRect();
      return rect.right + window.scrollX > viewport + 0.5 && rect.width > 0 && escapes(element);
    });
    const outermost = wide.filter(
      (element) => !wide.some((other) => other !== element && other.contains(element)),
    );
    problems.push({
      kind: 'page-scroll',
      detail: `the page is ${pageWidth} px wide in a ${viewport} px viewport`,
      elements: outermost.slice(0, 5).map((element) => ({
        selector: selectorOf(element),
        text: short(element.textContent ?? ''),
        box: pageBox(element.getBoundingClientRect()),
      })),
    });
  }

  // The visible interactive elements, with the part of each that shows.
  interface Target {
    element: Element;
    /** the part that shows (overlap) */
    rect: Rect;
    /** the whole box (size and spacing: a target half scrolled out of a box is not smaller) */
    box: Rect;
    overlay: boolean;
    inline: boolean;
  }
  const targets: Target[] = [];
  for (const element of document.querySelectorAll(INTERACTIVE)) {
    if (element.closest('[inert], [aria-hidden="true"]')) continue;
    if ((element as HTMLElement).hasAttribute('disabled') && element.tagName !== 'BUTTON') continue;
    const rect = visibleRect(element);
    if (!rect) continue;
    const style = getComputedStyle(element);
    // A link inside running text: inline, and its block holds other text beside it.
    let inline = false;
    if (style.display === 'inline' && element.parentElement) {
      const block = element.parentElement;
      const own = (element.textContent ?? '').trim().length;
      const around = (block.textContent ?? '').trim().length;
      inline = around - own > 3 && getComputedStyle(block).display !== 'flex';
    }
    targets.push({
      element,
      rect,
      box: asRect(element.getBoundingClientRect()),
      overlay: element.closest(OVERLAY) !== null,
      inline,
    });
  }
  const target = (t: Target, rect: Rect = t.rect): LayoutTarget => ({
    selector: selectorOf(t.element),
    text: nameOf(t.element),
    box: toBox(rect),
  });
  const related = (a: Target, b: Target) =>
    a.element.contains(b.element) || b.element.contains(a.element);

  // 2. No two overlap.
  for (let i = 0; i < targets.length; i += 1) {
    const a = targets[i]!;
    if (a.overlay) continue;
    for (let j = i + 1; j < targets.length; j += 1) {
      const b = targets[j]!;
      if (b.overlay || related(a, b)) continue;
      const both = intersect(a.rect, b.rect);
      if (width(both) > 1 && height(both) > 1) {
        problems.push({
          kind: 'overlap',
          detail: `overlap of ${round(width(both))}×${round(height(both))} px`,
          elements: [target(a), target(b)],
        });
      }
    }
  }

  // 3. Target size, or the spacing SC 2.5.8 allows.
  const centre = (rect: Rect) => ({
    x: (rect.left + rect.right) / 2,
    y: (rect.top + rect.bottom) / 2,
  });
  const distanceToRect = (point: { x: number; y: number }, rect: Rect) => {
    const dx = Math.max(rect.left - point.x, 0, point.x - rect.right);
    const dy = Math.max(rect.top - point.y, 0, point.y - rect.bottom);
    return Math.hypot(dx, dy);
  };
  const small = (t: Target) => width(t.box) < MIN_TARGET - 0.5 || height(t.box) < MIN_TARGET - 0.5;
  for (const a of targets) {
    if (a.overlay || a.inline || !small(a)) continue;
    const c = centre(a.box);
    const crowded = targets.find((b) => {
      if (b === a || b.overlay || related(a, b)) return false;
      if (distanceToRect(c, b.box) < RADIUS - 0.5) return true;
      if (!small(b) || b.inline) return false;
      const d = centre(b.box);
      return Math.hypot(c.x - d.x, c.y - d.y) < MIN_TARGET - 0.5;
    });
    if (crowded) {
      problems.push({
        kind: 'target-size',
        detail: `${round(width(a.box))}×${round(height(a.box))} px, its 24 px circle meets another target`,
        elements: [target(a, a.box), target(crowded, crowded.box)],
      });
    }
  }

  // 4. No text cut off in a box that does not scroll.
  const fullTextAtHand = (element: Element, text: string) => {
    const wanted = text.replace(/\s+/g, ' ').trim().toLowerCase();
    for (let node: Element | null = element; node; node = node.parentElement) {
      for (const attribute of ['title', 'aria-label', 'data-full-text']) {
        const value = node.getAttribute(attribute)?.replace(/\s+/g, ' ').trim().toLowerCase();
        if (value && value.includes(wanted)) return true;
      }
      if (node === document.body) break;
    }
    return false;
  };
  const measure = document.createElement('canvas').getContext('2d');
  const textWidth = (text: string, style: CSSStyleDeclaration) => {
    if (!measure) return 0;
    measure.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    return measure.measureText(text).width;
  };
  for (const element of document.body.querySelectorAll('*')) {
    if (element.closest(OVERLAY) || element.closest('[aria-hidden="true"]')) continue;
    const style = getComputedStyle(element);
    const isField =
      (element instanceof HTMLInputElement &&
        /^(text|search|email|tel|url|number|password|)$/.test(element.type)) ||
      element instanceof HTMLSelectElement;
    const clips =
      style.overflowX === 'hidden' ||
      style.overflowX === 'clip' ||
      style.textOverflow === 'ellipsis' ||
      style.webkitLineClamp !== 'none';
    if (!clips && !isField) continue;
    const rect = visibleRect(element);
    if (!rect) continue;
    let text = '';
    let overflow = 0;
    if (element instanceof HTMLInputElement && isField) {
      if (element.value || !element.placeholder) continue;
      text = element.placeholder;
      const room =
        element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      overflow = textWidth(text, style) - room;
    } else if (element instanceof HTMLSelectElement) {
      text = element.selectedOptions[0]?.text ?? '';
      // the arrow takes about 1.5 em on the inline end
      const room =
        element.clientWidth -
        parseFloat(style.paddingLeft) -
        Math.max(parseFloat(style.paddingRight), parseFloat(style.fontSize) * 1.5);
      overflow = textWidth(text, style) - room;
    } else {
      text = (element as HTMLElement).innerText ?? '';
      if (!text.trim()) continue;
      overflow = element.scrollWidth - element.clientWidth;
      if (style.webkitLineClamp !== 'none') {
        overflow = Math.max(overflow, element.scrollHeight - element.clientHeight);
      }
      // only text that does not fit; an overflow box whose child scrolls on its own is fine
      if (overflow > 1 && element.querySelector('canvas')) continue;
    }
    if (overflow <= 1 || fullTextAtHand(element, text)) continue;
    problems.push({
      kind: 'clipped-text',
      detail: `${round(overflow)} px of text cut off`,
      elements: [{ selector: selectorOf(element), text: short(text), box: toBox(rect) }],
    });
  }

  // 5. A box that scrolls sideways says so.
  for (const element of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(element);
    if (style.overflowX !== 'auto' && style.overflowX !== 'scroll') continue;
    if (element.scrollWidth - element.clientWidth <= 1) continue;
    const rect = visibleRect(element);
    if (!rect) continue;
    const marked = [element, element.parentElement].find((node) =>
      node?.hasAttribute('data-scroll-hint'),
    );
    const hint = marked?.getAttribute('data-scroll-hint');
    if (hint && hint !== 'none') continue;
    problems.push({
      kind: 'scroll-hint',
      detail: marked
        ? `scrolls sideways (${element.scrollWidth} in ${element.clientWidth} px) but its hint says "none"`
        : `scrolls sideways (${element.scrollWidth} in ${element.clientWidth} px) with no data-scroll-hint fade`,
      elements: [
        { selector: selectorOf(element), text: short(element.textContent ?? ''), box: toBox(rect) },
      ],
    });
  }
  return problems;
}

/** Waits for layout after a resize or theme switch: two frames, and fonts. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        void document.fonts.ready.then(() =>
          requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
        );
      }),
  );
}

/** Switches the theme live, as the app follows the system setting when no choice is stored. */
async function setTheme(page: Page, theme: Theme): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.waitForFunction(
    (dark) => document.documentElement.classList.contains('dark') === dark,
    theme === 'dark',
  );
}

/** The problems of the loaded page at one width and theme. */
export async function checkLayout(
  page: Page,
  width: number,
  theme: Theme,
): Promise<LayoutProblem[]> {
  const height = page.viewportSize()?.height ?? 900;
  await page.setViewportSize({ width, height });
  await setTheme(page, theme);
  await page.evaluate(() => window.scrollTo(0, 0));
  await settle(page);
  const first = await page.evaluate(inspectLayout);
  if (first.length === 0) return first;
  // A problem must outlast the app's own reaction to the resize (a ResizeObserver's re-render, a
  // fade's marker): look again a moment later and report what is still there.
  await page.waitForTimeout(250);
  await settle(page);
  return await page.evaluate(inspectLayout);
}

const boxText = (box: Box) => `@${box.x},${box.y} ${box.w}×${box.h}`;

/** One line per problem, naming the route, width, theme and the elements with their boxes. */
function formatProblem(context: LayoutContext, problem: LayoutProblem): string {
  const where = `${context.route} @${context.width}px ${context.theme}`;
  const elements = problem.elements
    .map((element) => `${element.selector} "${element.text}" ${boxText(element.box)}`)
    .join(' | ');
  return `${where}: ${problem.kind}: ${problem.detail}${elements ? ` — ${elements}` : ''}`;
}

/**
 * Checks the loaded page at every width and theme (or those given); returns the formatted problems.
 * The page stays loaded: only the viewport and the colour scheme change.
 */
export async function checkLayoutEverywhere(
  page: Page,
  route: string,
  widths: readonly number[] = LAYOUT_WIDTHS,
  themes: readonly Theme[] = LAYOUT_THEMES,
): Promise<string[]> {
  const found: string[] = [];
  for (const width of widths) {
    // a problem the same in every theme is one line, its themes joined
    const themesOf = new Map<string, { problem: LayoutProblem; themes: Theme[] }>();
    for (const theme of themes) {
      for (const problem of await checkLayout(page, width, theme)) {
        const key = JSON.stringify(problem);
        const seen = themesOf.get(key) ?? { problem, themes: [] };
        seen.themes.push(theme);
        themesOf.set(key, seen);
      }
    }
    for (const { problem, themes: where } of themesOf.values()) {
      found.push(formatProblem({ route, width, theme: where.join('+') }, problem));
    }
  }
  return found;
}
