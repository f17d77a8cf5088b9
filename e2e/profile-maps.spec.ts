/**
 * The Inspections and Crashes tabs with their MapLibre maps, against the real proxy and embedded
 * sandbox (offline basemap, SwiftShader WebGL). The map container exposes `data-state="idle"` after
 * MapLibre's `idle` event and what it draws (`data-rendered-*`), so the tests wait for it and count.
 * Expected counts are the curated carriers' (docs/sandbox-data.md: counts equal array contents).
 */
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { expect, expectAxeCleanInBothThemes, test } from './fixtures.ts';

const HANSEN = '568253'; // 64 inspections, 6 crashes
const SWIFTPATH = '4418207'; // 1 crash
const HEAVY = '3999999'; // 5,200 inspections

function inspectionMap(page: Page): Locator {
  return page.getByRole('group', { name: 'Map of inspection locations' });
}

function crashMap(page: Page): Locator {
  return page.getByRole('group', { name: 'Map of crash locations' });
}

/** True when `row` lies within the visible part of the table's own scroll box. */
async function isShownInTable(row: Locator): Promise<boolean> {
  return row.evaluate((el) => {
    const box = el.closest('[data-testid="virtual-table-scroll"]');
    if (!box) return false;
    const outer = box.getBoundingClientRect();
    const inner = el.getBoundingClientRect();
    return inner.top >= outer.top && inner.bottom <= outer.bottom;
  });
}

async function expectIdleWithAllPoints(map: Locator, points: number) {
  await expect(map).toHaveAttribute('data-state', 'idle', { timeout: 20_000 });
  await expect(map).toHaveAttribute('data-point-count', String(points));
  // after fit-to-points every point is drawn, alone or inside a cluster
  await expect(map).toHaveAttribute('data-rendered-total', String(points));
  const clusters = Number(await map.getAttribute('data-rendered-clusters'));
  const singles = Number(await map.getAttribute('data-rendered-points'));
  expect(clusters + singles).toBeGreaterThan(0);
  expect(clusters + singles).toBeLessThanOrEqual(points);
}

test('the inspection map of HANSEN reaches idle with its 64 inspections', async ({ page }) => {
  await page.goto(`/carriers/${HANSEN}/inspections`);
  await expect(page.getByRole('table', { name: 'Inspections: 64' })).toBeVisible();
  await expectIdleWithAllPoints(inspectionMap(page), 64);
  await expect(inspectionMap(page).locator('canvas')).toHaveAttribute(
    'aria-label',
    'Map of inspection locations',
  );
});

test('the crash map of HANSEN reaches idle with its 6 crashes', async ({ page }) => {
  await page.goto(`/carriers/${HANSEN}/crashes`);
  await expect(page.getByRole('table', { name: 'Crashes: 6' })).toBeVisible();
  await expectIdleWithAllPoints(crashMap(page), 6);
});

test('selecting an inspection row opens its point; a listed point selects its row', async ({
  page,
}) => {
  await page.goto(`/carriers/${HANSEN}/inspections`);
  const map = inspectionMap(page);
  await expect(map).toHaveAttribute('data-state', 'idle', { timeout: 20_000 });
  const firstRow = page.locator('tr[data-row-id]').first();
  const select = firstRow.getByRole('button', { name: /show on map/ });
  const date = (await select.textContent()) ?? '';
  await select.click();
  await expect(select).toHaveAttribute('aria-pressed', 'true');
  await expect(map.locator('.maplibregl-popup')).toContainText(`Inspection ${date}`);

  // the other way: the map's list of points (the keyboard path to every point)
  await map.getByText(/List of the 64 map locations/).click();
  const items = map.getByRole('listitem').getByRole('button');
  await expect(items).toHaveCount(64);
  const last = items.last();
  const label = (await last.textContent()) ?? '';
  await last.click();
  const selectedRow = page.locator('tr[data-selected="true"]');
  await expect(selectedRow).toHaveCount(1);
  await expect.poll(() => isShownInTable(selectedRow)).toBe(true);
  const rowDate = label.replace(/^Inspection (\d+ \w+ \d{4}).*$/, '$1');
  await expect(selectedRow).toContainText(rowDate);
  await expect(map.locator('.maplibregl-popup')).toContainText(label.replace(/ \(.*\)$/, ''));
});

