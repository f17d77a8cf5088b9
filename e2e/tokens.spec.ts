/**
 * API tokens end to end (issue 32 item 1): on Settings → API tokens the admin (DASHBOARD_AUTH=none:
 * the local admin) makes a token, copies it from the page, and another system's request — only
 * `Authorization: Bearer`, no cookie, no x-requested-with — reads a verdict with it; the list then
 * shows its last use, the Usage page its spend, the audit log (API and page) its name; revoked,
 * the token gets 401. axe is clean on the page with the token shown and with the list, in both themes.
 */
import { expect, expectAxeCleanInBothThemes, test } from './fixtures.ts';

const DOT = '568253';

test.setTimeout(90_000);

test('an admin makes a token, a system uses it, the page shows its use, revoked it is refused', async ({
  page,
  context,
  playwright,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/search');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'API tokens' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'API tokens' })).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/tokens$/);

  const name = `McLeod TMS ${Date.now()}`;
  await page.getByRole('textbox', { name: /^Name/ }).fill(name);
  await page.getByRole('radio', { name: /^Analyst/ }).check();
  await page.getByRole('button', { name: '30 days' }).click();
  await page.getByRole('button', { name: 'Create token' }).click();

  const secret = page.getByRole('region', { name: `Token made for ${name}` });
  await expect(secret).toContainText('you will not see this token again');
  const field = secret.getByRole('textbox', { name: 'The token' });
  await expect(field).toHaveJSProperty('readOnly', true);
  await secret.getByRole('button', { name: 'Copy token' }).click();
  await expect(secret.getByRole('status')).toHaveText('Copied to the clipboard.');
  const token = await page.evaluate(() => navigator.clipboard.readText());
  expect(token).toMatch(/^cdk_[A-Za-z0-9_-]{43}$/);
  await expect(field).toHaveValue(token);
  await expectAxeCleanInBothThemes(page);
  await page.emulateMedia({ colorScheme: 'light' });

  // another system: its own request context, nothing but the token
  const tms = await playwright.request.newContext({ baseURL: new URL(page.url()).origin });
  try {
    const bearer = { authorization: `Bearer ${token}` };
    const verdict = await tms.get(`/api/local/verdict?dot_number=${DOT}`, { headers: bearer });
    expect(verdict.status()).toBe(200);
    expect(await verdict.json()).toMatchObject({ dot_number: DOT });

    // the list shows its last use (Done hides the token for good)
    await secret.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('textbox', { name: 'The token' })).toHaveCount(0);
    await page.reload();
    const row = page.getByRole('table', { name: 'API tokens' }).getByRole('row', { name });
    await expect(row).toContainText(`${token.slice(0, 12)}…`);
    await expect(row).toContainText('Analyst');
    await expect(row).not.toContainText('Never');
    await expectAxeCleanInBothThemes(page);
    await page.emulateMedia({ colorScheme: 'light' });

    // its spend on the Usage page, and its name as the actor in the audit log
    await page.goto('/usage');
    const spent = page.getByRole('table', { name: 'Spend by API token this month' });
    await expect(spent.getByRole('row', { name })).toBeVisible();
    const audit = await page.request.get('/api/local/audit?pageSize=200', {
      headers: { 'x-requested-with': 'carrier-desk' },
    });
    const rows = ((await audit.json()) as { items: { user: string; searchValue: string }[] }).items;
    expect(rows.some((item) => item.user.endsWith(`:${name}`))).toBe(true);
    expect(rows.some((item) => item.searchValue?.endsWith(`:${name}`))).toBe(true);

    // the audit page: the token's calls under its name, marked as a token (its Calls link)
    await page.goto('/settings/tokens');
    await page.getByRole('link', { name: `Calls of ${name} in the audit log` }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
    const entries = page.getByRole('table', { name: 'Audit log entries' });
    await expect(entries.getByRole('row', { name: /GET profile/ }).first()).toBeVisible();
    await expect(entries.getByRole('rowheader').first()).toHaveText(`${name}iAPI token`);
    await expect(page.getByRole('status').filter({ hasText: /entr(y|ies) by/ })).toContainText(
      `by ${name}`,
    );
    await expectAxeCleanInBothThemes(page);
    await page.emulateMedia({ colorScheme: 'light' });

    // revoke after the confirm: refused at once
    await page.goto('/settings/tokens');
    await page
      .getByRole('table', { name: 'API tokens' })
      .getByRole('row', { name })
      .getByRole('button', { name: `Revoke ${name}` })
      .click();
    await page
      .getByRole('alertdialog', { name: `Revoke ${name}?` })
      .getByRole('button', { name: 'Revoke token' })
      .click();
    await expect(page.getByText(`Revoked ${name}: requests with it are refused`)).toBeVisible();
    await expect(
      page.getByRole('table', { name: 'API tokens' }).getByRole('row', { name }),
    ).toContainText('Revoked');
    const refused = await tms.get(`/api/local/verdict?dot_number=${DOT}`, { headers: bearer });
    expect(refused.status()).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'invalid_token' });
  } finally {
    await tms.dispose();
  }
});
