/**
 * Search against the real proxy and embedded sandbox: each of the ten keys reaches the right curated
 * carrier (values read from the sandbox's own curated data), the omnibox by keyboard, paging URLs
 * with back/forward, an invalid value refused next to the field, the empty state, and axe (light,
 * dark). More (sorting, ranking, CSV, a phone's width): search-sweep.spec.ts.
 */
import type { Page } from '@playwright/test';
import { createDataset } from '../server-proxy/src/sandbox/data/index.ts';
import { expect, test } from './fixtures.ts';

const dataset = createDataset({ seed: 1, population: 0 });

interface Unit {
  vin?: string;
  insp_unit_license?: string;
  insp_unit_license_state?: string;
  insp_unit_company?: string;
  primary_category?: string;
}

function curated(dot: string): Record<string, unknown> {
  const profile = dataset.getProfile(dot);
  if (!profile) throw new Error(`no curated carrier ${dot}`);
  return profile as Record<string, unknown>;
}

function text(profile: Record<string, unknown>, key: string): string {
  const value = profile[key];
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new Error(`curated carrier has no ${key}`);
  }
  return String(value);
}

const HANSEN = curated('568253');
const HANSEN_NAME = 'HANSEN & ADKINS AUTO TRANSPORT INC';
const hansenUnit = ((HANSEN.equipment_history ?? []) as Unit[]).find(
  (unit) => unit.vin && unit.insp_unit_license && unit.insp_unit_company,
);
if (!hansenUnit) throw new Error('the curated carrier 568253 has no complete equipment record');

/** Formats a 10-digit phone number the way a rate confirmation might: "(562) 602-7220". */
function formatted(phone: string): string {
  return `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`;
}

async function searchBy(page: Page, key: string, value: string, extra?: [string, string]) {
  await page.goto('/search');
  const form = page.getByRole('form', { name: 'Advanced search' });
  await form.getByRole('combobox', { name: 'Search by' }).selectOption(key);
  await form.getByRole('textbox').first().fill(value);
  if (extra) {
    const [label, choice] = extra;
    const control = form.getByLabel(label);
    if ((await control.evaluate((el) => el.tagName)) === 'SELECT')
      await control.selectOption(choice);
    else await control.fill(choice);
  }
  await form.getByRole('button', { name: 'Search' }).click();
}

function resultRow(page: Page, name: string) {
  return page
    .getByRole('table', { name: /Carriers matching/ })
    .getByRole('row', { name: new RegExp(name.replace(/[&]/g, '\\&')) });
}

const EIN = text(HANSEN, 'ein');
const KEY_CASES: { key: string; value: string; extra?: [string, string]; url: RegExp }[] = [
  { key: 'company', value: 'hansen & adkins', url: /company=hansen/ },
  { key: 'ein', value: `${EIN.slice(0, 2)}-${EIN.slice(2)}`, url: /ein=/ },
  { key: 'email', value: text(HANSEN, 'email_address'), url: /email=/ },
  { key: 'phone', value: formatted(text(HANSEN, 'telephone_number')), url: /phone=/ },
  { key: 'address', value: text(HANSEN, 'physical_address_street'), url: /address=/ },
  { key: 'vin', value: hansenUnit.vin ?? '', url: /vin=/ },
  {
    key: 'plate_number',
    value: hansenUnit.insp_unit_license ?? '',
    extra: ['Plate state (optional)', hansenUnit.insp_unit_license_state ?? ''],
    url: /plate_number=.*plate_state=/,
  },
  {
    key: 'unit_number',
    value: hansenUnit.insp_unit_company ?? '',
    url: /unit_number=/,
  },
];

for (const { key, value, extra, url } of KEY_CASES) {
  test(`search by ${key} reaches carrier 568253`, async ({ page }) => {
    await searchBy(page, key, value, extra);
    await expect(page).toHaveURL(url);
    await expect(resultRow(page, HANSEN_NAME)).toBeVisible();
    await expect(resultRow(page, HANSEN_NAME).getByText('568253')).toBeVisible();
  });
}

test('search by dot_number with one match opens the profile directly', async ({ page }) => {
  await searchBy(page, 'dot_number', '2214589');
  await expect(page).toHaveURL(/\/carriers\/2214589\/overview$/);
});

test('search by docket_number with one match opens the profile directly', async ({ page }) => {
  await searchBy(page, 'docket_number', 'mc 277621');
  await expect(page).toHaveURL(/\/carriers\/568253\/overview$/);
});

