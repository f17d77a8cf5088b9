/**
 * A policy change shows its impact before it is saved, and saving flags the decisions it changed
 * (issue 29, item 4; docs/vetting.md "Standing"): 4418207 (Review) and 568253 (Pass) are approved,
 * then on the Policy page shared identifiers are made a Fail. Before "Save" the page says "Saving
 * would change 1 carrier: 1 would fail" and lists SWIFTPATH (linked to its profile) with the
 * reason (a threshold typed digit by digit is asked about once); after the save the Decisions page
 * lists it under "Needs re-vet" at the top, and only it.
 * No service call is billed by the preview. axe clean. On a proxy of its own (fresh data
 * directory), so the decisions and the policy it writes stay out of the other specs.
 */
import { axeViolations, expect, test } from './fixtures.ts';
import { startOwnProxy, type OwnProxy } from './own-proxy.ts';

const PORT = 4516;
const CSRF = { 'x-requested-with': 'carrier-desk' };
const RULE = 'Identifiers shared with a carrier in bad standing';

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

test('the Policy page previews which decisions a change would affect; the save flags them on Decisions', async ({
  page,
}) => {
  const { request } = page;
  // a decision records what was seen: each profile is held once its overview showed the verdict
  for (const [dot, verdict] of [
    ['4418207', 'review'],
    ['568253', 'pass'],
  ] as const) {
    await page.goto(url(`/carriers/${dot}/overview`));
    await expect(page.getByRole('region', { name: 'Verdict summary' })).toHaveAttribute(
      'data-verdict',
      verdict,
      { timeout: 20_000 },
    );
  }
  for (const data of [
    {
      dot_number: '4418207',
      decision: 'approved',
      override_reason: 'New lane partner; references checked.',
    },
    { dot_number: '568253', decision: 'approved' },
  ]) {
    const recorded = await request.post(url('/api/local/decisions'), { headers: CSRF, data });
    expect(recorded.status(), await recorded.text()).toBe(201);
  }
  const previews: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/local/policy/preview')) previews.push(r.method());
  });
  const usage = async () =>
    ((await (await request.get(url('/api/local/usage'))).json()) as { spentUsd: number }).spentUsd;
  const callsBefore = await usage();

  await page.goto(url('/policy'));
  await page.getByLabel(`${RULE}: outcome when it fires`).selectOption('fail');
  const preview = page.getByRole('region', { name: 'Before you save' });
  await expect(preview.getByRole('status')).toHaveText(
    'Saving would change 1 carrier: 1 would fail.',
  );
  const swift = preview.getByRole('link', { name: 'SWIFTPATH EXPRESS LLC' });
  await expect(swift).toHaveAttribute('href', /\/carriers\/4418207/);
  await expect(preview.locator('li[data-dot="4418207"]')).toContainText('Review → Fail');
  await expect(preview.locator('li[data-dot="4418207"]')).toContainText(RULE);
  await expect(preview.locator('li')).toHaveCount(1);
  expect(previews).toContain('POST');
  expect(await axeViolations(page)).toEqual([]);

  // undoing the change hides the preview; changing it again asks again
  await page.getByRole('button', { name: 'Undo changes' }).click();
  await expect(preview).toHaveCount(0);
  // a threshold typed digit by digit is asked about once, when it rests
  const threshold = page.getByLabel(/^New entrant: .*\(days\)$/);
  await threshold.fill('');
  const asked = previews.length;
  await threshold.pressSequentially('180', { delay: 40 });
  await expect(preview.getByRole('status')).toHaveText(
    "Saving would change no carrier's standing (2 current decisions checked).",
  );
  expect(previews.length - asked).toBe(1);
  await page.getByRole('button', { name: 'Undo changes' }).click();
  await page.getByLabel(`${RULE}: outcome when it fires`).selectOption('fail');
  await expect(preview.getByRole('status')).toHaveText(
    'Saving would change 1 carrier: 1 would fail.',
  );
  await page.getByRole('button', { name: 'Save as a new version' }).click();
  await expect(page.getByText('Saved as version 2.')).toBeVisible();
  expect(await usage()).toBe(callsBefore);

  await page.goto(url('/decisions'));
  const flagged = page.getByRole('region', { name: /^Needs re-vet/ });
  await expect(flagged.getByRole('heading')).toHaveText(
    'Needs re-vet: 1 decision a policy change affected',
  );
  await expect(flagged.locator('li')).toHaveCount(1);
  await expect(flagged.locator('li[data-dot="4418207"]')).toContainText('now fails policy v2');
  await expect(flagged.getByRole('link', { name: 'SWIFTPATH EXPRESS LLC' })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});
