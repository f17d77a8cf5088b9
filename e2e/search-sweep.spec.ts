/**
 * Issue 12's search items against the real proxy and embedded sandbox: a page of results sorted by
 * risk severity, said to cover this page only, kept in the URL across reload and back; the
 * omnibox's ranking ("swif" shows SWIFTPATH EXPRESS, a typed DOT's own option first) and an exact
 * docket opening the profile; invalid input refused without a request; the CSV of a page; and the
 * search page at a phone's 390 × 844 without horizontal scrolling or a cut placeholder.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { API_HEADERS, expect, test } from './fixtures.ts';

const SEVERITY = ['Very High', 'High', 'Medium', 'Low', 'Not scored'];

function resultsTable(page: Page) {
  return page.getByRole('table', { name: /Carriers matching/ });
}

/** The Risk column of the results table, top to bottom. */
async function risks(page: Page): Promise<string[]> {
  const table = resultsTable(page);
  const headers = await table.getByRole('columnheader').allTextContents();
  const column = headers.findIndex((text) => text.trim() === 'Risk');
  expect(column).toBeGreaterThan(0);
  const rows = table.getByRole('row');
  const count = await rows.count();
  const out: string[] = [];
  for (let i = 1; i < count; i += 1) {
    out.push(((await rows.nth(i).locator('th, td').nth(column).textContent()) ?? '').trim());
  }
  return out;
}

async function expectHighestRiskFirst(page: Page) {
  const ranks = (await risks(page)).map((risk) => SEVERITY.indexOf(risk));
  expect(ranks.length).toBeGreaterThan(1);
  expect(ranks.every((rank) => rank >= 0)).toBe(true);
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
}

test('risk sorts by severity within the page, says so, and lives in the URL', async ({
  page,
  request,
}) => {
  const answer = await request.get('/api/v2/profile-lite?company=inc&page=1&pageSize=10', {
    headers: API_HEADERS,
  });
  const { total_count: total } = (await answer.json()) as { total_count: number };
  const scope = `(10 of ${total.toLocaleString('en-US')})`;

  await page.goto('/search?company=inc');
  await expect(resultsTable(page)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(`A sort applies within this page ${scope} only.`)).toBeVisible();
  await page.getByRole('combobox', { name: 'Sort this page' }).selectOption('Risk, highest first');
  await expect(page).toHaveURL(/\/search\?company=inc&sort=risk&order=desc$/);
  await expect(
    page.getByText(`Sorted within this page ${scope}: Risk, highest first.`),
  ).toBeVisible();
  await expectHighestRiskFirst(page);

  await page.reload();
  await expect(resultsTable(page)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('combobox', { name: 'Sort this page' })).toHaveValue('risk-desc');
  await expectHighestRiskFirst(page);

  // The next page keeps the sort; back returns to the first page, still sorted.
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/company=inc&page=2&sort=risk&order=desc$/);
  await expect(page.getByRole('status').filter({ hasText: /page 2 of/ })).toBeVisible();
  await expectHighestRiskFirst(page);
  await page.goBack();
  await expect(page).toHaveURL(/company=inc&sort=risk&order=desc$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/search\?company=inc$/);
  await expect(page.getByRole('combobox', { name: 'Sort this page' })).toHaveValue('');
});

test('"swif" suggests SWIFTPATH EXPRESS among the SWIFTLINE names', async ({ page }) => {
  await page.goto('/search');
  const box = page.getByRole('combobox', { name: 'Search carriers' });
  await box.fill('swif');
  const listbox = page.getByRole('listbox', { name: 'Suggestions' });
  await expect(listbox.getByRole('option', { name: /SWIFTPATH EXPRESS LLC/ })).toBeVisible();
  await expect(listbox.getByRole('option', { name: /^SWIFTLINE/ }).first()).toBeVisible();
});

test('a typed DOT and ArrowDown select the DOT, not the docket', async ({ page }) => {
  await page.goto('/search');
  const box = page.getByRole('combobox', { name: 'Search carriers' });
  await box.fill('568253');
  const listbox = page.getByRole('listbox', { name: 'Suggestions' });
  await expect(listbox.getByRole('option', { name: /HANSEN & ADKINS/ })).toBeVisible();
  await box.press('ArrowDown');
  const active = page.locator(`[id="${(await box.getAttribute('aria-activedescendant')) ?? ''}"]`);
  await expect(active).toContainText('HANSEN & ADKINS AUTO TRANSPORT INC');
  await expect(active).toContainText('DOT 568253');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/carriers\/568253\/overview$/);

  await page.goto('/search');
  await box.fill('277621');
  await expect(listbox.getByRole('option').first()).toHaveText('Search USDOT number: 277621');
  await box.press('ArrowDown');
  await expect(
    page.locator(`[id="${(await box.getAttribute('aria-activedescendant')) ?? ''}"]`),
  ).toHaveText('Search USDOT number: 277621');
});

test('an exact docket with one match opens the profile, as a DOT does', async ({ page }) => {
  await page.goto('/search');
  const box = page.getByRole('combobox', { name: 'Search carriers' });
  await box.fill('MC277621');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/carriers\/568253\/overview$/);
});

test('invalid input is refused in the browser: no API request, a message by the field', async ({
  page,
}) => {
  // Searches only: the header's monitoring badge asks for its own count meanwhile.
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/v2/profile')) asked.push(request.url());
  });
  await page.goto('/search?dot_number=12ab');
  const hint = page.getByRole('alert');
  await expect(hint).toContainText('1 to 8 digits');
  await expect(
    page.getByText('Nothing was searched: correct the highlighted field.'),
  ).toBeVisible();

  const form = page.getByRole('form', { name: 'Advanced search' });
  await form.getByRole('combobox', { name: 'Search by' }).selectOption('phone');
  await form.getByRole('textbox', { name: 'Phone' }).fill('12345');
  await form.getByRole('button', { name: 'Search' }).click();
  await expect(hint).toContainText('10-digit');
  await expect(page).toHaveURL(/\/search\?dot_number=12ab$/);
  expect(asked).toEqual([]);
});

test('a page of results downloads as CSV, in the order shown', async ({ page }) => {
  await page.goto('/search?company=hansen&sort=dot&order=desc');
  await expect(resultsTable(page)).toBeVisible({ timeout: 20_000 });
  const shown = await resultsTable(page).getByRole('row').count();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download this page (CSV)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('carriers-company-hansen-page-1.csv');
  const lines = (await readFile(await download.path(), 'utf8')).trim().split('\r\n');
  expect(lines[0]).toBe(
    'dot_number,docket,legal_name,dba_name,city,state,usdot_status,out_of_service,authority,insurance,risk_score',
  );
  expect(lines).toHaveLength(shown);
  const dots = lines.slice(1).map((line) => Number(line.split(',')[0]));
  expect(dots).toEqual([...dots].sort((a, b) => b - a));
  expect(lines.some((line) => line.startsWith('568253,MC277621,HANSEN & ADKINS'))).toBe(true);
});

test.describe('at 390 × 844', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the search page does not scroll sideways and the placeholder fits', async ({ page }) => {
    await page.goto('/search?company=inc');
    await expect(resultsTable(page)).toBeVisible({ timeout: 20_000 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);

    const box = page.getByRole('combobox', { name: 'Search carriers' });
    const fits = await box.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d');
      if (!context) return false;
      context.font = `${style.fontSize} ${style.fontFamily}`;
      const room =
        input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return context.measureText(input.placeholder).width <= room;
    });
    expect(fits).toBe(true);
  });
});
