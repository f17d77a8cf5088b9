/**
 * Safety, FMCSA record and Raw tabs against the real proxy and embedded sandbox.
 *
 * The FMCSA 404: every sandbox carrier that has a profile also has an FMCSA record, so the profile
 * page can never reach an FMCSA 404 through the UI. The 404 is checked where it really happens: the
 * proxy's /api/v2/profile-fmcsa for a DOT the sandbox does not know (9999998) answers 404
 * `not_found`, and the tab's rendering of it is unit-tested (FmcsaTab).
 */
import { API_HEADERS, expect, expectAxeCleanInBothThemes, test } from './fixtures.ts';

const IRONCLAD = '2214589';
const HANSEN = '568253';

test('the BASIC chart has a bar per category and marks the alerts of IRONCLAD', async ({
  page,
}) => {
  await page.goto(`/carriers/${IRONCLAD}/safety`);
  const table = page.getByRole('table', {
    name: 'BASIC percentiles against intervention thresholds',
  });
  await expect(table).toBeVisible();
  await expect(table.getByRole('row', { name: /Unsafe Driving/ })).toContainText('Alert');
  await expect(table.getByRole('row', { name: /Hours-of-Service/ })).toContainText('Alert');
  const basics = page.getByRole('region', { name: 'BASICs (SMS)' });
  const labels = basics.locator('.recharts-label-list text');
  await expect(labels.filter({ hasText: '⚠ Alert' })).toHaveCount(3);
  // seven bars: five with a percentile, two "Insufficient data"
  await expect(basics.locator('.recharts-bar-rectangle')).toHaveCount(7);
  await expect(labels.filter({ hasText: 'Insufficient data' })).toHaveCount(2);
});

test('the FMCSA tab of 568253 lists its fields and filters them', async ({ page }) => {
  await page.goto(`/carriers/${HANSEN}/fmcsa`);
  await expect(page.getByText('236 of 236 fields')).toBeVisible();
  await expect(page.getByRole('row', { name: /legal_name/ })).toContainText('HANSEN & ADKINS');
  await page.getByLabel('Filter fields').fill('insurance_bipd');
  await expect(page.getByText('2 of 236 fields')).toBeVisible();
});

test('an FMCSA lookup without a match is a 404 and is not billed', async ({ request }) => {
  const response = await request.get('/api/v2/profile-fmcsa?dot_number=9999998', {
    headers: API_HEADERS,
  });
  expect(response.status()).toBe(404);
  expect(((await response.json()) as { code?: string }).code).toBe('not_found');
});

test('the Raw tab searches the profile', async ({ page }) => {
  await page.goto(`/carriers/${HANSEN}/raw`);
  await page.getByLabel('Search keys and values').fill('HANSEN & ADKINS');
  await expect(page.getByText(/\d+ match/)).toBeVisible();
  await expect(page.getByText('"HANSEN & ADKINS AUTO TRANSPORT INC"').first()).toBeVisible();
});

// axe on IRONCLAD's safety tab (alerts drawn in both themes); the FMCSA and Raw tabs, which look
// the same for every carrier, are checked by e2e/a11y.spec.ts.
test('axe finds nothing on the safety tab (light and dark)', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`/carriers/${IRONCLAD}/safety`);
  await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
  await expectAxeCleanInBothThemes(page);
});
