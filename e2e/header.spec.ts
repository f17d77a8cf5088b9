/**
 * The header at every width from 320 to 2560 px, in both themes: the search is never the part that
 * gives way (from 1024 px its input keeps 240 px and its suggestions open at least as wide as it and
 * 320 px; its Search button searches), no two controls lie on top of each other, the page never
 * scrolls sideways, and every destination is in reach: in the navigation row from 1024 px, behind
 * the menu button below (a disclosure: Escape, a click outside and a navigation close it).
 *
 * The sandbox has no carrier whose name starts "zep", so the suggestions are asked for "swift"
 * (SWIFTPATH, SWIFTLINE …: a long list).
 *
 * A live key adds the month's spend to the first row: a proxy of the spec's own holds an `sk_live_`
 * key, its upstream a stand-in that forwards to the sandbox with the sandbox's key.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from '@playwright/test';
import { SECRET_KEY, axeViolations, expect, test } from './fixtures.ts';
import { checkLayoutEverywhere } from './layout-check.ts';
import { startOwnProxy, type OwnProxy } from './own-proxy.ts';
import { SANDBOX_URL } from './slots.ts';

const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

const DESTINATIONS = [
  { label: 'Search', path: '/search' },
  { label: 'Tender check', path: '/tender-check' },
  { label: 'Bulk vetting', path: '/bulk' },
  { label: 'Compare', path: '/compare' },
  { label: 'Monitoring', path: '/monitoring' },
  { label: 'Alerts', path: '/settings/alerts' },
  { label: 'Decisions', path: '/decisions' },
  { label: 'Policy', path: '/policy' },
  { label: 'Usage', path: '/usage' },
  { label: 'API tokens', path: '/settings/tokens' },
] as const;

const TERM = 'swift';

interface Control {
  name: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Every control drawn in the header (links, buttons, fields), with its box. */
async function headerControls(page: Page): Promise<Control[]> {
  return page.getByRole('banner').evaluate((header) => {
    const selector = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';
    return [...header.querySelectorAll<HTMLElement>(selector)]
      .filter((element) => element.checkVisibility({ visibilityProperty: true }))
      .map((element) => {
        const box = element.getBoundingClientRect();
        const field = element as HTMLElement & { labels?: NodeListOf<HTMLLabelElement> };
        const name =
          element.getAttribute('aria-label') ??
          (field.labels?.[0]?.textContent?.trim() ||
            element.textContent?.trim() ||
            element.tagName);
        return { name, left: box.left, top: box.top, right: box.right, bottom: box.bottom };
      })
      .filter((box) => box.right - box.left > 1 && box.bottom - box.top > 1);
  });
}

/** The pairs of header controls whose boxes share more than half a pixel each way. */
async function overlaps(page: Page): Promise<string[]> {
  const controls = await headerControls(page);
  const found: string[] = [];
  controls.forEach((a, index) => {
    for (const b of controls.slice(index + 1)) {
      const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (width > 0.5 && height > 0.5) found.push(`"${a.name}" overlaps "${b.name}"`);
    }
  });
  return found;
}

async function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