test('clicking the single crash point of SWIFTPATH selects its row', async ({ page }) => {
  await page.goto(`/carriers/${SWIFTPATH}/crashes`);
  const map = crashMap(page);
  await expectIdleWithAllPoints(map, 1);
  await expect(map).toHaveAttribute('data-rendered-points', '1');
  // fit-to-points centres a single point
  const canvas = map.locator('canvas');
  const box = await canvas.boundingBox();
  if (!box) throw new Error('the map canvas has no box');
  await canvas.click({ position: { x: box.width / 2, y: box.height / 2 } });
  await expect(page.locator('tr[data-selected="true"]')).toHaveCount(1);
  await expect(map.locator('.maplibregl-popup')).toContainText('Crash ');
});

test('the heavy carrier’s inspections page, sort and filter on the server', async ({ page }) => {
  test.setTimeout(60_000);
  const views: URLSearchParams[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/local/profile-view') views.push(url.searchParams);
  });
  await page.goto(`/carriers/${HEAVY}/inspections`);
  const table = page.getByRole('table', { name: /^Inspections: 5,/ });
  await expect(table).toBeVisible({ timeout: 30_000 });
  // a page of 100 rows, not the 5,200 of the history
  await expect(page.locator('tr[data-row-id]')).toHaveCount(100);
  const pages = page.getByRole('navigation', { name: 'Inspection pages' });
  await expect(pages).toContainText('Page 1 of 52');
  const first = await page.locator('tr[data-row-id]').first().getAttribute('data-row-id');
  await pages.getByRole('button', { name: 'Next page' }).click();
  await expect(pages).toContainText('Page 2 of 52');
  await expect(page.locator('tr[data-row-id]').first()).not.toHaveAttribute(
    'data-row-id',
    first ?? '',
  );
  // the map holds every inspection, whichever page the table shows
  await expect(inspectionMap(page)).toHaveAttribute('data-state', 'idle', { timeout: 30_000 });
  await expect(inspectionMap(page)).toHaveAttribute('data-rendered-total', '5200');
  await page.getByRole('checkbox', { name: 'Out-of-service only' }).check();
  const filteredTable = page.getByRole('table', { name: /match the filters$/ });
  await expect(filteredTable).toBeVisible();
  // the map follows the filter: it draws the matching inspections only, all of them
  const caption = (await filteredTable.locator('caption').textContent()) ?? '';
  const matched = /Inspections: ([\d,]+) of/.exec(caption)?.[1]?.replaceAll(',', '');
  expect(Number(matched)).toBeGreaterThan(0);
  expect(Number(matched)).toBeLessThan(5200);
  await expect(inspectionMap(page)).toHaveAttribute('data-point-count', matched ?? '', {
    timeout: 30_000,
  });
  await expect(inspectionMap(page)).toHaveAttribute('data-state', 'idle', { timeout: 30_000 });
  await expect(inspectionMap(page)).toHaveAttribute('data-rendered-total', matched ?? '');
  // a new filter starts again from the first page
  await expect(page.getByText(/^Page 2 of/)).toHaveCount(0);
  const kinds = views.map((params) => params.get('view'));
  expect(kinds).toContain('inspection-points');
  expect(views.some((p) => p.get('view') === 'inspections' && p.get('offset') === '100')).toBe(
    true,
  );
  const filtered = views.filter((params) => params.get('oos') === '1');
  expect(filtered.map((params) => params.get('view'))).toEqual(
    expect.arrayContaining(['inspections', 'inspection-points']),
  );
  expect(filtered.every((params) => params.get('offset') !== '100')).toBe(true);
});

for (const tab of ['inspections', 'crashes'] as const) {
  test(`axe finds nothing on the ${tab} tab (light and dark)`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`/carriers/${HANSEN}/${tab}`);
    const map = tab === 'inspections' ? inspectionMap(page) : crashMap(page);
    await expect(map).toHaveAttribute('data-state', 'idle', { timeout: 20_000 });
    await page
      .locator('tr[data-row-id]')
      .first()
      .getByRole('button', { name: /Details|Violations/ })
      .click();
    await page.getByText(/as a table$/).click();
    await expectAxeCleanInBothThemes(page);
  });
}

