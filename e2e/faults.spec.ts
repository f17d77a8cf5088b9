/**
 * Upstream faults injected through the embedded sandbox's fault rules reach the profile page as
 * readable states, and the page recovers: a 429 counts down from Retry-After and retries by itself;
 * a 503 that outlasts every retry offers "Try again".
 */
import { expect, test } from './fixtures.ts';
import { sandbox } from './sandbox.ts';

/** Chromium reports every failed fetch on the console; these injected ones are expected. */
const INJECTED_FAILURE = /Failed to load resource: the server responded with a status of (429|503)/;

test.use({ expectedConsoleErrors: INJECTED_FAILURE });

// Population carriers no other spec opens, so the proxy has no cached copy and must call upstream.
const RATE_LIMITED_DOT = '5000421';
const UNAVAILABLE_DOT = '5000422';

test.afterEach(async () => {
  await sandbox.clearFaults();
});

test('a 429 shows a countdown, then retries by itself and shows the carrier', async ({ page }) => {
  test.setTimeout(60_000);
  // Longer than the proxy is willing to wait, so the 429 reaches the browser with Retry-After.
  await sandbox.faults([{ path: '/v2/profile', status: 429, retry_after: 12, count: 1 }]);
  await page.goto(`/carriers/${RATE_LIMITED_DOT}/overview`);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Rate limited');
  await expect(alert).toContainText(/Trying again automatically in \d+ s\./);
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(/^USDOT/, {
    timeout: 25_000,
  });
  await expect(page.getByTestId('fetched-at')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a 503 that outlasts the retries shows its state and recovers on "Try again"', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // retry_after 0: the proxy (2 retries) and the SPA (2 retries) retry at once. The page asks for
  // the profile summary and the full profile side by side, each with its own retries, so the fault
  // lasts until it is cleared (well beyond 2 × 9 answers).
  await sandbox.faults([{ path: '/v2/profile', status: 503, retry_after: 0, count: 100 }]);
  await page.goto(`/carriers/${UNAVAILABLE_DOT}/overview`);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('The data service is unavailable', { timeout: 20_000 });
  await sandbox.clearFaults();
  // By now the proxy's circuit breaker may be open (5 failed attempts in a row): it answers 503
  // upstream_unavailable with Retry-After (at most 30 s) and the page counts down, then asks again
  // by itself. A click either succeeds at once or starts that countdown; either way the page
  // recovers without another click.
  await alert.getByRole('button', { name: /^Try (again|now)$/ }).click();
  await expect(page.getByTestId('fetched-at')).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole('alert')).toHaveCount(0);
});
