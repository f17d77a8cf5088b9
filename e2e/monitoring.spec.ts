import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import Papa from 'papaparse';
import { CHANNELS, channelOfField, parseMonitoringList } from '../src/lib/service/index.ts';
import { API_HEADERS, expect, test } from './fixtures.ts';
import { sandbox } from './sandbox.ts';

const LABELS = ['Insurance', 'Authority', 'Safety', 'Fleet', 'Contact', 'Risk'];

test.beforeAll(async () => {
  await sandbox.clearFaults();
  await sandbox.reset();
});

// `advance` moves the sandbox clock and changes watched carriers: leave the next spec a fresh sandbox.
test.afterAll(async () => {
  await sandbox.reset();
});

/** The proxy's answer for a list query, as the inbox reads it. */
async function listFromApi(request: APIRequestContext, query: string) {
  const response = await request.get(`/api/v2/monitoring/list?pageSize=500&${query}`, {
    headers: API_HEADERS,
  });
  expect(response.ok()).toBe(true);
  return parseMonitoringList(await response.json()).value;
}

async function openInbox(page: Page, query = '') {
  await page.goto(`/monitoring${query ? `?${query}` : ''}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Monitoring' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Watched carriers and their changes' });
  await expect(table.or(page.getByText('No watched carrier matches'))).toBeVisible();
  return table;
}

/**
 * The inbox once the decisions' standings arrived: its row DOTs, and those whose decision it pins to
 * the top in any order (docs/vetting.md: needs re-vet, now fails, now needs review), as other specs'
 * decisions left them.
 */
async function settledInbox(page: Page, query = '') {
  const answered = page.waitForResponse((response) =>
    response.url().includes('/api/local/decisions/current?dot_numbers='),
  );
  await openInbox(page, query);
  const { items } = (await (await answered).json()) as {
    items: { dot_number: string; standing: string; needs_revet?: boolean }[];
  };
  const pinned = items
    .filter((item) => item.needs_revet || ['now_fails', 'now_review'].includes(item.standing))
    .map((item) => item.dot_number)
    .sort();
  await expect
    .poll(async () => (await rowDots(page)).slice(0, pinned.length).sort())
    .toEqual(pinned);
  return { dots: await rowDots(page), pinned };
}

async function expandAll(page: Page) {
  await page.getByRole('button', { name: 'Expand all' }).click();
}

/** The channel column of every change row shown. */
async function shownChannels(page: Page): Promise<string[]> {
  const tables = page.getByRole('table', { name: /^Changes of / });
  return tables.locator('tbody tr td:nth-child(4)').allInnerTexts();
}

/** The DOT of each inbox row, in order. */
async function rowDots(page: Page): Promise<string[]> {
  const table = page.getByRole('table', { name: 'Watched carriers and their changes' });
  const headers = table.locator('tbody th[scope="row"] button');
  return (await headers.allInnerTexts()).map((text) => text.replace(/\D+/g, ''));
}

test('the seeded inbox shows changes in all six channels', async ({ page }) => {
  await openInbox(page);
  const rail = page.getByRole('navigation', { name: 'Channels' });
  for (const label of LABELS) {
    const button = rail.getByRole('button', { name: new RegExp(`^${label}`) });
    await expect(button).toBeVisible();
    const count = Number(await button.locator('span').last().innerText());
    expect(count, `${label} untriaged`).toBeGreaterThan(0);
  }
  await expandAll(page);
  expect(new Set(await shownChannels(page))).toEqual(new Set(LABELS));
  await expect(
    page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Monitoring \d+ untriaged changes$/ }),
  ).toBeVisible();
});

test('the inbox reads its page parsed by the proxy, with its change ids, in one request', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (r) => {
    if (/\/api\/(v2\/monitoring\/list|local\/monitoring-view)/.test(r.url())) asked.push(r.url());
  });
  const view = page.waitForResponse((r) => r.url().includes('/api/local/monitoring-view?page=1'));
  await openInbox(page);
  const body = (await (await view).json()) as {
    list: { totalCount: number; profiles: unknown[] };
    changeIds: string[][];
  };
  expect(body.list.profiles.length).toBeGreaterThan(0);
  expect(body.changeIds).toHaveLength(body.list.profiles.length);
  await expect(page.locator('tbody th[scope="row"]').first()).toBeVisible();
  // neither the page nor the badge reads the mirror's list, and no worker parses it
  expect(asked.filter((url) => url.includes('/api/v2/monitoring/list'))).toEqual([]);
  expect(page.workers().filter((worker) => worker.url().includes('list'))).toEqual([]);
});

test('each channel filter shows exactly that channel’s changes', async ({ page, request }) => {
  for (const [index, channel] of CHANNELS.entries()) {
    const list = await listFromApi(request, `view_changes=true&view_changes_${channel}=true`);
    const expected = list.profiles
      .flatMap((p) => p.records.flatMap((r) => r.changes))
      .filter((change) => channelOfField(change.field) === channel).length;
    expect(expected, channel).toBeGreaterThan(0);
    await openInbox(page, `view_changes_${channel}=true`);
    await expandAll(page);
    const channels = await shownChannels(page);
    expect(channels).toHaveLength(expected);
    expect(new Set(channels)).toEqual(new Set([LABELS[index]]));
  }
});

test('sort order and date range change what the inbox lists', async ({ page, request }) => {
  const desc = await listFromApi(request, 'view_changes=true&sortOrder=desc');
  // rows whose decision now fails or needs re-vet stay on top in either order; the rest reverse
  const { dots: shownDesc, pinned } = await settledInbox(page);
  const { dots: shownAsc, pinned: pinnedAsc } = await settledInbox(page, 'sortOrder=asc');
  const rest = (dots: string[]) => dots.filter((dot) => !pinned.includes(dot));
  // specs running beside this one may watch a carrier or record a decision between the two loads
  // (the CI run of 4f70f3a saw 2214589 only in the second): compare the carriers both lists show,
  // unpinned in both
  const both = (dots: string[]) =>
    rest(dots).filter(
      (dot) => shownDesc.includes(dot) && shownAsc.includes(dot) && !pinnedAsc.includes(dot),
    );
  expect(both(shownAsc).length).toBeGreaterThan(2);
  expect(both(shownAsc)).toEqual(both(shownDesc).reverse());
  expect(rest(shownDesc)[0]).toBe(
    rest(desc.profiles.sort((a, b) => latest(b).localeCompare(latest(a))).map((p) => p.dot))[0],
  );

  await openInbox(page, 'sortBy=profile_id&sortOrder=asc');
  const byId = await rowDots(page);
  expect(byId).not.toEqual(shownDesc);

  // the newest records only: a range from 5 days ago drops the older changes
  const newest = latest(desc.profiles[0]!);
  const from = shiftDays(newest, -5);
  const query = `date_min=${from.replaceAll('-', '')}`;
  await openInbox(page);
  await page.getByLabel('From').fill(from);
  await expect(page).toHaveURL(new RegExp(query));
  // the unfiltered page stays on screen while the filtered one loads: expand the filtered one
  await expect(page.getByRole('region', { name: 'Changes' })).toHaveAttribute('aria-busy', 'false');
  await expandAll(page);
  const inRange = (await listFromApi(request, `view_changes=true&${query}`)).profiles.flatMap((p) =>
    p.records.flatMap((r) => r.changes),
  );
  await expect(
    page.getByRole('table', { name: /^Changes of / }).locator('tbody tr td:first-child'),
  ).toHaveCount(inRange.length);
  expect(inRange.length).toBeLessThan(
    desc.profiles.flatMap((p) => p.records.flatMap((r) => r.changes)).length,
  );
});

function latest(profile: { records: { lastChangedDate?: string | undefined }[] }): string {
  return (
    profile.records
      .map((r) => r.lastChangedDate ?? '')
      .sort()
      .at(-1) ?? ''
  );
}

function shiftDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

test('a triaged change stays triaged after a reload', async ({ page }) => {
  await openInbox(page, 'view_changes_fleet=true');
  await expandAll(page);
  const state = page.getByRole('combobox', { name: /^Triage state of / }).first();
  const name = await state.getAttribute('aria-label');
  await state.selectOption('escalated');
  const note = page.getByRole('textbox', { name: name!.replace('Triage state of', 'Note on') });
  await note.fill('call the carrier');
  await page
    .getByRole('button', { name: `Save note ${name!.replace('Triage state of ', 'on ')}` })
    .click();
  await expect(page.getByText(/Escalated by local/).first()).toBeVisible();
  await page.reload();
  await expandAll(page);
  const again = page.getByRole('combobox', { name: name! });
  await expect(again).toHaveValue('escalated');
  await expect(
    page.getByRole('textbox', { name: name!.replace('Triage state of', 'Note on') }),
  ).toHaveValue('call the carrier');
  await page.getByLabel('Triage state', { exact: true }).selectOption('escalated');
  await expect(page).toHaveURL(/triage=escalated/);
  expect(await page.getByRole('combobox', { name: /^Triage state of / }).count()).toBe(1);
});

test('the navigation badge counts one fewer once a New change is reviewed', async ({ page }) => {
  await openInbox(page, 'triage=new');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const count = nav.getByText(/^\d+ untriaged changes$/);
  await expect(count).toBeAttached();
  const before = Number((await count.textContent())?.split(' ')[0]);
  expect(before).toBeGreaterThan(0);
  await expandAll(page);
  const state = page.getByRole('combobox', { name: /^Triage state of / }).first();
  await expect(state).toHaveValue('new');
  await state.selectOption('reviewed');
  // the proxy counts again once the write has ended: one fewer, with no reload
  await expect(nav.getByText(`${before - 1} untriaged changes`, { exact: true })).toBeAttached();
});

test('the CSV export holds the filtered rows', async ({ page, request }) => {
  await openInbox(page, 'view_changes_contact=true');
  await expandAll(page);
  const shown = (await shownChannels(page)).length;
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^monitoring-changes-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await readFile((await download.path())!, 'utf8');
  const rows = Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: true,
  }).data;
  expect(rows).toHaveLength(shown);
  expect(new Set(rows.map((row) => row.channel))).toEqual(new Set(['contact']));
  const list = await listFromApi(request, 'view_changes=true&view_changes_contact=true');
  expect(new Set(rows.map((row) => row.profile_id))).toEqual(
    new Set(list.profiles.map((p) => p.profileId)),
  );
});

test('changes made by advance appear after a refresh, marked new since the last visit', async ({
  page,
  request,
}) => {
  // the first load records the visit; reload so the marks compare to it
  await openInbox(page);
  await expect
    .poll(async () => (await (await request.get('/api/local/triage/last-visit')).json()) as unknown)
    .toMatchObject({ lastVisitAt: expect.any(String) });
  await page.reload();
  await expandAll(page);
  await expect(page.getByText('New since last visit')).toHaveCount(0);
  await sandbox.advance(2);
  const refreshed = page.waitForResponse((r) =>
    r.url().includes('/api/local/monitoring-view?page=1&pageSize=100'),
  );
  await page.getByRole('button', { name: 'Refresh' }).click();
  await refreshed;
  const expand = page.getByRole('button', { name: 'Expand all' });
  if (await expand.isVisible()) await expand.click();
  await expect(page.getByText('New since last visit').first()).toBeVisible();
});

test('bulk watch of a pasted list reports added and failed ids', async ({ page, request }) => {
  await openInbox(page);
  await page.getByText('Watch carriers in bulk').click();
  await page
    .getByLabel(/DOT numbers, dockets or profile ids/)
    .fill('1893346-MC654388\n1120987-MC412255, 9999998-MC9999998');
  await page.getByRole('button', { name: 'Check 3 entries' }).click();
  await expect(page.getByText(/3 profile ids/)).toBeVisible();
  await page.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.getByText(/Watching costs \$/)).toBeVisible();
  await page.getByRole('button', { name: 'Confirm and watch 3 carriers' }).click();
  const result = page.getByRole('region', { name: 'Watch result' });
  await expect(result).toContainText('Added 2 carriers');
  await expect(result).toContainText('9999998-MC9999998');
  const list = await listFromApi(request, 'view_changes=false&sortBy=profile_id');
  const ids = list.profiles.map((p) => p.profileId);
  expect(ids).toEqual(expect.arrayContaining(['1893346-MC654388', '1120987-MC412255']));
});

test('the inbox table announces its rows and its triage controls are reachable by keyboard', async ({
  page,
}) => {
  const table = await openInbox(page);
  // the rows once the list has settled (a carrier another spec watched can arrive a moment after
  // the first rows): as many drawn as the table holds
  let rows = 0;
  await expect
    .poll(async () => {
      rows = (await rowDots(page)).length;
      return rows > 0 && String(rows) === (await table.getAttribute('data-row-count'));
    })
    .toBe(true);
  // virtualised: the table says how many rows it has, whether or not all are in the DOM
  await expect(table).toHaveAttribute('aria-rowcount', String(rows + 1));
  const first = table.locator('tbody th[scope="row"] button').first();
  await expect(first.locator('xpath=ancestor::tr[1]')).toHaveAttribute('aria-rowindex', '2');

  await first.focus();
  await page.keyboard.press('Enter');
  await expect(first).toHaveAttribute('aria-expanded', 'true');
  await expect(table).toHaveAttribute('aria-rowcount', String(rows + 2));
  for (let press = 0; press < 10; press += 1) {
    await page.keyboard.press('Tab');
    const name = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    if (name?.startsWith('Triage state of ')) break;
  }
  await expect(page.locator(':focus')).toHaveAccessibleName(/^Triage state of /);
});
