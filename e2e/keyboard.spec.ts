/**
 * A keyboard-only walk through search → profile → inbox: only `page.keyboard`, no clicks, no
 * `focus()`. Type in the omnibox and choose a suggestion with the arrows and Enter, move through
 * every profile tab, reach the inbox through the main navigation, toggle a channel filter and set a
 * triage state. Each stop must show where the focus is.
 *
 * The walk triages a change, so it runs against a proxy of its own (fresh data directory): the
 * shared proxy's inbox stays as the monitoring spec expects it.
 */
import type { Locator, Page } from '@playwright/test';
import { PROFILE_TABS } from '../src/features/profile/components/tabs/types.ts';
import { expect, test } from './fixtures.ts';
import { startOwnProxy, type OwnProxy } from './own-proxy.ts';

/** Ports of this spec's own proxy (and its sandbox): no other spec uses them. */
const PORT = 4296;
const HANSEN_DOT = '568253';
const MAX_PRESSES = 120;

let proxy: OwnProxy | undefined;

test.beforeAll(async () => {
  proxy = await startOwnProxy(PORT, {});
});

test.afterAll(async () => {
  await proxy?.stop();
});

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus; fails after MAX_PRESSES. The target is
 * found once (a role query walks the whole page, hundreds of rows on a profile) and each press only
 * compares it with the focused element; found again should the app have replaced it.
 */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  await expect(target).toBeVisible();
  let element = await target.elementHandle();
  try {
    for (let presses = 0; presses < MAX_PRESSES; presses += 1) {
      await page.keyboard.press(key);
      const focused = await page.evaluate(
        (el) => (el?.isConnected ? el === document.activeElement : undefined),
        element,
      );
      if (focused === true) return;
      if (focused === undefined) {
        await element?.dispose();
        element = await target.elementHandle();
        if (await element?.evaluate((el) => el === document.activeElement)) return;
      }
    }
  } finally {
    await element?.dispose();
  }
  throw new Error(`${String(target)} was not reached with ${key} in ${MAX_PRESSES} presses`);
}

/** The focused element matches :focus-visible and draws an outline or a ring (box-shadow). */
async function expectVisibleFocus(target: Locator) {
  const focus = await target.evaluate((element) => {
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    return {
      focusVisible: element.matches(':focus-visible'),
      drawn: outline || style.boxShadow !== 'none',
    };
  });
  expect(focus, String(target)).toEqual({ focusVisible: true, drawn: true });
}

test('search → profile → inbox with the keyboard alone', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${proxy?.url}/search`);

  // the omnibox: type, arrow down to the carrier, Enter
  const box = page.getByRole('combobox', { name: 'Search carriers' });
  await tabTo(page, box);
  await expectVisibleFocus(box);
  await page.keyboard.type('hansen');
  const listbox = page.getByRole('listbox', { name: 'Suggestions' });
  const option = listbox.getByRole('option', { name: /HANSEN/ }).first();
  await expect(option).toBeVisible();
  const optionId = await option.getAttribute('id');
  for (let presses = 0; presses < 10; presses += 1) {
    await page.keyboard.press('ArrowDown');
    if ((await box.getAttribute('aria-activedescendant')) === optionId) break;
  }
  await expect(box).toHaveAttribute('aria-activedescendant', optionId ?? '');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/carriers/${HANSEN_DOT}/overview$`));

  // every profile tab, in order, by Tab and Enter
  const sections = page.getByRole('navigation', { name: 'Profile sections' });
  for (const tab of PROFILE_TABS.slice(1)) {
    const link = sections.getByRole('link', { name: tab.label, exact: true });
    await tabTo(page, link);
    await expectVisibleFocus(link);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/carriers/${HANSEN_DOT}/${tab.id}$`));
    await expect(link).toHaveAttribute('aria-current', 'page');
  }

  // back up to the main navigation, into the inbox
  const monitoring = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /^Monitoring/ });
  await tabTo(page, monitoring, 'Shift+Tab');
  await expectVisibleFocus(monitoring);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/monitoring$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Monitoring' })).toBeVisible();

  // a channel filter
  const fleet = page.getByRole('navigation', { name: 'Channels' }).getByRole('button', {
    name: /^Fleet/,
  });
  await tabTo(page, fleet);
  await expectVisibleFocus(fleet);
  await page.keyboard.press('Enter');
  await expect(fleet).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/view_changes_fleet=true/);

  // open the changes, then set the first one's triage state
  const expand = page.getByRole('button', { name: 'Expand all' });
  await tabTo(page, expand);
  await page.keyboard.press('Enter');
  const state = page.getByRole('combobox', { name: /^Triage state of / }).first();
  await tabTo(page, state);
  await expectVisibleFocus(state);
  await expect(state).toHaveValue('new');
  const saved = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/local/triage') && response.request().method() === 'PUT',
  );
  await page.keyboard.press('ArrowDown');
  expect((await saved).ok()).toBe(true);
  await expect(state).toHaveValue('reviewed');
});
