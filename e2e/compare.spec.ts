/**
 * The Compare page: carriers added from search results and profile headers, one column each with
 * its verdict, the differences that matter marked, CSV export; a carrier whose profile the proxy
 * does not hold shows its cost and is fetched only when asked (the sandbox ledger says so).
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { API_HEADERS, axeViolations, expect, test } from './fixtures.ts';
import { sandbox } from './sandbox.ts';

// The page asks the proxy with `Cache-Control: only-if-cached`; a profile not held answers 504,
// which Chromium logs as a failed resource.
test.use({ expectedConsoleErrors: /status of 504/ });

/** A population carrier no other spec opens, so the proxy has not fetched it. */
const UNFETCHED_DOT = '5000451';

async function upstreamProfileCalls(): Promise<number> {
  const ledger = await sandbox.ledger();
  return ledger.keys
    .flatMap((key) => key.months)
    .flatMap((month) => month.lines)
    .filter((line) => line.kind === 'profile')
    .reduce((total, line) => total + line.calls, 0);
}

async function addFromProfile(page: Page, dot: string) {
  await page.goto(`/carriers/${dot}/overview`);
  const toggle = page.locator('header').getByRole('button', { name: /^Add to compare/ });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
}

function verdictCell(page: Page, dot: string) {
  return page.locator(`tr[data-row="verdict"] td[data-carrier="${dot}"]`);
}

test('three carriers from search, a profile and by DOT: verdicts, differences, CSV', async ({
  page,
}) => {
  // Held by the proxy already (free to compare); the first is also added from search results.
  for (const dot of ['568253', '3187452']) {
    expect(
      (await page.request.get(`/api/v2/profile?dot_number=${dot}`, { headers: API_HEADERS })).ok(),
    ).toBe(true);
  }
  await page.goto('/search?company=hansen');
  const hansenToggle = page
    .getByRole('table', { name: /Carriers matching/ })
    .locator('[data-compare-dot="568253"]');
  await hansenToggle.click();
  await expect(hansenToggle).toHaveAttribute('aria-pressed', 'true');
  await addFromProfile(page, '2214589');
  await page.getByRole('link', { name: 'Compare (2)' }).click();
  await expect(page).toHaveURL(/\/compare\?dot=568253,2214589$/);
  await page.getByRole('textbox', { name: 'Add a carrier by DOT number' }).fill('3187452');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page).toHaveURL(/\/compare\?dot=568253,2214589,3187452$/);
  await expect(page.getByRole('link', { name: 'Compare (3)' })).toBeVisible();

  const table = page.getByRole('table', { name: /Comparison of 3 carriers/ });
  await expect(table.locator('thead th[data-carrier]')).toHaveCount(3);
  await expect(verdictCell(page, '568253')).toHaveText('Pass');
  await expect(verdictCell(page, '2214589')).toContainText('Review');
  await expect(verdictCell(page, '3187452')).toContainText('Fail');
  // Only the failing carrier's verdict is marked; a rule only 2214589 has is marked there.
  await expect(verdictCell(page, '3187452')).toHaveAttribute('data-mark', 'Only this one');
  await expect(verdictCell(page, '568253')).not.toHaveAttribute('data-mark');
  const basics = table.locator('tr[data-row="rule-basic_alerts"]');
  await expect(basics.locator('td[data-carrier="2214589"]')).toHaveAttribute('data-mark', /.+/);
  await expect(basics.locator('td[data-carrier="568253"]')).not.toHaveAttribute('data-mark');

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(
    /^compare-568253-2214589-3187452-\d{4}-\d{2}-\d{2}\.csv$/,
  );
  const lines = (await readFile((await download.path())!, 'utf8')).split('\r\n');
  expect(lines[0]).toMatch(
    /^Section,Attribute,.*\(DOT 568253\),.*\(DOT 2214589\),.*\(DOT 3187452\),Differs$/,
  );
  expect(lines).toContain('Verdict,Verdict,Pass,Review,Fail [Only this one],yes');
  expect(lines).toContain('Identity,USDOT number,568253,2214589,3187452,yes');

  expect(await axeViolations(page)).toEqual([]);
});

test('a carrier not fetched shows its cost and is fetched only on the click', async ({ page }) => {
  const before = await upstreamProfileCalls();
  await page.goto(`/compare?dot=2214589,${UNFETCHED_DOT}`);
  const column = page.locator(`thead th[data-carrier="${UNFETCHED_DOT}"]`);
  const fetchButton = column.getByRole('button', { name: /^Fetch profile \(free in sandbox\)/ });
  await expect(fetchButton).toBeVisible();
  await expect(column).toContainText('$3.00 on a live key, free in sandbox');
  await expect(verdictCell(page, UNFETCHED_DOT)).toHaveText('—');
  await expect(verdictCell(page, '2214589')).toContainText('Review');
  expect(await axeViolations(page)).toEqual([]);
  // Asking whether it is held cost nothing: no profile call reached the service.
  expect(await upstreamProfileCalls()).toBe(before);

  await fetchButton.click();
  await expect(verdictCell(page, UNFETCHED_DOT)).toHaveText(/^(Pass|Review|Fail)$/);
  await expect(column).not.toContainText('free in sandbox');
  expect(await upstreamProfileCalls()).toBe(before + 1);

  // The URL is the source of truth: moving a column rewrites it.
  await column.getByRole('button', { name: /^Move .* left$/ }).click();
  await expect(page).toHaveURL(new RegExp(`dot=${UNFETCHED_DOT},2214589$`));
});
