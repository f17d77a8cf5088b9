/**
 * Fleet & equipment, Contact & history and Network tabs against the real proxy and embedded
 * sandbox: the chameleon pair 4418207 (new entrant) ↔ 3187452 (revoked predecessor), key figures,
 * the costed look-up staying idle until confirmed, and axe in light and dark.
 */
import { expect, expectAxeCleanInBothThemes, test } from './fixtures.ts';
import { sandbox } from './sandbox.ts';

// The curated carriers as seeded: scripted events of other specs (advance) must not leak in.
test.beforeAll(async () => {
  await sandbox.reset();
});

const SWIFTPATH = '4418207';
const RAPID_ROUTE = '3187452';
const CLEARPATH = '2987310';

test('the network of 4418207 lists 3187452 under telephone, address and equipment', async ({
  page,
}) => {
  await page.goto(`/carriers/${SWIFTPATH}/network`);
  for (const name of [/^Telephone: 1 carrier/, /^Physical address: 1 carrier/, /^Equipment/]) {
    const section = page.getByRole('region', { name });
    await expect(section.getByRole('link', { name: `DOT ${RAPID_ROUTE}` })).toBeVisible();
    await expect(section).toContainText('RAPID ROUTE CARRIERS LLC');
    await expect(section).toContainText('out of service');
  }
  await expect(page.getByRole('note', { name: 'Links to troubled carriers' })).toContainText(
    `DOT ${RAPID_ROUTE}`,
  );
  await page
    .getByRole('region', { name: /^Telephone/ })
    .getByRole('link', { name: `DOT ${RAPID_ROUTE}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/carriers/${RAPID_ROUTE}/overview$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText('RAPID ROUTE CARRIERS LLC');
});

test('shared VINs expand in the equipment table', async ({ page }) => {
  await page.goto(`/carriers/${SWIFTPATH}/network`);
  const region = page.getByRole('region', { name: 'Carriers sharing equipment' });
  const toggle = region.getByRole('button', { name: /4 VINs shared with DOT 3187452/ });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(region.getByText('3AKJHHDR9NX060000')).toBeVisible();
});

test('the name look-up shows its cost and calls nothing until confirmed', async ({ page }) => {
  const liteCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v2/profile-lite')) liteCalls.push(request.url());
  });
  await page.goto(`/carriers/${CLEARPATH}/network`);
  await page.getByRole('button', { name: 'Look up names for 1 carrier' }).click();
  const confirm = page.getByRole('group', { name: 'Confirm name look-up' });
  await expect(confirm).toContainText('1 carrier × $0.50');
  await expect(confirm).toContainText('not billed');
  expect(liteCalls).toEqual([]);
  await confirm.getByRole('button', { name: 'Confirm: look up 1 carrier' }).click();
  await expect(page.getByRole('region', { name: /^Mailing address/ })).toContainText(
    'GULF COAST TANK LINES INC',
  );
  expect(liteCalls).toHaveLength(1);
});

test('the fleet tab shows key figures of the published example', async ({ page }) => {
  await page.goto('/carriers/568253/fleet');
  const fleet = page.getByRole('region', { name: 'Fleet and drivers' });
  await expect(fleet.getByRole('row', { name: /^Power units/ })).toContainText('897');
  await expect(page.getByRole('table', { name: /^Equipment history/ })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Operation classes' })).toContainText(
    'Authorized for hire: Yes',
  );
});

test('the contact tab of 4418207 warns about its recent phone and e-mail changes', async ({
  page,
}) => {
  await page.goto(`/carriers/${SWIFTPATH}/contact`);
  const note = page.getByRole('note', { name: 'Recent contact changes' });
  await expect(note).toContainText('Phone changed 21 days before the snapshot');
  await expect(note).toContainText('E-mail changed 14 days before the snapshot');
  await expect(page.getByRole('region', { name: 'Current contacts' })).toContainText(
    '(469) 812-4471',
  );
  await expect(page.getByRole('list', { name: 'Telephone history' })).toBeVisible();
});

for (const tab of ['fleet', 'contact', 'network'] as const) {
  test(`axe finds nothing on the ${tab} tab (light and dark)`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`/carriers/${SWIFTPATH}/${tab}`);
    await expect(page.getByRole('heading', { level: 3 }).first()).toBeVisible({
      timeout: 15_000,
    });
    if (tab === 'contact') {
      await expect(page.locator('[data-state="loading"]')).toHaveCount(0);
    }
    await expectAxeCleanInBothThemes(page);
  });
}