async function width(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${String(locator)} has no box`);
  return box.width;
}

async function open(page: Page, theme: Theme, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  await page.emulateMedia({ colorScheme: theme });
  await page.goto('/search');
  await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
  await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
}

function omnibox(page: Page) {
  const form = page.getByRole('search', { name: 'Carrier search' });
  return {
    form,
    box: form.getByRole('combobox', { name: 'Search carriers' }),
    list: form.getByRole('listbox', { name: 'Suggestions' }),
    submit: form.getByRole('button', { name: 'Search', exact: true }),
  };
}

/** Types the term and checks the suggestions: open, at least as wide as the input, in the window. */
async function expectSuggestions(page: Page, minWidth: number) {
  const { box, list } = omnibox(page);
  await box.pressSequentially(TERM);
  const first = list.getByRole('option').first();
  await expect(first).toBeVisible();
  await expect(first).toBeInViewport({ ratio: 1 });
  const listWidth = await width(list);
  expect(listWidth).toBeGreaterThanOrEqual(await width(box));
  expect(listWidth).toBeGreaterThanOrEqual(minWidth);
  const listBox = await list.boundingBox();
  const viewport = page.viewportSize();
  expect(listBox!.x).toBeGreaterThanOrEqual(0);
  expect(listBox!.x + listBox!.width).toBeLessThanOrEqual(viewport!.width);
}

async function expectSearched(page: Page, theme: Theme) {
  await expect(page).toHaveURL(new RegExp(`/search\\?.*${TERM}`));
  await expect(page.getByRole('table', { name: /^Carriers matching/ })).toBeVisible();
  // the button searched, and did nothing else (it once lay under the theme toggle)
  await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
}

for (const theme of THEMES) {
  for (const wide of [1024, 1280, 1440, 1920]) {
    test(`${wide} px, ${theme}: a roomy search whose button searches, every destination`, async ({
      page,
    }) => {
      await open(page, theme, { width: wide, height: 900 });
      const { box, submit } = omnibox(page);
      expect(await width(box)).toBeGreaterThanOrEqual(240);
      expect(await overlaps(page)).toEqual([]);
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);

      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const { label } of DESTINATIONS) {
        await expect(nav.getByRole('link', { name: new RegExp(`^${label}`) })).toBeInViewport({
          ratio: 1,
        });
      }
      await expect(page.getByRole('button', { name: /^Menu/ })).toBeHidden();

      await box.click();
      await expectSuggestions(page, 320);
      await submit.click();
      await expectSearched(page, theme);
    });
  }

  for (const narrow of [390, 320]) {
    test(`${narrow} px, ${theme}: the search one tap away, every destination behind the menu`, async ({
      page,
    }) => {
      // 320 × 568: a small phone, where the open menu is taller than the screen and scrolls with the page
      await open(page, theme, { width: narrow, height: narrow === 320 ? 568 : 720 });
      const { box, submit } = omnibox(page);
      await expect(box).toBeInViewport({ ratio: 1 });
      expect(await overlaps(page)).toEqual([]);
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);

      // the menu: one tap shows every destination, none cut off, nothing overlapping
      const menu = page.getByRole('button', { name: /^Menu/ });
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      await expect(nav).toBeHidden();
      await menu.click();
      await expect(menu).toHaveAttribute('aria-expanded', 'true');
      for (const { label } of DESTINATIONS) {
        const link = nav.getByRole('link', { name: new RegExp(`^${label}`) });
        await link.scrollIntoViewIfNeeded();
        await expect(link).toBeInViewport({ ratio: 1 });
      }
      expect(await overlaps(page)).toEqual([]);
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
      // a tap outside the panel (on the mode banner, which takes no focus) closes it
      await page.getByRole('note', { name: 'Service mode' }).click();
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      await expect(nav).toBeHidden();

      // one tap on the search box, then type: the suggestions stay inside the window
      await box.click();
      await expect(box).toBeFocused();
      await expectSuggestions(page, Math.min(320, narrow - 32));
      await submit.click();
      await expectSearched(page, theme);
    });
  }
}

test('390 px: every destination opens from the menu, which then closes', async ({ page }) => {
  await open(page, 'light', { width: 390, height: 800 });
  const menu = page.getByRole('button', { name: /^Menu/ });
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const { label, path } of [...DESTINATIONS].reverse()) {
    await menu.click();
    await nav.getByRole('link', { name: new RegExp(`^${label}`) }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
  }
});

test('390 px: the menu by keyboard, Escape gives the focus back to its button', async ({
  page,
}) => {
  await open(page, 'light', { width: 390, height: 800 });
  const menu = page.getByRole('button', { name: /^Menu/ });
  const nav = page.getByRole('navigation', { name: 'Main' });
  await menu.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('link', { name: 'Search' })).toBeFocused();
  // open, in both themes: axe finds nothing (contrast of the group labels, names, landmarks)
  expect(await axeViolations(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  expect(await axeViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(nav).toBeHidden();
  await expect(menu).toBeFocused();
  // the "/" shortcut still reaches the search on a phone
  await page.keyboard.press('/');
  await expect(omnibox(page).box).toBeFocused();
});

test('from 320 to 2560 px in both themes: nothing overlaps, no sideways scroll', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const widths = [320, 360, 390, 480, 640, 768, 900, 1023, 1024, 1152, 1280, 1440, 1920, 2560];
  for (const theme of THEMES) {
    await open(page, theme, { width: 1280, height: 800 });
    for (const viewportWidth of widths) {
      await page.setViewportSize({ width: viewportWidth, height: 800 });
      const where = `${viewportWidth} px, ${theme}`;
      const { box } = omnibox(page);
      await expect(box, where).toBeInViewport({ ratio: 1 });
      expect(await overlaps(page), where).toEqual([]);
      expect(await sidewaysScroll(page), where).toBeLessThanOrEqual(0);
      const menu = page.getByRole('button', { name: /^Menu/ });
      if (viewportWidth >= 1024) {
        expect(await width(box), where).toBeGreaterThanOrEqual(240);
        await expect(menu, where).toBeHidden();
        const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
        await expect(links, where).toHaveCount(DESTINATIONS.length);
        for (const link of await links.all()) {
          await expect(link, where).toBeInViewport({ ratio: 1 });
        }
      } else {
        await expect(menu, where).toBeInViewport({ ratio: 1 });
      }
    }
  }
});

test('the "Search by" select shows its idle choice whole from 320 px up', async ({ page }) => {
  // a title with the full text keeps the layout check quiet, but a person still reads "Auto-dete"
  await open(page, 'light', { width: 1280, height: 800 });
  const select = omnibox(page).form.getByRole('combobox', { name: 'Search by' });
  for (const viewportWidth of [320, 360, 390, 768, 1024, 1440]) {
    await page.setViewportSize({ width: viewportWidth, height: 800 });
    const fit = await select.evaluate((element: HTMLSelectElement) => {
      const style = getComputedStyle(element);
      const context = document.createElement('canvas').getContext('2d');
      if (!context) throw new Error('no 2D canvas');
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = element.selectedOptions[0]?.text ?? '';
      // Chromium's arrow takes about 1.75 em on the inline end (a "t" under it reads as cut)
      const room =
        element.clientWidth -
        parseFloat(style.paddingLeft) -
        Math.max(parseFloat(style.paddingRight), parseFloat(style.fontSize) * 1.75);
      return { text, room, needs: context.measureText(text).width };
    });
    expect(fit.text).toBe('Auto-detect');
    expect(fit.needs, `${viewportWidth} px`).toBeLessThanOrEqual(fit.room);
  }
});

test('the layout check finds nothing on the search page from 320 to 2560 px, menu shut or open', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await open(page, 'light', { width: 1280, height: 800 });
  const widths = [320, 390, 768, 1024, 1280, 1440, 1920, 2560];
  expect(await checkLayoutEverywhere(page, '/search', widths)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 800 });
  await page.getByRole('button', { name: /^Menu/ }).click();
  expect(await checkLayoutEverywhere(page, '/search (menu open)', [320, 390, 768])).toEqual([]);
});

/** The live-key proxy's port (startOwnProxy shifts it with E2E_PORT); its sandbox the next one. */
const LIVE_PORT = 4446;

/** A stand-in for the live service: every call forwarded to the sandbox with the sandbox's key. */
async function startLiveStandIn(): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers: Record<string, string> = { authorization: `Bearer ${SECRET_KEY}` };
      if (request.headers['content-type'])
        headers['content-type'] = request.headers['content-type'];
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      fetch(`${SANDBOX_URL}${request.url ?? '/'}`, { method: request.method, headers, body })
        .then(async (answer) => {
          response.writeHead(answer.status, {
            'content-type': answer.headers.get('content-type') ?? 'application/json',
          });
          response.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => response.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

test.describe('with a live key', () => {
  let proxy: OwnProxy | undefined;
  let standIn: Server | undefined;

  test.beforeAll(async () => {
    test.setTimeout(60_000);
    standIn = await startLiveStandIn();
    proxy = await startOwnProxy(LIVE_PORT, {
      CARRIER_API_BASE_URL: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`,
      CARRIER_API_KEY: 'sk_live_e2e_header_stand_in_00000',
      MONTHLY_BUDGET_USD: '1250',
    });
  });

  test.afterAll(async () => {
    await proxy?.stop();
    await new Promise((resolve) => standIn?.close(resolve));
  });

  test('the spend joins the first row without squeezing the search or overlapping', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${proxy?.url ?? ''}/search`);
      const spend = page.getByTestId('header-spend');
      await expect(spend).toHaveAccessibleName('$0.00 this month of $1,250.00');
      for (const viewportWidth of [320, 390, 640, 1024, 1100, 1280, 1440]) {
        await page.setViewportSize({ width: viewportWidth, height: 800 });
        const where = `${viewportWidth} px, ${theme}`;
        await expect(spend, where).toBeInViewport({ ratio: 1 });
        await expect(omnibox(page).box, where).toBeInViewport({ ratio: 1 });
        if (viewportWidth >= 1024) {
          expect(await width(omnibox(page).box), where).toBeGreaterThanOrEqual(240);
        }
        expect(await overlaps(page), where).toEqual([]);
        expect(await sidewaysScroll(page), where).toBeLessThanOrEqual(0);
      }
      const widths = [320, 390, 640, 1024, 1100, 1280];
      expect(await checkLayoutEverywhere(page, '/search (live)', widths, [theme])).toEqual([]);
    }
  });
});
