/**
 * A DOT typed in the header's search box → the carrier's verdict (issue 29's number: median
 * ≤ 800 ms, measured by `npm run bench`, not here). What makes it fast is checked here: focusing
 * the box loads the profile page's code and asks the API for nothing (nothing billed), and Enter
 * on a DOT opens the profile directly, whose summary is all it downloads (no search for the DOT,
 * so no full profile and no results table on the way).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { sandbox } from './sandbox.ts';

/** A population carrier no other spec opens, so the proxy has not fetched it yet. */
const TYPED_DOT = '5000467';

/** The service calls the sandbox has recorded for the embedded key, all months; of one kind or all. */
async function upstreamCalls(kind?: string): Promise<number> {
  const ledger = await sandbox.ledger();
  return ledger.keys
    .flatMap((key) => key.months)
    .flatMap((month) => month.lines)
    .filter((line) => kind === undefined || line.kind === kind)
    .reduce((total, line) => total + line.calls, 0);
}

/** The pathnames the page asks for from now on (API calls and code). */
function recordRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => paths.push(new URL(request.url()).pathname));
  return paths;
}

test('focusing the header search loads the profile page’s code and asks the API nothing', async ({
  page,
}) => {
  await page.goto('/search');
  await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const before = await upstreamCalls();
  const asked = recordRequests(page);
  const profileCode = page.waitForResponse(
    (response) => /\/assets\/ProfilePage-[\w-]+\.js$/.test(new URL(response.url()).pathname),
    { timeout: 10_000 },
  );
  await page.getByRole('combobox', { name: 'Search carriers' }).focus();
  expect((await profileCode).ok()).toBe(true);
  await page.waitForLoadState('networkidle');
  expect(asked.filter((path) => path.startsWith('/api/'))).toEqual([]);
  // the Overview tab's code too (a module preload: read from Resource Timing, which lists it)
  // (polled: on a loaded machine the module preload may start after the network first idles)
  await expect
    .poll(
      () =>
        page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .some((entry) =>
              /\/assets\/OverviewTab-[\w-]+\.js$/.test(new URL(entry.name).pathname),
            ),
        ),
      { timeout: 10_000 },
    )
    .toBe(true);
  expect(await upstreamCalls()).toBe(before);
});

test('Enter on a typed DOT opens the profile from its summary alone', async ({ page }) => {
  await page.goto('/search');
  await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const before = await upstreamCalls('profile');
  const asked = recordRequests(page);
  const box = page.getByRole('combobox', { name: 'Search carriers' });
  await box.fill(TYPED_DOT);
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/carriers/${TYPED_DOT}/overview$`));
  await expect(page.locator('#verdict-summary[data-verdict]')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  // the full profile (a search's answer) is never downloaded: the summary and verdict are enough
  expect(asked).toContain('/api/local/profile-summary');
  expect(asked).toContain('/api/local/verdict');
  expect(asked).not.toContain('/api/v2/profile');
  // asked at once (the proxy cuts summaries), summary and verdict share one service call
  await page.waitForLoadState('networkidle');
  expect(await upstreamCalls('profile')).toBe(before + 1);
  // back returns to the search page, which never held a search for the DOT
  await page.goBack();
  await expect(page).toHaveURL(/\/search$/);
});

test.describe(() => {
  // the proxy answers an unknown DOT's summary (and its verdict) 404, which Chromium logs
  test.use({
    expectedConsoleErrors: /Failed to load resource: the server responded with a status of 404/,
  });
  test('a typed DOT without a carrier says so on the profile page', async ({ page }) => {
    await page.goto('/search');
    await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
    const box = page.getByRole('combobox', { name: 'Search carriers' });
    await box.fill('99999990');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/carriers\/99999990\/overview$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'No carrier with DOT 99999990' }),
    ).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(/Check the number, or search by name or docket/)).toBeVisible();
  });
});
