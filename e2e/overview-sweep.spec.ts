/**
 * The profile overview as a new user meets it (issue 12, defects 1, 2 and 8): status badges that
 * agree with the verdict, the chameleon relation and recent contact changes summarised with links to
 * their evidence, risk factors as plain statements; walked by keyboard alone and at phone width.
 */
import type { Page } from '@playwright/test';
import { axeViolations, expect, test } from './fixtures.ts';

function statusList(page: Page) {
  return page.getByRole('list', { name: 'Status' });
}

function signals(page: Page) {
  return page.getByRole('region', { name: 'Identity signals' });
}

/**
 * Opens a carrier's overview and waits for its tab (a lazy chunk, drawn from the profile summary);
 * the chameleon line needs the equipment links' statuses (the proxy's `network` view), which come
 * after.
 */
async function openOverview(page: Page, dot: string) {
  await page.goto(`/carriers/${dot}/overview`);
  await expect(signals(page)).toBeVisible({ timeout: 15_000 });
  await expect(signals(page).locator('[data-signal="network"]')).toBeVisible({ timeout: 15_000 });
}

function riskGroup(page: Page, title: RegExp) {
  return page.getByRole('region', { name: title });
}

test('a pending cancellation is a warning and a broker is not passed for hauling', async ({
  page,
}) => {
  await openOverview(page, '2456781');
  await expect(statusList(page)).toContainText('Insurance:Cancellation pending (11 Dec 2026)');
  await expect(statusList(page)).not.toContainText('Insurance:Pass');
  await expect(page.locator('#verdict')).toHaveAttribute('data-verdict', 'review');

  await openOverview(page, '2987310');
  await expect(statusList(page)).toContainText('Authority:Broker only, no carrier authority');
  await expect(statusList(page)).not.toContainText('Authority:Pass');
});

test('the predecessor names its active successor, linked', async ({ page }) => {
  await openOverview(page, '3187452');
  const summary = signals(page);
  await expect(summary).toContainText('Chameleon warning: this carrier is USDOT inactive');
  await expect(summary).toContainText('its likely successor');
  const successor = summary.getByRole('link', { name: 'DOT 4418207 SWIFTPATH EXPRESS LLC' });
  await expect(successor).toHaveAttribute('href', '/carriers/4418207/overview');
  await expect(
    summary.getByRole('link', { name: 'Evidence: Network: shared identifiers' }),
  ).toHaveAttribute('href', '/carriers/3187452/network#network-summary');
});

test('the overview with its summary lines passes axe', async ({ page }) => {
  await openOverview(page, '3187452');
  await expect(signals(page)).toContainText('its likely successor');
  expect(await axeViolations(page)).toEqual([]);
});

test('the successor shows its recent contact changes and the chameleon link', async ({ page }) => {
  await openOverview(page, '4418207');
  const summary = signals(page);
  await expect(summary).toContainText('Contact details changed recently');
  await expect(summary).toContainText('Phone changed 21 days before the snapshot (26 Oct 2026)');
  await expect(
    summary.getByRole('link', { name: 'Evidence: Contact & history: recent changes' }),
  ).toHaveAttribute('href', '/carriers/4418207/contact#contact-recent');
  await expect(
    summary.getByRole('link', { name: 'DOT 3187452 RAPID ROUTE CARRIERS LLC' }),
  ).toBeVisible();
});

test('risk factors read as plain statements, classed by what they mean', async ({ page }) => {
  await openOverview(page, '4418207');
  const concerns = riskGroup(page, /^Concerns \(\d+\)$/);
  const inOrder = riskGroup(page, /^In order \(\d+\)$/);
  await expect(inOrder).toContainText(
    'BIPD liability insurance on file 750,000 USD — meets the 750,000 USD minimum',
  );
  await expect(concerns).not.toContainText('BIPD');
  await expect(inOrder).toContainText('Inspected at the roadside in the last 12 months');
  const risk = page.getByRole('region', { name: 'Risk factors' });
  await expect(risk).not.toContainText(/: (Yes|No)\b/);

  await openOverview(page, '1893346');
  await expect(riskGroup(page, /^In order \(\d+\)$/)).toContainText(
    'Phone area code 312 (Illinois) matches the physical address state (IL)',
  );

  await openOverview(page, '2214589');
  await expect(riskGroup(page, /^Concerns \(\d+\)$/)).not.toContainText(
    'No insurance cancelled in the last year',
  );
  await expect(riskGroup(page, /^For information \(\d+\)$/)).toContainText(
    'Insurance policy cancelled in the last year (last cancellation 19 Jan 2026)',
  );
});

test('keyboard only: reach the evidence link of the summary, follow it, land on the section', async ({
  page,
}) => {
  await openOverview(page, '4418207');
  const evidence = signals(page).getByRole('link', {
    name: 'Evidence: Network: shared identifiers',
  });
  await expect(evidence).toBeVisible();
  let reached = false;
  for (let presses = 0; presses < 150 && !reached; presses += 1) {
    await page.keyboard.press('Tab');
    reached = await evidence.evaluate((link) => link === document.activeElement);
  }
  expect(reached, 'the evidence link is reachable with Tab').toBe(true);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/carriers\/4418207\/network#network-summary$/);
  const section = page.locator('#network-summary');
  await expect(section).toBeInViewport();
  await expect
    .poll(() =>
      page.evaluate(() => {
        const active = document.activeElement;
        return Boolean(active?.closest('#network-summary'));
      }),
    )
    .toBe(true);
});

test('keyboard only: Enter on a "see Safety" link keeps focus on the page it opens', async ({
  page,
}) => {
  await openOverview(page, '2214589');
  const link = page.getByRole('link', { name: 'see Safety' }).first();
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/carriers\/2214589\/safety$/);
  const heading = page.locator('#profile-tab-heading');
  await expect(heading).toHaveText('Safety');
  await expect(heading).toBeFocused();
  // Still there once the tab's charts and the full profile have settled.
  await page.waitForTimeout(1_500);
  await expect(heading).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');
});

test('at 390 px the overview scrolls only vertically', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openOverview(page, '3187452');
  await expect(signals(page)).toContainText('its likely successor');
  await expect(page.getByRole('region', { name: 'Risk factors' })).toBeVisible();
  for (const id of ['overview-signals', 'overview-risk']) {
    const box = await page.locator(`#${id}, [aria-labelledby="${id}"]`).first().boundingBox();
    expect(box, id).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0), id).toBeLessThanOrEqual(390);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
