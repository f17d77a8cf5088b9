/**
 * Bulk vetting (docs/bulk-vetting.md) against the real proxy and the embedded sandbox: a pasted
 * list with junk and a repeat → reasons → the estimate → run → progress → results → CSV export;
 * a CSV upload with its column picked. axe on both pages, in both themes: e2e/a11y.spec.ts.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import Papa from 'papaparse';
import { expect, test } from './fixtures.ts';

function listBox(page: Page) {
  return page.getByRole('textbox', { name: /USDOT numbers or MC\/MX\/FF dockets/ });
}

async function estimate(page: Page) {
  await page.getByRole('button', { name: 'Check cost' }).click();
  const panel = page.getByRole('region', { name: 'Estimate' });
  await expect(panel).toBeVisible();
  return panel;
}

test('a pasted list: reasons, estimate, run, progress, results and the CSV export', async ({
  page,
}) => {
  await page.goto('/bulk');
  await listBox(page).fill('568253\nhello there\n2214589, USDOT 568253\n4418207');
  await expect(page.getByText('3 carriers to vet; 2 entries left out.')).toBeVisible();
  const left = page.getByRole('list', { name: 'Left out' });
  await expect(left.getByRole('listitem')).toHaveText([
    /hello there.*line 2, invalid.*Not a USDOT number or docket/,
    /USDOT 568253.*line 3, duplicate.*Repeats line 1 \(568253\)/,
  ]);

  const panel = await estimate(page);
  await expect(panel).toContainText('not billed in sandbox');
  await expect(panel).toContainText(/Carriers\s*3/);
  await panel.getByRole('button', { name: 'Run 3 carriers' }).click();
  await expect(page).toHaveURL(/\/bulk\/[^/]+$/);

  const bar = page.getByRole('progressbar', { name: 'Carriers checked' });
  await expect(bar).toHaveAttribute('aria-valuemax', '3');
  await expect(bar).toHaveAttribute('aria-valuenow', '3', { timeout: 10_000 });
  await expect(page.getByTestId('job-status')).toHaveText('Done');
  const table = page.getByRole('table', { name: 'Results of the job' });
  await expect(table.getByRole('link', { name: /HANSEN/ })).toHaveAttribute(
    'href',
    '/carriers/568253/overview',
  );

  // the export holds the filtered rows: the text filter leaves one
  await page.getByRole('searchbox', { name: 'Identifier, DOT or name' }).fill('2214589');
  await expect(page).toHaveURL(/q=2214589/);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export 1 row as CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^bulk-.+-\d{4}-\d{2}-\d{2}\.csv$/);
  const rows = Papa.parse<Record<string, string>>(
    await readFile((await download.path())!, 'utf8'),
    { header: true, skipEmptyLines: true },
  ).data;
  expect(rows).toEqual([
    expect.objectContaining({
      line: '3',
      identifier: '2214589',
      dot_number: '2214589',
      status: 'done',
    }),
  ]);
  expect(rows[0]?.verdict).toMatch(/^(Pass|Review|Fail)$/);

  // the job lives in the proxy: a reload shows it again with the filter
  await page.reload();
  await expect(page.getByTestId('job-status')).toHaveText('Done');
  await expect(page.getByRole('searchbox', { name: 'Identifier, DOT or name' })).toHaveValue(
    '2214589',
  );
});

test('an uploaded CSV: the identifier column and its header are found', async ({ page }) => {
  await page.goto('/bulk');
  const csv = 'Carrier,DOT number\nHansen,568253\nAcme,2214589\nJunk,n/a\n';
  await page.getByLabel('Or upload a CSV or Excel (.xlsx) file').setInputFiles({
    name: 'book.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  const picker = page.getByRole('group', { name: /Which column of book\.csv/ });
  await expect(picker.getByRole('radio', { name: /DOT number/ })).toBeChecked();
  await expect(picker.getByRole('checkbox', { name: 'The first row is a header' })).toBeChecked();
  await expect(listBox(page)).toHaveValue('568253\n2214589\nn/a');
  await expect(page.getByText('2 carriers to vet; 1 entry left out.')).toBeVisible();
  // named by its row in the file (the header is row 1), not its line in the box
  await expect(page.getByRole('list', { name: 'Left out' })).toContainText('n/a (row 4, invalid)');
  const panel = await estimate(page);
  await expect(panel.getByRole('button', { name: 'Run 2 carriers' })).toBeEnabled();
});

test('on a phone: verdict first, a DOT and its docket vetted once, the entries left out kept', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/bulk');
  // HANSEN is USDOT 568253 and docket MC277621: one carrier, given twice
  await listBox(page).fill('568253\n\nhello\nMC277621\n2214589');
  await expect(page.getByText('3 carriers to vet; 1 entry left out.')).toBeVisible();
  const panel = await estimate(page);
  await panel.getByRole('button', { name: 'Run 3 carriers' }).click();
  await expect(page.getByTestId('job-status')).toHaveText('Done', { timeout: 10_000 });

  // the entry left out is kept with the job, with its line and reason
  const leftOut = page.getByRole('region', { name: /Left out/ });
  await expect(leftOut).toContainText('hello (line 3, invalid): Not a USDOT number or docket');
  await expect(page.getByText(/^2 carriers \(1 entry left out\)/)).toBeVisible();

  const table = page.getByRole('table', { name: 'Results of the job' });
  const body = table.locator('tbody tr');
  await expect(body).toHaveCount(3);
  const hansen = body.filter({ hasText: 'HANSEN' });
  await expect(hansen).toHaveCount(1);
  await expect(hansen).toContainText('Inputs: 568253 (line 1), MC277621 (line 4)');
  await expect(body.nth(1)).toContainText('Left out: Not a USDOT number or docket.');
  // progress counts carriers: the docket merged into HANSEN is not one of its own
  await expect(page.getByRole('progressbar', { name: 'Carriers checked' })).toHaveAttribute(
    'aria-valuemax',
    '2',
  );

  // the verdict of the first row is on screen without scrolling sideways, and the carrier with it
  const first = body.first();
  await first.evaluate((row) => row.scrollIntoView({ block: 'center', inline: 'nearest' }));
  const boxes = await first.evaluate((row) => {
    const scroller = row.closest('[data-testid="virtual-table-scroll"]');
    if (scroller) scroller.scrollLeft = 0;
    const verdict = [...row.children].find((cell) => /Pass|Review|Fail/.test(cell.textContent));
    const name = row.querySelector('a');
    const box = (el: Element | null | undefined) => {
      const rect = el?.getBoundingClientRect();
      return rect ? { left: rect.left, right: rect.right } : undefined;
    };
    return { verdict: box(verdict), name: box(name), width: window.innerWidth };
  });
  expect(boxes.verdict).toBeDefined();
  expect(boxes.verdict!.left).toBeGreaterThanOrEqual(0);
  expect(boxes.verdict!.right).toBeLessThanOrEqual(boxes.width);
  expect(boxes.name!.left).toBeLessThan(boxes.width);

  // both exports carry the line, every input and the entry left out with why (CSV read here)
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export 3 rows as CSV' }).click();
  const csv = Papa.parse<Record<string, string>>(
    await readFile((await (await downloading).path())!, 'utf8'),
    { header: true, skipEmptyLines: true },
  ).data;
  expect(csv.map((row) => [row.line, row.identifier, row.status])).toEqual([
    ['1', '568253', 'done'],
    ['3', 'hello', 'left_out'],
    ['5', '2214589', 'done'],
  ]);
  expect(csv[0]?.inputs).toBe('568253 (line 1); MC277621 (line 4)');
  expect(csv[1]?.left_out).toMatch(/^Left out \(invalid\): Not a USDOT number or docket/);
});
