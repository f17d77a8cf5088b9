/**
 * The carrier profile against the real proxy and the embedded sandbox: every tab URL renders cold,
 * and every tab of three curated carriers renders, without console errors; the overview and
 * authority tabs show their key figures; refresh goes past the proxy cache; axe finds nothing on
 * overview and authority in light and dark.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { API_HEADERS, axeViolations, expect, test } from './fixtures.ts';

const CURATED_DOTS = [
  '568253',
  '265752',
  '4418207',
  '3187452',
  '2214589',
  '2987310',
  '1455872',
  '1893346',
  '1120987',
  '2456781',
];

const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'authority', label: 'Authority & insurance' },
  { id: 'safety', label: 'Safety' },
  { id: 'inspections', label: 'Inspections' },
  { id: 'crashes', label: 'Crashes' },
  { id: 'fleet', label: 'Fleet & equipment' },
  { id: 'contact', label: 'Contact & history' },
  { id: 'network', label: 'Network' },
  { id: 'fmcsa', label: 'FMCSA record' },
  { id: 'raw', label: 'Raw' },
] as const;

/** The carrier's legal name as the proxy serves it. */
async function legalName(request: APIRequestContext, dot: string): Promise<string> {
  const response = await request.get(`/api/v2/profile?dot_number=${dot}`, {
    headers: API_HEADERS,
  });
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { items: { legal_name: string }[] };
  const name = body.items[0]?.legal_name;
  expect(name).toBeTruthy();
  return name ?? '';
}

