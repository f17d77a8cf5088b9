/**
 * A decision shows its standing against the verdict now, everywhere it appears (issue 29, item 2;
 * docs/vetting.md "Where the standing shows"): Approved is recorded for 4418207 (Review under the
 * default policy, so with an override reason), then the policy makes shared identifiers a Fail;
 * the profile header, the Decisions list, Compare, the monitoring inbox, search results and bulk
 * results all say "now fails policy vN" (the profile and the inbox also "needs re-vet", the inbox
 * with the carrier first), never a green "Approved" beside "Verdict: Fail". Each screen asks the
 * proxy once for all its carriers. axe clean. The spec runs on a proxy of its own (fresh data
 * directory): the decision and the policy it writes stay out of the other specs.
 */
import type { Page, Request } from '@playwright/test';
import { axeViolations, expect, test } from './fixtures.ts';
import { startOwnProxy, type OwnProxy } from './own-proxy.ts';

const PORT = 4490;
const CSRF = { 'x-requested-with': 'carrier-desk' };
const DOT = '4418207';

// Compare peeks at 568253's held profile, which this proxy does not hold: a 504 "not held"
test.use({ expectedConsoleErrors: /status of 504/ });

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

/** The standing requests a screen sends (the DOTs it shows; not the Decisions page's `?all=1`). */
function standingRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (/\/api\/local\/decisions\/current\?dot_numbers=/.test(request.url())) seen.push(request);
  });
  return seen;
}

async function recordApprovalThenFailIt(page: Page): Promise<number> {
  const { request } = page;
  // a decision records what was seen: the profile is held once its overview showed the verdict
  await page.goto(url(`/carriers/${DOT}/overview`));
  await expect(page.getByRole('region', { name: 'Verdict summary' })).toHaveAttribute(
    'data-verdict',
    'review',
    { timeout: 20_000 },
  );
  // watched (the seeded watchlist may hold it already: adding it again is free)
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
      override_reason: 'Contract pending; the broker of record vouched for the owner.',
      note: 'Standing e2e',
    },
  });
  expect(recorded.status(), await recorded.text()).toBe(201);
  const saved = await request.put(url('/api/local/policy'), {
    headers: CSRF,
    data: {
      rules: { shared_identifiers: { outcome: 'fail' } },
      note: 'Chameleon links are a hard no',
    },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  return ((await saved.json()) as { version: number }).version;
}

test('after a policy change, every screen says the approved carrier now fails it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const version = await recordApprovalThenFailIt(page);
  const nowFails = new RegExp(
    `Approved \\d{1,2} \\w{3}.*now fails policy v${version} \\(\\d+ reasons?\\)`,
  );
  const asked = standingRequests(page);

  // the profile header: the verdict Fail, the decision beside it says so in the fail colour
  await page.goto(url(`/carriers/${DOT}/overview`));
  const summary = page.getByRole('region', { name: 'Verdict summary' });
  await expect(summary).toHaveAttribute('data-verdict', 'fail', { timeout: 20_000 });
  const standing = summary.locator('[data-standing]');
  await expect(standing).toHaveAttribute('data-standing', 'now_fails');
  await expect(standing).toContainText(nowFails);
  await expect(standing).toContainText('override');
  // the saved policy changed its standing: flagged until a newer decision is recorded
  await expect(standing.locator('[data-mark="needs_revet"]')).toHaveText(/needs re-vet/);
  await expect(standing).not.toContainText('✓');
  // the reasons are at hand: the words carry them as a title
  await expect(standing.locator('[title]').first()).toHaveAttribute(
    'title',
    /Identifiers shared with a carrier in bad standing/,
  );
  expect(await axeViolations(page)).toEqual([]);
  expect(asked).toHaveLength(1);

  // the Decisions list: the carrier's current record with its standing, linked to the verdict
  asked.length = 0;
  await page.goto(url('/decisions'));
  const table = page.getByRole('table', { name: 'Decision records, newest first' });
  await expect(table).toBeVisible({ timeout: 15_000 });
  const listed = table.getByRole('link', { name: nowFails });
  await expect(listed).toBeVisible();
  await expect(listed).toHaveAttribute('href', `/carriers/${DOT}/overview#verdict`);
  expect(await axeViolations(page)).toEqual([]);
  expect(asked).toHaveLength(1);

  // Compare: the carrier's column head
  asked.length = 0;
  await page.goto(url(`/compare?dot=${DOT},568253`));
  const column = page.locator(`th[data-carrier="${DOT}"]`);
  await expect(column.locator('[data-standing]')).toContainText(nowFails, { timeout: 20_000 });
  await expect(page.locator('th[data-carrier="568253"] [data-standing]')).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
  expect(asked).toHaveLength(1);
  expect(asked[0]?.url()).toContain('dot_numbers=4418207%2C568253');

  // the monitoring inbox: the carrier's row, first, says the same
  asked.length = 0;
  await page.goto(url('/monitoring?triage=all'));
  const inbox = page.getByRole('table', { name: 'Watched carriers and their changes' });
  await expect(inbox).toBeVisible({ timeout: 20_000 });
  const row = inbox.locator('tbody tr').filter({ has: page.locator('[data-standing]') });
  await expect(row).toHaveCount(1);
  await expect(row.locator('[data-standing]')).toContainText(nowFails);
  await expect(row.locator('[data-mark="needs_revet"]')).toBeVisible();
  await expect(inbox.locator('tbody th[scope="row"]').first()).toContainText(DOT);
  expect(await axeViolations(page)).toEqual([]);
  expect(asked).toHaveLength(1);

  // search results: under the name of a carrier the team decided on
  asked.length = 0;
  await page.goto(url('/search?company=swiftpath'));
  const results = page.getByRole('table', { name: /Carriers matching/ });
  await expect(results.getByRole('link', { name: nowFails })).toBeVisible({ timeout: 20_000 });
  expect(await axeViolations(page)).toEqual([]);
  expect(asked).toHaveLength(1);

  // bulk results: the Decision column, one request for the whole job
  const created = await page.request.post(url('/api/local/bulk-jobs'), {
    headers: CSRF,
    data: { identifiers: [DOT, '568253', '2214589'] },
  });
  expect(created.status(), await created.text()).toBe(202);
  const { id } = (await created.json()) as { id: string };
  asked.length = 0;
  await page.goto(url(`/bulk/${id}`));
  await expect(page.getByTestId('job-status')).toHaveText('Done', { timeout: 20_000 });
  const job = page.getByRole('table', { name: 'Results of the job' });
  await expect(job.getByRole('link', { name: nowFails })).toBeVisible();
  await expect(job.locator('[data-standing]')).toHaveCount(1);
  expect(await axeViolations(page)).toEqual([]);
  expect(asked.length).toBeGreaterThanOrEqual(1);
  for (const request of asked)
    expect(request.url()).toContain('dot_numbers=2214589%2C4418207%2C568253');
});
