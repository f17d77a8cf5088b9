/**
 * The monitoring inbox as a new user meets it (issue 12): carrier names and profile links in the
 * rows and the CSV, a keyboard-only triage whose focus stays where the user acted, "mark all
 * reviewed" with undo, the phone layout at 390 × 844, a backwards date range said out loud, and
 * the navigation badge and the inbox during an outage.
 *
 * It triages, records a decision and injects upstream faults, so it runs against a proxy of its
 * own (fresh data directory, its own embedded sandbox): the shared proxy stays as the other specs
 * expect it.
 */
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import Papa from 'papaparse';
import { API_HEADERS, axeViolations, expect, test } from './fixtures.ts';
import { startOwnProxy, type OwnProxy } from './own-proxy.ts';
import type { FaultRule } from './sandbox.ts';

/** Ports of this spec's own proxy (and its sandbox, on the next port): no other spec uses them. */
const PORT = 4410;
const HANSEN_DOT = '568253';
const HANSEN = 'HANSEN & ADKINS AUTO TRANSPORT INC';
/** The embedded sandbox's fixture key (never a real one), as e2e/sandbox.ts sends it. */
const SANDBOX_KEY = 'sk_test_sandbox';

let proxy: OwnProxy | undefined;

test.beforeAll(async () => {
  proxy = await startOwnProxy(PORT, {});
});

test.afterAll(async () => {
  await proxy?.stop();
});

function url(path: string): string {
  if (!proxy) throw new Error('own proxy not started');
  return `${proxy.url}${path}`;
}

/** Fault rules of this spec's own embedded sandbox (the port after its proxy's). */
async function ownSandboxFaults(rules: FaultRule[] | null): Promise<void> {
  const sandboxUrl = url('').replace(/:(\d+)$/, (_, port: string) => `:${Number(port) + 1}`);
  const response = await fetch(`${sandboxUrl}/__sandbox/faults`, {
    method: rules ? 'POST' : 'DELETE',
    headers: {
      authorization: `Bearer ${SANDBOX_KEY}`,
      ...(rules && { 'content-type': 'application/json' }),
    },
    body: rules ? JSON.stringify({ rules }) : undefined,
  });
  expect(response.ok, `sandbox faults answered ${response.status}`).toBe(true);
}

async function openInbox(page: Page, query = ''): Promise<Locator> {
  await page.goto(url(`/monitoring${query}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Monitoring' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Watched carriers and their changes' });
  await expect(table).toBeVisible();
  return table;
}

/** The inbox row of a DOT (its row header holds the link to the profile). */
function rowOf(table: Locator, dot: string): Locator {
  return table
    .locator('tr')
    .filter({ has: table.page().getByRole('link', { name: dot, exact: true }) });
}

function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((element) => element === document.activeElement);
}

/** Presses Tab until `target` has the focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max: number): Promise<number> {
  for (let presses = 1; presses <= max; presses += 1) {
    await page.keyboard.press('Tab');
    if (await isFocused(target)) return presses;
  }
  throw new Error(`${String(target)} was not reached in ${max} Tab presses`);
}

function triagePut(page: Page) {
  return page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/local/triage') && response.request().method() === 'PUT',
  );
}

/** Every triaged change of the seeded watchlist's profiles, as the proxy keeps them. */
async function triagedIds(page: Page): Promise<string[]> {
  const list = await page.request.get(url('/api/v2/monitoring/list?pageSize=500'), {
    headers: API_HEADERS,
  });
  const body = (await list.json()) as { items: Record<string, unknown> };
  const ids = Object.keys(body.items).join(',');
  const triage = await page.request.get(url(`/api/local/triage?profile_ids=${ids}`));
  const items = ((await triage.json()) as { items: { id: string }[] }).items;
  return items.map((item) => item.id).sort();
}

test('rows link the DOT to its profile, and name a carrier the tab has seen', async ({ page }) => {
  // Nothing named the carriers yet: no name is made up, and nothing is fetched to learn one.
  const table = await openInbox(page);
  const billed: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/v2\/(profile|autocomplete)/.test(request.url())) billed.push(request.url());
  });
  await expect(rowOf(table, HANSEN_DOT)).toBeVisible();
  expect(billed).toEqual([]);

  // The profile, opened from the row's link, is data held: the inbox names the carrier.
  await rowOf(table, HANSEN_DOT).getByRole('link', { name: HANSEN_DOT }).click();
  await expect(page).toHaveURL(new RegExp(`/carriers/${HANSEN_DOT}/overview$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText('HANSEN');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /^Monitoring/ })
    .click();
  await expect(rowOf(table, HANSEN_DOT)).toContainText(HANSEN);
});

