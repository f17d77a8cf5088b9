/**
 * Overrides are explicit, re-vet dates are checked, and the re-vet queue shows (issue 29, items 3
 * and 5; docs/vetting.md "Decision records"). On 3187452 (Fail under the default policy): choosing
 * Approved asks in words why, Save is refused without a reason and with a past re-vet date, and
 * records with both; the record shows the override and its reason. Then the Decisions page's
 * "Re-vet due" view and the count beside "Decisions" in the navigation. axe clean. The spec runs
 * on a proxy of its own (fresh data directory), so its decisions stay out of the other specs and
 * theirs out of its counts.
 */
import type { Page } from '@playwright/test';
import { axeViolations, expect, test } from './fixtures.ts';
import { startOwnProxy, type OwnProxy } from './own-proxy.ts';

const PORT = 4462;
const CSRF = { 'x-requested-with': 'carrier-desk' };
const FAILING = '3187452';
const DAY = 86_400_000;
const REASON = 'Out-of-service order lifted on appeal; letter from FMCSA on file.';

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

/** The UTC day `days` from now, as the proxy counts re-vet dates. */
function utcDay(days: number): string {
  return new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
}

async function recordCount(page: Page): Promise<number> {
  const answer = await page.request.get(url('/api/local/decisions'), { headers: CSRF });
  return ((await answer.json()) as { total: number }).total;
}

test.describe.configure({ mode: 'serial' });

test('approving a Fail carrier asks why, refuses without a reason or with a past date, records with them', async ({
  page,
}) => {
  await page.goto(url(`/carriers/${FAILING}/overview`));
  const summary = page.getByRole('region', { name: 'Verdict summary' });
  await expect(summary).toContainText(/Verdict:.*Fail/, { timeout: 20_000 });
  await summary.getByRole('button', { name: 'Record a decision' }).click();
  const form = page.getByRole('form', { name: 'Record a decision' });
  await expect(form).toBeVisible();
  // no approval chosen yet: nothing asked
  await expect(form.getByLabel(/^Override reason/)).toHaveCount(0);
  await form.getByRole('radio', { name: 'Approved', exact: true }).check();
  const reason = form.getByLabel(/^Override reason/);
  await expect(reason).toBeVisible();
  await expect(form).toContainText(
    /This carrier fails policy v1 \(\d+ reasons?\)\. Say why you approve it anyway\./,
  );
  await expect(reason).toHaveAccessibleDescription(/This carrier fails policy v1/);
  expect(await axeViolations(page)).toEqual([]);

  // without a reason: refused, in words, nothing stored
  await form.getByRole('button', { name: 'Save decision' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    'Say why you approve this carrier anyway: an override needs its reason.',
  );
  await expect(reason).toBeFocused();
  expect(await recordCount(page)).toBe(0);

  // a past re-vet date: refused, in words
  await reason.fill(REASON);
  const revet = form.getByLabel(/^Re-vet by/);
  await expect(revet).toHaveAttribute('min', utcDay(0));
  await expect(revet).toHaveAttribute('max', utcDay(365));
  await revet.fill(utcDay(-3));
  await form.getByRole('button', { name: 'Save decision' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    `The re-vet date ${utcDay(-3)} is in the past: choose ${utcDay(0)} or later.`,
  );
  expect(await recordCount(page)).toBe(0);

  // with both: recorded
  await revet.fill(utcDay(5));
  await form.getByRole('button', { name: 'Save decision' }).click();
  const saved = page.getByRole('status').filter({ hasText: 'Decision recorded' });
  await expect(saved).toBeVisible();
  expect(await recordCount(page)).toBe(1);

  // the record shows the override and its reason
  await saved.getByRole('link', { name: 'Print view' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('override', { exact: true })).toBeVisible();
  await expect(page.getByTestId('override-reason')).toHaveText(REASON);
  expect(await axeViolations(page)).toEqual([]);
});

test('the proxy refuses the same without the form: 409 without a reason, 400 for a past date', async ({
  page,
}) => {
  const post = (data: object) =>
    page.request.post(url('/api/local/decisions'), { headers: CSRF, data });
  // held already when the test before ran; fetched (not billed again) when run alone
  const held = await page.request.get(url(`/api/v2/profile?dot_number=${FAILING}`), {
    headers: CSRF,
  });
  expect(held.ok()).toBe(true);
  const before = await recordCount(page);
  const missing = await post({ dot_number: FAILING, decision: 'approved' });
  expect(missing.status()).toBe(409);
  expect(await missing.json()).toMatchObject({ code: 'override_reason_required' });
  const past = await post({
    dot_number: FAILING,
    decision: 'rejected',
    expires_on: '2020-01-01',
  });
  expect(past.status()).toBe(400);
  expect(await past.json()).toMatchObject({
    code: 'invalid_expires_on',
    error: expect.stringContaining('in the past'),
  });
  expect(await recordCount(page)).toBe(before);
});

test('the Re-vet due view lists the decision due in 5 days, and the navigation counts it', async ({
  page,
}) => {
  // a carrier re-vetted in 30 days is not due yet
  const held = await page.request.get(url('/api/v2/profile?dot_number=568253'), {
    headers: CSRF,
  });
  expect(held.ok()).toBe(true);
  const later = await page.request.post(url('/api/local/decisions'), {
    headers: CSRF,
    data: { dot_number: '568253', decision: 'approved', expires_on: utcDay(30) },
  });
  expect(later.status()).toBe(201);

  await page.goto(url('/decisions'));
  await expect(page.getByRole('heading', { level: 1, name: 'Decisions' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  const decisionsLink = nav.getByRole('link', { name: /^Decisions/ });
  await expect(decisionsLink).toHaveAccessibleName(/^Decisions\s*1 decision due for re-vet$/);
  // the current record of the override is marked so in the list
  const row = page.getByRole('row').filter({ hasText: FAILING }).first();
  await expect(row).toContainText('override');
  await expect(row.getByTitle(`Override: ${REASON}`)).toHaveText('override');

  await page
    .getByRole('navigation', { name: 'Decisions view' })
    .getByRole('link', { name: 'Re-vet due (1)' })
    .click();
  await expect(page).toHaveURL(/\/decisions\?revet=due$/);
  const queue = page.getByRole('list', { name: /^Decisions due for re-vet/ });
  await expect(queue.getByRole('listitem')).toHaveCount(1);
  await expect(queue.getByRole('listitem')).toContainText('due in 5 days');
  await expect(queue.getByRole('listitem')).toContainText(`USDOT ${FAILING}`);
  await expect(page.getByRole('link', { name: 'Re-vet due (1)' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  expect(await axeViolations(page)).toEqual([]);

  // straight to the view by its URL, on a phone, dark
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(url('/decisions?revet=due'));
  await expect(queue.getByRole('listitem')).toHaveCount(1);
  expect(await axeViolations(page)).toEqual([]);
});
