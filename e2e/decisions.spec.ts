/**
 * The Decisions page's carrier filter in a real browser: an MC number is taken (the browser used to
 * refuse it with "Please match the requested format") and finds the records that kept the docket.
 *
 * A decision record printed by the browser (route /decisions/:id): one page on Letter and on A4 for
 * carriers with several reasons, every name in words (no `insurance_bipd_on_file`), the evidence
 * wrapped inside the page, and the organisation's name (ORG_NAME of the e2e proxy) at the top.
 */
import type { Page } from '@playwright/test';
import { API_HEADERS, expect, test } from './fixtures.ts';
import { E2E_ORG_NAME } from './slots.ts';

/** Page objects of a PDF (`/Type /Page`, not the `/Type /Pages` tree). */
function pageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
}

async function recordDecision(page: Page, dot: string, note: string): Promise<number> {
  // the proxy records what it has fetched: the verdict fetches the profile (sandbox, not billed)
  const verdict = await page.request.get(`/api/local/verdict?dot_number=${dot}`, {
    headers: API_HEADERS,
  });
  expect(verdict.status()).toBe(200);
  const answer = await page.request.post('/api/local/decisions', {
    headers: API_HEADERS,
    data: {
      dot_number: dot,
      decision: 'approved_with_conditions',
      note,
      conditions: 'Re-check the contact details and the linked carrier before each load',
      expires_on: '2027-03-01',
      // these carriers fail or need review: an approval says why (issue 29)
      override_reason: 'Reviewed with the carrier by phone; the findings are explained.',
    },
  });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as { id: number }).id;
}

for (const dot of ['4418207', '2214589', '3187452']) {
  test(`the record of ${dot} prints on one Letter and one A4 page, in words`, async ({ page }) => {
    const id = await recordDecision(
      page,
      dot,
      'Called the carrier; the new phone and e-mail belong to the dispatcher we spoke to. Checked the insurance certificate with the agent.',
    );
    await page.goto(`/decisions/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: `Decision #${id}` })).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.getByTestId('record-org')).toContainText(E2E_ORG_NAME);

    // the record's receipt is printed with it (its JSON is kept as the proxy gave it, not in words)
    const receipt = page.getByTestId('receipt-json');
    await expect(receipt).toContainText('"type":"decision-receipt"', { timeout: 15_000 });

    await page.emulateMedia({ media: 'print' });
    const printed = (await page.locator('body').innerText()).replace(await receipt.innerText(), '');
    expect(printed).toContain('Receipt — keep this with the printed record');
    expect(printed).toContain(E2E_ORG_NAME);
    expect(printed).toContain('BIPD insurance on file');
    expect(printed).not.toMatch(/[a-z0-9]_[a-z0-9]/i);
    expect(printed).not.toMatch(/maintence/i);
    // every evidence cell wraps inside its column: nothing is wider than the record
    const overflowing = await page.getByTestId('decision-record').evaluate((record) => {
      const right = record.getBoundingClientRect().right + 0.5;
      return [...record.querySelectorAll('td, dd, li')]
        .filter(
          (cell) =>
            cell.scrollWidth > cell.clientWidth + 1 || cell.getBoundingClientRect().right > right,
        )
        .map((cell) => cell.textContent?.slice(0, 60));
    });
    expect(overflowing).toEqual([]);

    for (const format of ['Letter', 'A4'] as const) {
      const pdf = await page.pdf({ format });
      expect(pageCount(pdf), `${format} pages`).toBe(1);
    }
  });
}

test('the carrier filter takes an MC number and finds the records that kept it', async ({
  page,
}) => {
  await recordDecision(page, '568253', 'Long-standing partner');
  await page.goto('/decisions');
  await expect(page.getByRole('heading', { level: 1, name: 'Decisions' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Filter decisions' });
  // the form's first box, whatever its label says
  await form.getByRole('textbox').first().fill('MC-277621');
  await form.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/[?&]carrier=MC277621(&|$)/);
  const rows = page.getByRole('table', { name: /Decision records/ }).getByRole('row');
  await expect(rows.filter({ hasText: 'HANSEN & ADKINS' }).first()).toBeVisible();
  await expect(rows.filter({ hasText: 'SWIFTPATH' })).toHaveCount(0);

  await form.getByRole('textbox').first().fill('MC999999');
  await form.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByText(/No decision records for docket MC999999/)).toBeVisible();
});