test('after a reload the proxy names a decided carrier, in the row and the CSV', async ({
  page,
}) => {
  const DECIDED_DOT = '2214589';
  // A decision records what was seen: the profile first (setup, through the API), then the record.
  const seen = await page.request.get(url(`/api/v2/profile?dot_number=${DECIDED_DOT}`), {
    headers: API_HEADERS,
  });
  expect(seen.ok()).toBe(true);
  const decided = await page.request.post(url('/api/local/decisions'), {
    headers: API_HEADERS,
    data: {
      dot_number: DECIDED_DOT,
      decision: 'approved',
      note: 'inbox names',
      // 2214589 needs review: an approval says why (issue 29)
      override_reason: 'Conditional rating under appeal',
    },
  });
  expect(decided.ok()).toBe(true);
  const record = (await decided.json()) as {
    profile: { identity: { name: string; value: unknown }[] };
  };
  const name = String(record.profile.identity.find((f) => f.name === 'legal_name')?.value);
  expect(name).not.toBe('undefined');

  const billed: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/v2\/(profile|autocomplete)/.test(request.url())) billed.push(request.url());
  });
  const table = await openInbox(page);
  await expect(rowOf(table, DECIDED_DOT)).toContainText(name);
  expect(billed).toEqual([]);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const csv = Papa.parse<Record<string, string>>(await readFile(file, 'utf8'), { header: true });
  const rows = csv.data.filter((row) => row.dot === DECIDED_DOT);
  expect(rows.length).toBeGreaterThan(0);
  // the legal name the record kept; "LEGAL (DBA X)" once the name store holds the DBA name too
  // (an earlier spec's view of the carrier may have taught it), one name for every row
  const named = new Set(rows.map((row) => row.name));
  expect(named.size).toBe(1);
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  expect([...named][0]).toMatch(new RegExp(`^${escaped}( \\(DBA .+\\))?$`));
});

test('keyboard only: skip to the changes, triage, and the focus stays on the control', async ({
  page,
}) => {
  await openInbox(page);
  // page start → "Skip to content" → main → "Skip to changes" → the list
  const skip = page.getByRole('link', { name: 'Skip to changes' });
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  expect(await tabTo(page, skip, 2)).toBeLessThanOrEqual(2);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Changes' })).toBeFocused();
  const expand = page.getByRole('button', { name: 'Expand all' });
  await tabTo(page, expand, 2);
  await page.keyboard.press('Enter');
  const firstCheckbox = page.getByRole('checkbox', { name: /^Select / }).first();
  await expect(firstCheckbox).toBeVisible();
  const state = page.getByRole('combobox', { name: /^Triage state of / }).first();
  // the first row's controls, then its first change's triage state
  expect(await tabTo(page, state, 8)).toBeLessThanOrEqual(8);
  await expect(state).toHaveValue('new');

  const saved = triagePut(page);
  await page.keyboard.press('ArrowDown');
  expect((await saved).ok()).toBe(true);
  await expect(state).toHaveValue('reviewed');
  // the refetch of the triage states has come and gone
  await page.waitForTimeout(1_500);
  await expect(state).toBeFocused();

  // A note saved with the keyboard keeps the focus on its button too.
  await page.keyboard.press('Tab');
  await page.keyboard.type('Checked with the broker');
  await page.keyboard.press('Tab');
  const saveNote = page.getByRole('button', { name: /^Save note on / }).first();
  await expect(saveNote).toBeFocused();
  const noted = triagePut(page);
  await page.keyboard.press('Enter');
  expect((await noted).ok()).toBe(true);
  await page.waitForTimeout(1_500);
  await expect(saveNote).toBeFocused();
});

test('filtered to New, a change set to Reviewed stays, with the focus on it', async ({ page }) => {
  await openInbox(page, '?triage=new');
  await page.getByRole('button', { name: 'Expand all' }).click();
  const newState = page.getByRole('combobox', { name: /^Triage state of / }).first();
  await newState.focus();
  const label = await newState.getAttribute('aria-label');
  const again = triagePut(page);
  await page.keyboard.press('ArrowDown');
  expect((await again).ok()).toBe(true);
  await page.waitForTimeout(1_500);
  const same = page.getByRole('combobox', { name: label ?? '' }).first();
  await expect(same).toBeFocused();
  await expect(same).toHaveValue('reviewed');
});

test('"Mark all on this page reviewed" can be undone', async ({ page }) => {
  await openInbox(page);
  const before = await triagedIds(page);
  const rail = page.getByRole('navigation', { name: 'Channels' });
  const markAll = page.getByRole('button', { name: 'Mark all on this page reviewed' });
  await expect(markAll).toBeEnabled();

  const saved = triagePut(page);
  await markAll.click();
  expect((await saved).ok()).toBe(true);
  const status = page.getByRole('status').filter({ hasText: /^Marked \d+ changes? reviewed\.$/ });
  await expect(status).toBeVisible();
  const marked = Number(/\d+/.exec((await status.textContent()) ?? '')?.[0]);
  expect(marked).toBeGreaterThan(0);
  const undo = page.getByRole('button', { name: 'Undo' });
  await expect(undo).toBeFocused();
  await expect(markAll).toBeDisabled();
  expect((await triagedIds(page)).length).toBe(before.length + marked);
  await expect(rail.getByRole('button', { name: /^Insurance/ })).toContainText('0');

  const restored = triagePut(page);
  await page.keyboard.press('Enter');
  expect((await restored).ok()).toBe(true);
  await expect(page.getByRole('status').filter({ hasText: 'Undone:' })).toHaveText(
    `Undone: ${marked} changes back to their previous state.`,
  );
  await expect(markAll).toBeEnabled();
  await expect(markAll).toBeFocused();
  expect(await triagedIds(page)).toEqual(before);
  expect(await axeViolations(page)).toEqual([]);
});

