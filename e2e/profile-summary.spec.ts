/**
 * The profile summary (`/api/local/profile-summary`) and views (`/api/local/profile-view`): the page
 * draws the header and overview from the summary and the history tabs from the proxy's slices; the
 * full profile is asked for only by the tabs that read the whole item (Network, Raw). Together they
 * cost the service one call, because every slice is cut from the proxy's one (cached or in-flight)
 * full answer.
 */
import type { Page, Request } from '@playwright/test';
import { PROFILE_TABS } from '../src/features/profile/components/tabs/types.ts';
import { API_HEADERS, expect, test } from './fixtures.ts';
import { sandbox } from './sandbox.ts';

/** A population carrier no other spec opens, so the proxy has not cached it yet. */
const FRESH_DOT = '5000431';
const HEAVY_DOT = '3999999';
/** Another carrier no other spec opens, reached through the search page. */
const SEARCHED_DOT = '5000441';

/** Upstream profile calls the sandbox has recorded for the embedded key, all months. */
async function upstreamProfileCalls(): Promise<number> {
  const ledger = await sandbox.ledger();
  return ledger.keys
    .flatMap((key) => key.months)
    .flatMap((month) => month.lines)
    .filter((line) => line.kind === 'profile')
    .reduce((total, line) => total + line.calls, 0);
}

/** The paths of the page's profile requests (summary and full). */
function recordProfileRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request: Request) => {
    const { pathname } = new URL(request.url());
    if (pathname === '/api/local/profile-summary' || pathname === '/api/v2/profile') {
      paths.push(pathname);
    }
  });
  return paths;
}

test('the overview comes from the summary alone, with its verdict: one upstream call', async ({
  page,
}) => {
  const before = await upstreamProfileCalls();
  const paths = recordProfileRequests(page);
  // The route's loader asks for the summary (then the verdict) beside the page's code, and the
  // page's own queries take those answers: each is asked once, the summary before the code is in.
  const events: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/local/')) events.push(`asked ${pathname}`);
  });
  page.on('requestfinished', (request) => {
    if (/\/assets\/ProfilePage-[^/]+\.js$/.test(request.url())) events.push('page code in');
  });
  await page.goto(`/carriers/${FRESH_DOT}/overview`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Risk factors' })).toBeVisible();
  await expect(page.locator('#verdict[data-verdict]')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(paths).toEqual(['/api/local/profile-summary']);
  expect(events.filter((e) => e === 'asked /api/local/verdict')).toHaveLength(1);
  expect(events.indexOf('asked /api/local/profile-summary')).toBeLessThan(
    events.indexOf('page code in'),
  );
  expect(events.indexOf('page code in')).toBeGreaterThanOrEqual(0);
  await expect(page.locator('[data-full-profile="absent"]')).toBeAttached();
  expect((await upstreamProfileCalls()) - before).toBe(1);
});

test('the heavy carrier’s overview draws without asking for its full profile', async ({ page }) => {
  test.setTimeout(60_000);
  const asked: string[] = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await page.goto(`/carriers/${HEAVY_DOT}/overview`);
  await expect(page.getByRole('heading', { name: 'Risk factors' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.locator('#verdict[data-verdict]')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-signal="network"]')).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  expect(asked).toContain('/api/local/profile-summary');
  expect(asked).toContain('/api/local/verdict');
  expect(asked).not.toContain('/api/v2/profile');
});

test('search → profile → every tab makes one upstream profile call', async ({ page }) => {
  test.setTimeout(60_000);
  const before = await upstreamProfileCalls();
  // The search page asks for the DOT with its page size, the profile page without one: the proxy
  // answers both from one cache entry.
  await page.goto(`/search?dot_number=${SEARCHED_DOT}`);
  await expect(page).toHaveURL(new RegExp(`/carriers/${SEARCHED_DOT}/overview$`));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const tabs = page.getByRole('navigation', { name: 'Profile sections' }).getByRole('link');
  // the heading can draw before the tab bar: wait for every tab before reading their names
  await expect(tabs).toHaveCount(PROFILE_TABS.length);
  const names = await tabs.allTextContents();
  for (const name of names) {
    const tab = tabs.filter({ hasText: name });
    await tab.click();
    await expect(tab).toHaveAttribute('aria-current', 'page');
    await expect(page.locator('#profile-tab-heading')).toBeVisible();
  }
  // the Network and Raw tabs read the full profile
  await expect(page.locator('[data-full-profile="loaded"]')).toBeAttached();
  await page.waitForLoadState('networkidle');
  expect((await upstreamProfileCalls()) - before).toBe(1);
});

test('a history tab opened directly shows the header and its table from the proxy’s slices', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const paths = recordProfileRequests(page);
  await page.goto(`/carriers/${HEAVY_DOT}/crashes`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('table', { name: /^Crashes: 1,/ })).toBeVisible({
    timeout: 30_000,
  });
  await page.waitForLoadState('networkidle');
  expect(paths).toEqual(['/api/local/profile-summary']);
  await expect(page.locator('[data-full-profile="absent"]')).toBeAttached();
});

test('the summary leaves the long histories out and keeps their counters', async ({ request }) => {
  const [summary, full] = await Promise.all([
    request.get(`/api/local/profile-summary?dot_number=${HEAVY_DOT}`, { headers: API_HEADERS }),
    request.get(`/api/v2/profile?dot_number=${HEAVY_DOT}`, { headers: API_HEADERS }),
  ]);
  expect(summary.ok()).toBe(true);
  expect(summary.headers()['x-profile-summary-omitted']).toContain('inspection_history');
  const item = ((await summary.json()) as { items: Record<string, unknown>[] }).items[0] ?? {};
  const fullItem = ((await full.json()) as { items: Record<string, unknown>[] }).items[0] ?? {};
  expect(item).not.toHaveProperty('inspection_history');
  expect(item.inspections_total).toBe(fullItem.inspections_total);
  expect((fullItem.inspection_history as unknown[]).length).toBeGreaterThan(1000);
  expect((await summary.body()).length).toBeLessThan((await full.body()).length / 50);
});