test('a VIN search shows the decoded vehicle and its inspections', async ({ page }) => {
  await page.goto(`/search?vin=${hansenUnit.vin}`);
  const vehicle = page.getByRole('region', { name: `Vehicle ${hansenUnit.vin}` });
  await expect(vehicle).toBeVisible();
  await expect(vehicle.getByRole('table', { name: /Inspections of this vehicle/ })).toBeVisible();
});

test('the omnibox: "/" focuses it, autocomplete by keyboard opens the profile', async ({
  page,
}) => {
  await page.goto('/search');
  await page.getByRole('heading', { level: 1, name: 'Search' }).click();
  await page.keyboard.press('/');
  const box = page.getByRole('combobox', { name: 'Search carriers' });
  await expect(box).toBeFocused();
  await page.keyboard.type('ironclad');
  const option = page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option', {
    name: /IRONCLAD FREIGHT SYSTEMS INC/,
  });
  await expect(option).toBeVisible();
  await expect(option.locator('mark').first()).toHaveText(/ironclad/i);
  await page.keyboard.press('ArrowDown');
  await expect(box).toHaveAttribute(
    'aria-activedescendant',
    (await option.getAttribute('id')) ?? '',
  );
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/carriers\/2214589\/overview$/);
});

test('the omnibox says what it detected and searches by it', async ({ page }) => {
  await page.goto('/search');
  const box = page.getByRole('combobox', { name: 'Search carriers' });
  await box.fill(formatted(text(HANSEN, 'telephone_number')));
  const search = page.getByRole('search', { name: 'Carrier search' });
  await expect(search.getByRole('combobox', { name: 'Search by' })).toContainText('Auto: Phone');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?phone=/);
  await expect(resultRow(page, HANSEN_NAME)).toBeVisible();
});

test('paging is in the URL and back/forward work', async ({ page }) => {
  await page.goto('/search?company=inc');
  const summary = page.getByRole('status').filter({ hasText: /carriers match/ });
  // A page is ten full profiles built by the sandbox: allow for a slow first answer.
  await expect(summary).toContainText(/page 1 of \d+/, { timeout: 20_000 });
  const firstPageRow = page
    .getByRole('table', { name: /Carriers matching/ })
    .getByRole('row')
    .nth(1);
  const firstName = await firstPageRow.textContent();
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/company=inc&page=2$/);
  await expect(summary).toContainText(/page 2 of \d+/);
  await expect(firstPageRow).not.toHaveText(firstName ?? '');
  await page.goBack();
  await expect(page).toHaveURL(/company=inc$/);
  await expect(summary).toContainText(/page 1 of \d+/);
  await expect(
    page.getByRole('form', { name: 'Advanced search' }).getByRole('textbox'),
  ).toHaveValue('inc');
  await page.goForward();
  await expect(page).toHaveURL(/page=2$/);
  await expect(summary).toContainText(/page 2 of \d+/);
});

test('an invalid value is refused in the browser, next to the field: no request, no 400', async ({
  context,
}) => {
  // This test watches its own page (in the same, key-guarded context): no console error at all.
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const searches: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v2/profile')) searches.push(request.url());
  });
  await searchBy(page, 'vin', 'NOT-A-VIN');
  const field = page.getByRole('textbox', { name: 'VIN' });
  const hint = page.getByRole('alert');
  await expect(hint).toContainText('17 characters');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAttribute('aria-describedby', (await hint.getAttribute('id')) ?? '');
  await expect(page).toHaveURL(/\/search$/);
  expect(searches).toEqual([]);
  expect(problems).toEqual([]);
  await page.close();
});

test('an empty result says so', async ({ page }) => {
  await page.goto('/search?company=zzqqxxjj');
  await expect(page.getByText('No carrier matches Company name “zzqqxxjj”.')).toBeVisible();
});

test('a result row previews the lite profile with its cost', async ({ page }) => {
  await page.goto('/search?company=hansen%20%26%20adkins');
  await page.getByRole('button', { name: `Preview ${HANSEN_NAME}` }).click();
  const panel = page.getByRole('region', { name: `Preview of ${HANSEN_NAME}` });
  await expect(panel.getByText('Authority check')).toBeVisible();
  await expect(panel.getByText(/per new DOT per month/)).toBeVisible();
});

test('a viewed carrier is one click away under "Recently viewed"', async ({ page }) => {
  await page.goto('/carriers/1893346/overview');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('LAKESHORE COACH LINES INC');
  await page.goto('/search');
  const recent = page.getByRole('region', { name: 'Recently viewed' });
  await recent.getByRole('link', { name: 'LAKESHORE COACH LINES INC' }).click();
  await expect(page).toHaveURL(/\/carriers\/1893346\/overview$/);
});