test('at 390 × 844 the inbox fits the screen and the triage controls are on it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const table = await openInbox(page);
  await page.getByRole('button', { name: 'Expand all' }).click();
  const state = page.getByRole('combobox', { name: /^Triage state of / }).first();
  await state.scrollIntoViewIfNeeded();
  await expect(state).toBeInViewport({ ratio: 1 });
  await expect(rowOf(table, HANSEN_DOT).getByRole('link', { name: HANSEN_DOT })).toBeVisible();
  const box = await state.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  // the page scrolls down only: nothing can be reached by scrolling sideways
  await page.evaluate(() => window.scrollTo(500, window.scrollY));
  expect(await page.evaluate(() => window.scrollX)).toBe(0);
});

test('a backwards date range is kept and explained, in the inbox and on the Decisions page', async ({
  page,
}) => {
  await openInbox(page, '?date_min=20261201&date_max=20260101');
  const filters = page.getByRole('form', { name: 'Inbox filters' });
  await expect(filters.getByRole('alert')).toContainText(
    '“From” (2026-12-01) is after “To” (2026-01-01)',
  );
  await expect(filters.getByLabel('To', { exact: true })).toHaveValue('2026-01-01');
  await expect(filters.getByLabel('To', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/date_max=20260101/);

  // typed: the To the user gave stays, with the reason; a good range clears it
  await filters.getByLabel('From', { exact: true }).fill('2025-12-01');
  await expect(filters.getByRole('alert')).toHaveCount(0);
  await filters.getByLabel('To', { exact: true }).fill('2025-11-01');
  await expect(filters.getByRole('alert')).toContainText('is after “To” (2025-11-01)');
  await expect(filters.getByLabel('To', { exact: true })).toHaveValue('2025-11-01');

  await page.goto(url('/decisions'));
  const form = page.getByRole('form', { name: 'Filter decisions' });
  await form.getByLabel('From', { exact: true }).fill('2026-12-01');
  await form.getByLabel('To', { exact: true }).fill('2026-01-01');
  await form.getByRole('button', { name: 'Apply filters' }).click();
  await expect(form.getByRole('alert')).toContainText(
    '“From” (2026-12-01) is after “To” (2026-01-01)',
  );
  await expect(form.getByLabel('To', { exact: true })).toHaveValue('2026-01-01');
  expect(new URL(page.url()).search).toBe('');
});

test.describe('outages', () => {
  test.use({
    expectedConsoleErrors:
      /Failed to load resource: (the server responded with a status of 503|net::ERR_FAILED)/,
  });

  test.afterEach(async () => {
    await ownSandboxFaults(null);
  });

  test('with the proxy unreachable, a failed triage change shows one error, not two', async ({
    page,
  }) => {
    await openInbox(page);
    await page.getByRole('button', { name: 'Expand all' }).click();
    const state = page.getByRole('combobox', { name: /^Triage state of / }).first();
    const before = await state.inputValue();
    const other = before === 'escalated' ? 'reviewed' : 'escalated';
    // The change fails, and so does reading the states back: one error says so.
    await page.route('**/api/**', (route) => route.abort('failed'));
    await state.selectOption(other);
    const alerts = page.getByRole('main').getByRole('alert');
    await expect(alerts).toHaveCount(1);
    await expect(alerts).toContainText('Cannot reach the server');
    await page.waitForTimeout(1_500);
    await expect(alerts).toHaveCount(1);
    // the change was not saved: the control says so
    await expect(state).toHaveValue(before);
  });

  // Last in the file: the proxy's circuit breaker may stay open for a while after these faults.
  test('the badge keeps its last count, marked stale, while the service is down', async ({
    page,
  }) => {
    await openInbox(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const badgeLink = nav.getByRole('link', { name: /^Monitoring \d+ untriaged changes$/ });
    await expect(badgeLink).toBeVisible();
    const count = await nav.locator('[data-stale="false"] > [aria-hidden="true"]').textContent();

    // The service answers 503 to every list call: the proxy and the page retry, then give up.
    await ownSandboxFaults([
      { path: '/v2/monitoring/list', status: 503, retry_after: 0, count: 100 },
    ]);
    await page.getByRole('button', { name: /^Refresh/ }).click();
    await expect(
      nav.getByRole('link', {
        name: `Monitoring ${count} untriaged changes (last known, the server cannot be reached)`,
      }),
    ).toBeVisible({ timeout: 20_000 });
    await expect(nav.locator('[data-stale="true"]')).toBeVisible();
    // the inbox keeps its rows and says, once, that it is retrying
    await expect(page.getByText('Cannot reach the server — retrying.')).toBeVisible();
    await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
    await expect(
      page.getByRole('table', { name: 'Watched carriers and their changes' }),
    ).toBeVisible();
  });
});