async function expectTabShown(page: Page, name: string, label: string) {
  // a cold load (the first tab of a walk) boots the app first: as long as the loading status below
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible({ timeout: 15_000 });
  const tabs = page.getByRole('navigation', { name: 'Profile sections' });
  await expect(tabs.getByRole('link', { name: label, exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(
    page.getByRole('heading', { level: 2, name: label, exact: true }).first(),
  ).toBeAttached();
  await expect(page.getByText(/^Fetched /)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0, {
    timeout: 15_000,
  });
}

/**
 * Carriers whose walk goes on through every other tab. Every tab of every curated carrier is drawn
 * by the tabs' own unit tests (each tab's Tab.node.test.tsx renders all of them from the sandbox's
 * profiles); here the walks prove the page, the proxy's slices and the router together, so three
 * carriers of different shapes walk every tab and the others load their one tab cold.
 */
const WALKERS = new Set(['568253', '4418207', '2214589']);

/**
 * Each carrier starts with a full load of one tab's URL, a different tab for each carrier (so every
 * tab URL is loaded cold once); a walker then moves through the other tabs by their links, in order
 * and wrapping round, as a user does: no page reload per tab, so the app boots once per carrier.
 */
test.describe('every tab URL, and every tab of three curated carriers', () => {
  for (const [index, dot] of CURATED_DOTS.entries()) {
    test(`DOT ${dot}`, async ({ page, request }) => {
      test.setTimeout(90_000);
      const name = await legalName(request, dot);
      const start = index % TABS.length;
      const walk = WALKERS.has(dot)
        ? [...TABS.slice(start), ...TABS.slice(0, start)]
        : TABS.slice(start, start + 1);
      const sections = page.getByRole('navigation', { name: 'Profile sections' });
      for (const [step, tab] of walk.entries()) {
        if (step === 0) await page.goto(`/carriers/${dot}/${tab.id}`);
        else await sections.getByRole('link', { name: tab.label, exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`/carriers/${dot}/${tab.id}$`));
        await expectTabShown(page, name, tab.label);
        await expect(page.getByRole('alert')).toHaveCount(0);
      }
    });
  }
});

test('the overview shows the badges, the risk checklist and the key figures', async ({ page }) => {
  await page.goto('/carriers/2214589/overview');
  const status = page.getByRole('list', { name: 'Status' });
  await expect(status).toContainText('Safety rating:Conditional');
  await expect(status).toContainText('Risk:Very High (72%)');
  await expect(page.getByRole('heading', { name: /^Concerns \(\d+\)$/ })).toBeVisible();
  await expect(page.getByText('Crashes with fatalities on record (4 fatalities)')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Fleet' })).toBeVisible();
  await page.getByRole('link', { name: 'see Crashes' }).first().click();
  await expect(page).toHaveURL(/\/carriers\/2214589\/crashes$/);
});

test('the new entrant and the unscored intrastate carrier read as such', async ({ page }) => {
  await page.goto('/carriers/4418207/overview');
  await expect(page.getByRole('list', { name: 'Status' })).toContainText('New entrant:212 days');
  await page.goto('/carriers/1455872/overview');
  const status = page.getByRole('list', { name: 'Status' });
  await expect(status).toContainText('Risk:Not scored');
  await expect(status).toContainText('Insurance:Not applicable');
});

test('the authority tab shows shortfalls and the pending cancellation', async ({ page }) => {
  await page.goto('/carriers/3187452/authority');
  await expect(page.getByText('Insurance on file vs required')).toBeVisible();
  await expect(page.getByText(/Shortfall:\s*\$750,000 missing/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Authority history' })).toBeVisible();
  await page.goto('/carriers/2456781/authority');
  await expect(page.getByText(/Cancellation pending:\s*effective 11 Dec 2026/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'BOC-3 process agent' })).toBeVisible();
});

test('tabs are links reachable by keyboard', async ({ page }) => {
  await page.goto('/carriers/568253/overview');
  const authority = page
    .getByRole('navigation', { name: 'Profile sections' })
    .getByRole('link', { name: 'Authority & insurance' });
  await authority.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/carriers\/568253\/authority$/);
  await expect(page.getByRole('heading', { name: 'Authority history' })).toBeVisible();
});

test('refresh goes past the proxy cache; a reload is served from the cache', async ({ page }) => {
  await page.goto('/carriers/1893346/overview');
  const fetched = page.getByTestId('fetched-at');
  await expect(fetched).toBeVisible();
  const refreshed = page.waitForRequest(
    (request) =>
      request.url().includes('/api/v2/profile?dot_number=1893346') &&
      request.headers()['cache-control'] === 'no-cache',
  );
  await page.getByRole('button', { name: 'Refresh' }).click();
  await refreshed;
  await expect(fetched).toHaveText('Fetched just now, fresh from the service');
  await page.reload();
  await expect(page.getByTestId('fetched-at')).toHaveText('Fetched just now, from cache');
});

test.describe(() => {
  // the proxy answers the unknown DOT's summary with 404 `unknown_dot`, which Chromium logs
  test.use({
    expectedConsoleErrors: /Failed to load resource: the server responded with a status of 404/,
  });
  test('an unknown carrier and a bad URL read as not found', async ({ page }) => {
    await page.goto('/carriers/99999999/overview');
    await expect(page.getByRole('heading', { name: 'No carrier with DOT 99999999' })).toBeVisible();
    await page.goto('/carriers/568253/nope');
    await expect(page.getByRole('heading', { name: 'No such profile section' })).toBeVisible();
  });
});

/**
 * axe on each tab in both themes. The tab loads in the light theme; the dark one follows the system
 * setting live (src/app/theme.ts), so the same loaded state is checked in both without a reload.
 */
for (const tab of ['overview', 'authority']) {
  test(`axe finds nothing on the ${tab} tab (light and dark)`, async ({ page }) => {
    // two axe runs: the time of the two tests (one per theme) this one replaces
    test.setTimeout(60_000);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`/carriers/2456781/${tab}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0, {
      timeout: 15_000,
    });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const html = page.locator('html');
      await (scheme === 'dark'
        ? expect(html).toHaveClass(/\bdark\b/)
        : expect(html).not.toHaveClass(/\bdark\b/));
      expect(await axeViolations(page), `${scheme} theme`).toEqual([]);
    }
  });
}