test('clusters show their counts and the map has a legend', async ({ page }) => {
  await page.goto(`/carriers/${HANSEN}/inspections`);
  const map = inspectionMap(page);
  await expectIdleWithAllPoints(map, 64);
  const legend = map.getByRole('list', { name: 'Map legend' });
  await expect(legend.getByRole('listitem')).toHaveText(['Inspection', /^Group of nearby points/]);
  const clusters = Number(await map.getAttribute('data-rendered-clusters'));
  expect(clusters).toBeGreaterThan(0);
  const labels = map.locator('.map-cluster-count');
  await expect(labels).toHaveCount(clusters);
  // the labels' counts are the points inside the clusters: together with the single points, all 64
  const counts = (await labels.allTextContents()).map(Number);
  const singles = Number(await map.getAttribute('data-rendered-points'));
  expect(counts.reduce((sum, n) => sum + n, 0) + singles).toBe(64);
});

test('an inspection’s popup says its level, violations and out-of-service', async ({ page }) => {
  await page.goto(`/carriers/${HANSEN}/inspections`);
  const map = inspectionMap(page);
  await expect(map).toHaveAttribute('data-state', 'idle', { timeout: 20_000 });
  const row = page.locator('tr[data-row-id]').first();
  await row.getByRole('button', { name: /show on map/ }).click();
  const popup = map.locator('.maplibregl-popup');
  await expect(popup).toContainText(/Level \d/);
  await expect(popup).toContainText(/\d+ violations?|Violations: not reported/);
  await expect(popup).toContainText(/Out of service: (yes|no)/);
  const oosCell = (await row.locator('td').nth(5).textContent()) ?? '';
  await expect(popup).toContainText(
    oosCell.startsWith('Yes') ? 'Out of service: yes' : 'Out of service: no',
  );
});

test('the contact map shows both addresses with the land around them', async ({ page }) => {
  await page.goto(`/carriers/${HANSEN}/contact`);
  const map = page.getByRole('group', { name: 'Map of address points' });
  await expect(map).toHaveAttribute('data-state', 'idle', { timeout: 20_000 });
  await expect(map).toHaveAttribute('data-rendered-points', '2');
  // zoomed out enough for the coast and state borders, not into blank land (it opened at 9)
  expect(Number(await map.getAttribute('data-zoom'))).toBeLessThanOrEqual(7);
  await expect(map.getByRole('list', { name: 'Map legend' }).getByRole('listitem')).toHaveText([
    'Physical address',
    'Mailing address',
  ]);
});

async function downloadedCsv(
  page: Page,
  button: Locator,
): Promise<{ name: string; lines: string[] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const path = await download.path();
  const text = await readFile(path, 'utf8');
  return { name: download.suggestedFilename(), lines: text.split('\r\n') };
}

test('the inspections, crashes and equipment tables export as CSV', async ({ page }) => {
  test.setTimeout(60_000); // three tabs
  await page.goto(`/carriers/${HANSEN}/inspections`);
  const inspections = await downloadedCsv(
    page,
    page.getByRole('button', { name: 'Export 64 inspections as CSV' }),
  );
  expect(inspections.name).toMatch(/^inspections-568253-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(inspections.lines).toHaveLength(65);
  expect(inspections.lines[0]).toMatch(/^report_number,inspection_date,state,/);

  await page.getByRole('checkbox', { name: 'Out-of-service only' }).check();
  const filtered = page.getByRole('table', { name: /match the filters$/ });
  const shown = Number(await filtered.getAttribute('data-row-count'));
  const oos = await downloadedCsv(
    page,
    page.getByRole('button', { name: `Export ${shown} inspections as CSV` }),
  );
  expect(oos.lines).toHaveLength(shown + 1);

  await page.goto(`/carriers/${HANSEN}/crashes`);
  const crashes = await downloadedCsv(
    page,
    page.getByRole('button', { name: 'Export 6 crashes as CSV' }),
  );
  expect(crashes.name).toMatch(/^crashes-568253-/);
  expect(crashes.lines).toHaveLength(7);

  await page.goto(`/carriers/${HANSEN}/fleet`);
  const button = page.getByRole('button', { name: /^Export [\d,]+ vehicles as CSV$/ });
  const vehicles = Number((await button.textContent())?.replace(/\D/g, ''));
  const equipment = await downloadedCsv(page, button);
  expect(equipment.name).toMatch(/^equipment-568253-/);
  expect(equipment.lines).toHaveLength(vehicles + 1);
  expect(equipment.lines[0]).toMatch(/^vin,unit_type,/);
});
