/**
 * Freshness follows monitoring (issue 29, item 1; docs/proxy.md "Freshness after a change"): a
 * watched, approved carrier's profile is open, then the sandbox moves six days on (4418207's
 * common authority is revoked). Opening the inbox shows the change; going back to the profile
 * (inside the app, so the browser still holds the old answer) shows the new data and verdict,
 * "updated after a change reported on …" and the decision's "now fails", without anyone pressing
 * Refresh. On a proxy of its own
 * (fresh data directory): the moved clock and the decision stay out of the other specs.
 */
import type { Page } from '@playwright/test';
import { axeViolations, expect, test } from './fixtures.ts';
import { checkLayoutEverywhere } from './layout-check.ts';
import { startOwnProxy, type OwnProxy } from './own-proxy.ts';

const PORT = 4504;
const CSRF = { 'x-requested-with': 'carrier-desk' };
const DOT = '4418207';
const SANDBOX_KEY = 'sk_test_sandbox';

let proxy: OwnProxy | undefined;

// The profile's held-only requests (`only-if-cached`: the inspection slices) may meet the moment the
// proxy replaces the outdated copy and answer 504 `not_cached`, which Chromium logs; the page shows
// nothing wrong (the CI run of 7f0915d logged two). Any other console error still fails the test.
test.use({ expectedConsoleErrors: /status of 504/ });

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

/** The own proxy's embedded sandbox listens on the port after it (e2e/own-proxy.ts). */
async function advanceSandbox(days: number): Promise<void> {
  const sandbox = new URL(url('/'));
  sandbox.port = String(Number(sandbox.port) + 1);
  const answer = await fetch(new URL('/__sandbox/advance', sandbox), {
    method: 'POST',
    headers: { authorization: `Bearer ${SANDBOX_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ days }),
  });
  expect(answer.status, await answer.text()).toBe(200);
}

/** Requests that would bypass the proxy's cache (the Refresh button sends `no-cache`). */
function refreshes(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (/no-cache/.test(request.headers()['cache-control'] ?? '')) seen.push(request.url());
  });
  return seen;
}

test('a change the inbox shows is on the profile without pressing Refresh', async ({ page }) => {
  test.setTimeout(120_000);
  const { request } = page;
  const refreshed = refreshes(page);

  await page.goto(url(`/carriers/${DOT}/overview`));
  const summary = page.getByRole('region', { name: 'Verdict summary' });
  await expect(summary).toHaveAttribute('data-verdict', 'review', { timeout: 20_000 });
  await expect(page.getByTestId('refreshed-after-change')).toHaveCount(0);
  // watched (the seeded watchlist may hold it already: adding it again is free) and approved
  const watched = await request.post(url('/api/v2/monitoring/add'), {
    headers: CSRF,
    data: { profile_ids: [`${DOT}-MC1612093`] },
  });
  expect(watched.ok(), await watched.text()).toBe(true);
  const recorded = await request.post(url('/api/local/decisions'), {
    headers: CSRF,
    data: {
      dot_number: DOT,
      decision: 'approved',
      override_reason: 'Known lane partner; review item checked by phone.',
      note: 'Freshness e2e',
    },
  });
  expect(recorded.status(), await recorded.text()).toBe(201);

  await advanceSandbox(6);

  // the inbox, reached inside the app: the browser keeps what it holds of the profile
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /^Monitoring/ })
    .click();
  const row = page.locator('tbody tr', { has: page.getByRole('link', { name: DOT }) }).first();
  await expect(row).toBeVisible({ timeout: 20_000 });

  // back to the profile through the inbox's link: new data, and why
  await row.getByRole('link', { name: DOT }).click();
  await expect(page).toHaveURL(new RegExp(`/carriers/${DOT}/overview`));
  await expect(summary).toHaveAttribute('data-verdict', 'fail', { timeout: 20_000 });
  const why = page.getByTestId('refreshed-after-change');
  await expect(why).toBeVisible();
  await expect(why).toContainText(/updated after a change reported on \d{1,2} \w{3} \d{4}/);
  // the approval recorded on the Review verdict now stands against a Fail: said beside it
  const standing = summary.locator('[data-standing]').first();
  await expect(standing).toHaveAttribute('data-standing', 'now_fails', { timeout: 20_000 });
  await expect(standing).toContainText(/Approved \d{1,2} \w{3} — now fails policy v1/);
  expect(refreshed).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);

  // the answers the page read say the same
  const verdict = await request.get(url(`/api/local/verdict?dot_number=${DOT}`), {
    headers: CSRF,
  });
  const body = (await verdict.json()) as { verdict: string; refreshed_after_change: string };
  expect(body.verdict).toBe('fail');
  expect(await why.locator('time').getAttribute('datetime')).toBe(body.refreshed_after_change);

  // the longer freshness line keeps the page's layout at every width and theme
  const problems = await checkLayoutEverywhere(page, `/carriers/${DOT}/overview`);
  expect(problems).toEqual([]);
});
