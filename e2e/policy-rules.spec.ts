/**
 * The Policy page's newer settings (docs/vetting.md) against the real proxy and sandbox: a dollar
 * minimum typed with "$" and commas, a cargo class required (and so not refusable), the longest
 * re-vet period; a readable error and no save while a value is wrong; the saved version's lines;
 * the verdict of 568253 failing on the new minimum with its evidence link. At 390 px the rules
 * are cards, not a squeezed table, and reachable by keyboard; axe clean in both themes. The policy
 * is put back as it was (as a new version) so later specs see the default outcomes.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import {
  API_HEADERS,
  axeViolations,
  expect,
  expectAxeCleanInBothThemes,
  test,
} from './fixtures.ts';

interface PolicyAnswer {
  version: number;
  settings: Record<string, Record<string, unknown>>;
  options: { max_revet_days: number };
}

async function currentPolicy(request: APIRequestContext): Promise<PolicyAnswer> {
  const answer = await request.get('/api/local/policy', { headers: API_HEADERS });
  expect(answer.ok()).toBe(true);
  return (await answer.json()) as PolicyAnswer;
}

/** Save `before`'s settings and options again (a new version) when they differ from now. */
async function putBack(request: APIRequestContext, before: PolicyAnswer): Promise<void> {
  const answer = await request.put('/api/local/policy', {
    headers: API_HEADERS,
    data: { rules: before.settings, options: before.options, note: 'e2e: put back' },
  });
  expect([201, 400]).toContain(answer.status());
}

function rules(page: Page) {
  return page.getByRole('list', { name: /^Rules of version \d+/ });
}

test('the new settings are edited, checked in words, saved, and used by the verdict', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const before = await currentPolicy(request);
  try {
    await page.goto('/policy');
    await expect(page.getByRole('heading', { level: 1, name: 'Vetting policy' })).toBeVisible();
    await expect(rules(page)).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Liability insurance minimum: on').check();
    const amount = page.getByLabel('Liability insurance minimum: At least (USD)');
    await expect(amount).toHaveValue('1,000,000');
    await amount.fill('five million');
    const save = page.getByRole('button', { name: 'Save as a new version' });
    await expect(save).toBeDisabled();
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('alert')).toContainText(
      'Liability insurance minimum: Enter an amount in dollars from $0 to $100,000,000.',
    );
    await amount.fill('$5,000,000');
    await amount.blur();
    await expect(amount).toHaveValue('5,000,000');

    const cargo = page.locator('[data-rule="cargo_classes"]');
    await page.getByLabel('Cargo classes: on').check();
    await cargo.getByText('Required cargo classes: none').click();
    await cargo
      .getByRole('group', { name: 'Cargo classes: required cargo classes' })
      .getByLabel('Refrigerated food')
      .check();
    await expect(cargo.getByText('Required cargo classes: Refrigerated food')).toBeVisible();
    await cargo.getByText('Refused cargo classes: none').click();
    await expect(
      cargo
        .getByRole('group', { name: 'Cargo classes: refused cargo classes' })
        .getByLabel('Refrigerated food (required)'),
    ).toBeDisabled();

    const revet = page.getByLabel(/^Longest re-vet period/);
    await revet.fill('900');
    await expect(page.getByRole('alert')).toContainText(
      'Longest re-vet period: Enter a whole number of days from 1 to 730.',
    );
    await expect(save).toBeDisabled();
    // with both class lists open and an error shown
    expect(await axeViolations(page)).toEqual([]);
    await revet.fill('180');
    await expect(page.getByRole('alert')).toHaveCount(0);

    await page.getByLabel(/^Why/).fill('Shippers ask for $5M and reefer capacity');
    await save.click();
    const status = page.getByRole('status').filter({ hasText: /Saved as version \d+/ });
    await expect(status).toBeVisible();
    const versions = page.getByRole('list', { name: 'Policy versions' });
    for (const line of [
      'Liability insurance minimum: enabled off → on',
      'Liability insurance minimum: threshold $1,000,000 → $5,000,000',
      'Cargo classes: required cargo none → refrigerated_foods',
      'Longest re-vet period: 365 → 180 days',
    ]) {
      await expect(versions).toContainText(line);
    }
    expect((await currentPolicy(request)).options.max_revet_days).toBe(180);

    // 568253 (a car hauler, BIPD $1,000,000) is now Review: below the minimum, no reefer
    await page.goto('/carriers/568253/overview');
    const banner = page.getByRole('region', { name: /^Verdict:/ });
    await expect(banner.getByRole('heading', { level: 2 })).toHaveText(/Verdict:.*Review/, {
      timeout: 20_000,
    });
    await expect(banner).toContainText('BIPD on file $1,000,000 is below the team’s $5,000,000.');
    await expect(banner).toContainText('The carrier does not haul Refrigerated food (required).');
    await banner
      .getByRole('link', { name: /^Evidence: Fleet & equipment \(Cargo classes\)/ })
      .click();
    await expect(page).toHaveURL(/\/carriers\/568253\/fleet#fleet-cargo$/);
    await expect(page.locator('#fleet-cargo')).toBeVisible();
  } finally {
    await putBack(request, before);
  }
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the rules are cards, nothing overflows, and a rule is switched on by keyboard', async ({
    page,
  }) => {
    await page.goto('/policy');
    await expect(rules(page)).toBeVisible();
    // one card (list item) per rule, and no table shown on the page
    await expect(rules(page).locator(':scope > li[data-rule]')).toHaveCount(24);
    await expect(page.locator('main table:visible')).toHaveCount(0);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    for (const id of ['bipd_minimum', 'cargo_classes', 'oos_factor']) {
      const box = await rules(page).locator(`[data-rule="${id}"]`).boundingBox();
      expect(box, id).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0), id).toBeLessThanOrEqual(390);
      expect(box?.width ?? 0, id).toBeGreaterThan(300);
    }
    const fleet = page.getByLabel('Fleet size: on');
    await fleet.focus();
    await page.keyboard.press('Space');
    await expect(fleet).toBeChecked();
    // (the preview of what the change would do is a status of its own)
    await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes.' })).toHaveText(
      'Unsaved changes.',
    );
    const amount = page.getByLabel('Liability insurance minimum: At least (USD)');
    await amount.fill('2500000');
    await amount.blur();
    await expect(amount).toHaveValue('2,500,000');
    await page.getByRole('button', { name: 'Undo changes' }).click();
    await expect(fleet).not.toBeChecked();
    await expect(amount).toHaveValue('1,000,000');
    await expectAxeCleanInBothThemes(page);
  });
});
