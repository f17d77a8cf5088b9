/**
 * Vetting (docs/vetting.md) against the real proxy and the embedded sandbox: the verdict banner and
 * its evidence links on 2214589, 4418207 and 568253; recording a decision, seeing it after a reload
 * in the header and on the Decisions page; the print view; a policy change that re-evaluates the
 * verdict and creates a version (then is undone, so later specs see the default policy); axe clean.
 */
import type { Page } from '@playwright/test';
import { axeViolations, expect, test } from './fixtures.ts';

const CSRF = { 'x-requested-with': 'carrier-desk' };

function banner(page: Page) {
  return page.getByRole('region', { name: /^Verdict:/ });
}

/** The verdict's headline under the carrier's name: the decision and "Record a decision". */
function summary(page: Page) {
  return page.getByRole('region', { name: 'Verdict summary' });
}

async function openOverview(page: Page, dot: string) {
  await page.goto(`/carriers/${dot}/overview`);
  await expect(banner(page)).toBeVisible({ timeout: 20_000 });
}

test.describe('the verdict banner', () => {
  test('568253 is Pass, and every check links to its evidence', async ({ page }) => {
    await openOverview(page, '568253');
    await expect(banner(page).getByRole('heading', { level: 2 })).toHaveText(/Verdict:.*Pass/);
    await expect(banner(page)).toContainText(/Policy version \d+/);
    const passed = banner(page).getByRole('list', { name: 'Checks passed' });
    await expect(passed).toBeVisible();
    const links = passed.getByRole('link', { name: /^Evidence:/ });
    expect(await links.count()).toBeGreaterThan(10);
    await passed.getByRole('link', { name: /Evidence: Safety \(BASIC alerts\)/ }).click();
    await expect(page).toHaveURL(/\/carriers\/568253\/safety#safety-basics$/);
    await expect(page.locator('#safety-basics')).toBeVisible();
  });

  test('2214589 is Review on its rating, BASIC alerts and out-of-service rates', async ({
    page,
  }) => {
    await openOverview(page, '2214589');
    await expect(banner(page).getByRole('heading', { level: 2 })).toHaveText(/Review/);
    const reasons = banner(page).getByRole('list', { name: 'Reasons for the verdict' });
    await expect(reasons.getByRole('listitem')).toHaveCount(3);
    await expect(reasons).toContainText('FMCSA safety rating Conditional.');
    await expect(reasons).toContainText('Crash Indicator 71%, computed by the service');
    await expect(reasons).toContainText('computed by the data vendor');
    await reasons
      .getByRole('link', { name: /Evidence: Safety \(Safety rating Conditional\)/ })
      .click();
    await expect(page).toHaveURL(/\/carriers\/2214589\/safety#safety-rating$/);
    await expect(page.locator('#safety-rating')).toBeVisible();
  });

  test('4418207 is Review and names what it shares with the out-of-service 3187452', async ({
    page,
  }) => {
    await openOverview(page, '4418207');
    await expect(banner(page).getByRole('heading', { level: 2 })).toHaveText(/Review/);
    const reasons = banner(page).getByRole('list', { name: 'Reasons for the verdict' });
    await expect(reasons).toContainText(
      'Shares physical address, telephone and equipment (4 VINs) with DOT 3187452',
    );
    await expect(reasons).toContainText('New entrant: USDOT number 212 days old');
    await expect(reasons).toContainText('phone 21 days ago');
    await reasons.getByRole('link', { name: /Evidence: Network/ }).click();
    await expect(page).toHaveURL(/\/carriers\/4418207\/network#network-links$/);
    await expect(page.locator('#network-links')).toBeVisible();
  });

  test('the proxy answers the same verdict from the cached profile', async ({ page, request }) => {
    await openOverview(page, '4418207');
    const answer = await request.get('/api/local/verdict?dot_number=4418207', { headers: CSRF });
    expect(answer.ok()).toBe(true);
    expect(answer.headers()['x-cache']).toBe('hit');
    const body = (await answer.json()) as { verdict: string; reasons: { rule: string }[] };
    expect(body.verdict).toBe('review');
    expect(body.reasons.map((r) => r.rule)).toContain('shared_identifiers');
  });

  test('is axe clean in light and dark', async ({ page }) => {
    for (const theme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: theme as 'light' | 'dark' });
      await openOverview(page, '2214589');
      await summary(page).getByRole('button', { name: 'Record a decision' }).click();
      await expect(page.getByRole('form', { name: 'Record a decision' })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
    }
  });
});

test.describe('decision records', () => {
  test('record a decision, reload, see it beside the verdict, on the Decisions page and printed', async ({
    page,
  }) => {
    await openOverview(page, '2456781');
    await summary(page).getByRole('button', { name: 'Record a decision' }).click();
    const form = page.getByRole('form', { name: 'Record a decision' });
    await form.getByRole('radio', { name: 'Approved with conditions' }).check();
    await form.getByLabel('Note').fill('Insurer confirmed a replacement BIPD policy');
    await form.getByLabel(/^Conditions/).fill('Re-check BIPD before 2026-12-11');
    // 2456781 needs review: an approval says why (issue 29)
    await form.getByLabel(/^Override reason/).fill('Insurer confirmed the replacement in writing');
    const revetBy = new Date(Date.now() + 11 * 86_400_000).toISOString().slice(0, 10);
    await form.getByLabel(/^Re-vet by/).fill(revetBy);
    await form.getByRole('button', { name: 'Save decision' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Decision recorded' })).toBeVisible();

    await page.reload();
    const header = summary(page);
    await expect(header).toContainText('Approved with conditions', { timeout: 15_000 });
    await expect(header).toContainText('re-vet by');
    await header.getByText(/^Decision history/).click();
    await expect(header.getByRole('link', { name: /^Record #\d+$/ }).first()).toBeVisible();

    await page.goto('/decisions?dot_number=2456781');
    await expect(page.getByRole('heading', { level: 1, name: 'Decisions' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Chain verified' })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: 'TRILLIUM' }).first();
    await expect(row).toContainText('Approved with conditions');
    await expect(row).toContainText('review');
    await expect(page.getByRole('textbox', { name: /^Carrier: USDOT/ })).toHaveValue('2456781');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    expect((await download).suggestedFilename()).toMatch(/^decisions-.*\.csv$/);

    await row.getByRole('link', { name: /^#\d+$/ }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: /^Decision #\d+ · TRILLIUM/ }),
    ).toBeVisible();
    await expect(page.getByTestId('record-hash')).toHaveText(/^[0-9a-f]{64}$/);
    await expect(page.getByRole('table').first()).toContainText('Pending insurance cancellation');
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('banner')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Print or save as PDF' })).toBeHidden();
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ media: 'screen' });

    await page.goto('/decisions');
    expect(await axeViolations(page)).toEqual([]);
  });
});

test.describe('the policy', () => {
  test('a change re-evaluates the verdict and creates a version', async ({ page }) => {
    await page.goto('/policy');
    await expect(page.getByRole('heading', { level: 1, name: 'Vetting policy' })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    const outcome = page.getByLabel(
      'Identifiers shared with a carrier in bad standing: outcome when it fires',
    );
    await outcome.selectOption('fail');
    await page.getByLabel(/^Why/).fill('Chameleon links are a hard no');
    await page.getByRole('button', { name: 'Save as a new version' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: /Saved as version \d+/ }),
    ).toBeVisible();
    const versions = page.getByRole('list', { name: 'Policy versions' });
    await expect(versions).toContainText(
      'Identifiers shared with a carrier in bad standing: outcome review → fail',
    );
    const saved = Number(
      /Saved as version (\d+)/.exec(
        (await page.getByRole('status').filter({ hasText: 'Saved as version' }).textContent()) ??
          '',
      )?.[1],
    );

    await openOverview(page, '4418207');
    await expect(banner(page).getByRole('heading', { level: 2 })).toHaveText(/Fail/);
    await expect(banner(page)).toContainText(`Policy version ${saved}`);

    // Undo, as a new version, so the other specs see the default outcomes.
    await page.goto('/policy');
    await page
      .getByLabel('Identifiers shared with a carrier in bad standing: outcome when it fires')
      .selectOption('review');
    await page.getByRole('button', { name: 'Save as a new version' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `Saved as version ${saved + 1}` }),
    ).toBeVisible();
    await openOverview(page, '4418207');
    await expect(banner(page).getByRole('heading', { level: 2 })).toHaveText(/Review/);
  });
});
