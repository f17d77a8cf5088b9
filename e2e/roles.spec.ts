/**
 * Roles in the browser (issue 31): a proxy of its own in password mode with a users file of three
 * roles (ann:…:admin, al without a role = analyst, vic:…:viewer), each signed in through the real
 * sign-in form. A viewer sees Record a decision, Watch and Save disabled with the reason beside
 * them; an analyst may record and watch but not save the policy; the proxy refuses what the page
 * does not offer (403 forbidden_role). axe is clean on each screen in both themes.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { hashPassword } from '../server-proxy/src/governance/passwords.ts';
import { expect, expectAxeCleanInBothThemes, test } from './fixtures.ts';
import { startOwnProxy, type OwnProxy } from './own-proxy.ts';

/** This spec's own proxy (and its sandbox on the next port); no other spec uses them. */
const ROLES_PORT = 4336;
const PASSWORD = 'a long enough test password';
const DOT = '2214589';
const CSRF = { 'x-requested-with': 'carrier-desk' };

let proxy: OwnProxy | undefined;
let usersDir: string | undefined;

test.describe.configure({ mode: 'serial' });
// a profile and the Policy page, each checked by axe in two themes, on a shared two-core machine
test.setTimeout(150_000);

test.beforeAll(async () => {
  usersDir = await mkdtemp(join(tmpdir(), 'carrier-desk-roles-'));
  const hash = await hashPassword(PASSWORD);
  const file = join(usersDir, 'users');
  await writeFile(file, `# the team\nann:${hash}:admin\nal:${hash}\nvic:${hash}:viewer\n`);
  proxy = await startOwnProxy(ROLES_PORT, {
    DASHBOARD_AUTH: 'password',
    DASHBOARD_USERS_FILE: file,
  });
});

test.afterAll(async () => {
  await proxy?.stop();
  if (usersDir) await rm(usersDir, { recursive: true, force: true });
});

function url(path: string): string {
  return `${proxy?.url ?? ''}${path}`;
}

async function signIn(page: Page, name: string): Promise<void> {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(url('/login?next=%2Fsearch'));
  await page.getByLabel('User name').fill(name);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/search$/);
}

async function openProfile(page: Page) {
  await page.goto(url(`/carriers/${DOT}/overview`));
  const summary = page.getByRole('region', { name: 'Verdict summary' });
  await expect(summary).toContainText(/Verdict:/, { timeout: 20_000 });
  return summary;
}

test('a viewer reads, and sees every write disabled with the reason', async ({ page }) => {
  await signIn(page, 'vic');
  const session = await page.request.get(url('/api/local/session'), { headers: CSRF });
  expect(await session.json()).toMatchObject({ user: { id: 'vic', role: 'viewer' } });

  const summary = await openProfile(page);
  const record = summary.getByRole('button', { name: 'Record a decision' });
  await expect(record).toBeDisabled();
  await expect(record).toHaveAccessibleDescription(
    'Viewers cannot record decisions — ask an admin.',
  );
  const watch = page.getByRole('group', { name: 'Watchlist' }).getByRole('button', {
    name: 'Watch',
  });
  await expect(watch).toBeDisabled();
  await expect(watch).toHaveAccessibleDescription('Viewers cannot watch carriers — ask an admin.');
  await expectAxeCleanInBothThemes(page);

  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(url('/policy'));
  const save = page.getByRole('button', { name: 'Save as a new version' });
  await expect(save).toBeDisabled();
  await expect(save).toHaveAccessibleDescription('Viewers cannot save the policy — ask an admin.');
  await expectAxeCleanInBothThemes(page);

  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(url('/monitoring'));
  const markAll = page.getByRole('button', { name: 'Mark all on this page reviewed' });
  await expect(markAll).toBeDisabled();
  await expect(markAll).toHaveAccessibleDescription(
    'Viewers cannot triage changes — ask an admin.',
  );

  // a viewer reads tender checks but may not run one (it may bill)
  await page.goto(url('/tender-check?dot_number=568253'));
  const check = page.getByRole('button', { name: 'Check this offer' });
  await expect(check).toBeDisabled();
  await expect(check).toHaveAccessibleDescription(
    'Viewers cannot run tender checks — ask an admin.',
  );
  const tender = await page.request.post(url('/api/local/tender-checks'), {
    headers: CSRF,
    data: { dot_number: '568253' },
  });
  expect(tender.status()).toBe(403);

  // what the page does not offer, the proxy refuses
  const posted = await page.request.post(url('/api/local/decisions'), {
    headers: CSRF,
    data: { dot_number: DOT, decision: 'approved' },
  });
  expect(posted.status()).toBe(403);
  expect(await posted.json()).toMatchObject({ code: 'forbidden_role' });
});

test('an analyst records decisions and watches, but cannot save the policy', async ({ page }) => {
  await signIn(page, 'al');
  const summary = await openProfile(page);
  const record = summary.getByRole('button', { name: 'Record a decision' });
  await expect(record).toBeEnabled();
  await record.click();
  await expect(page.getByRole('form', { name: 'Record a decision' })).toBeVisible();
  await expect(
    page.getByRole('group', { name: 'Watchlist' }).getByRole('button', { name: 'Watch' }),
  ).toBeEnabled();
  await expect(page.getByText(/cannot .* — ask an admin\./)).toHaveCount(0);

  await page.goto(url('/policy'));
  const save = page.getByRole('button', { name: 'Save as a new version' });
  await expect(save).toBeDisabled();
  await expect(save).toHaveAccessibleDescription('Analysts cannot save the policy — ask an admin.');
  // a change made on the page still cannot be saved (the preview, an analyst's, is shown)
  await page.getByRole('spinbutton', { name: /Longest re-vet period/ }).fill('200');
  await expect(page.getByText('Unsaved changes.')).toBeVisible();
  await expect(save).toBeDisabled();
  await expectAxeCleanInBothThemes(page);
  const put = await page.request.put(url('/api/local/policy'), {
    headers: CSRF,
    data: { options: { max_revet_days: 200 } },
  });
  expect(put.status()).toBe(403);
  expect(await put.json()).toMatchObject({
    code: 'forbidden_role',
    error: 'This needs the admin role (you are an analyst)',
  });
});

test('an admin saves the policy', async ({ page }) => {
  await signIn(page, 'ann');
  await page.goto(url('/policy'));
  const save = page.getByRole('button', { name: 'Save as a new version' });
  await page.getByRole('spinbutton', { name: /Longest re-vet period/ }).fill('200');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText(/^Saved as version \d+\.$/)).toBeVisible();
  await expect(page.getByText(/cannot .* — ask an admin\./)).toHaveCount(0);
});
