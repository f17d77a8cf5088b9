/**
 * Names of watched carriers: the inbox names a carrier the proxy saw in any answer (here a search
 * by company name, which no cache entry by DOT holds), and the CSV export carries it; a carrier no
 * answer has named is looked up only after its cost is shown and confirmed.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import Papa from 'papaparse';
import { API_HEADERS, expect, expectAxeCleanInBothThemes, test } from './fixtures.ts';
import { sandbox } from './sandbox.ts';
import { SANDBOX_URL } from './slots.ts';

test.beforeAll(async () => {
  await sandbox.clearFaults();
  await sandbox.reset();
});

test.afterAll(async () => {
  await sandbox.reset();
});

/** A lite profile straight from the sandbox (the proxy never sees this answer). */
async function fromSandbox(
  dot: string,
): Promise<{ doc_id: string; legal_name: string; dba_name?: string | null }> {
  const response = await fetch(`${SANDBOX_URL}/v2/profile-lite?dot_number=${dot}`, {
    headers: { authorization: 'Bearer sk_test_sandbox' },
  });
  expect(response.ok).toBe(true);
  const body = (await response.json()) as {
    items: { doc_id: string; legal_name: string; dba_name?: string | null }[];
  };
  const item = body.items[0];
  if (!item) throw new Error(`the sandbox has no carrier ${dot}`);
  return item;
}

function carrierRow(page: Page, dot: string) {
  return page
    .getByRole('table', { name: 'Watched carriers and their changes' })
    .locator('tbody tr')
    .filter({ has: page.locator('th[scope="row"]', { hasText: dot }) });
}

test('the inbox and its CSV name a watched carrier the proxy saw in a search result', async ({
  page,
  request,
}) => {
  const list = await request.get('/api/v2/monitoring/list?pageSize=500', { headers: API_HEADERS });
  const items = ((await list.json()) as { items: Record<string, unknown> }).items;
  const profileId = Object.keys(items).find((id) => !id.startsWith('568253-'));
  if (!profileId) throw new Error('the seeded watchlist is empty');
  const dot = profileId.split('-')[0] ?? '';
  const { legal_name: legalName, dba_name: dba } = await fromSandbox(dot);
  // the legal name, with the trade name when the carrier has another
  const shown = dba && dba !== legalName ? `${legalName} (DBA ${dba})` : legalName;

  // a search by company name: the results page names the carrier, no lookup by DOT is cached
  const search = await request.get(`/api/v2/profile?company=${encodeURIComponent(legalName)}`, {
    headers: API_HEADERS,
  });
  expect(search.ok()).toBe(true);

  await page.goto(`/monitoring?profile_id=${profileId}`);
  const row = carrierRow(page, dot);
  await expect(row).toContainText(shown);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = await readFile((await (await download).path()) ?? '', 'utf8');
  const rows = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data;
  expect(rows.length).toBeGreaterThan(0);
  for (const csvRow of rows) expect(csvRow.name).toBe(shown);
});

test('"Look up 1 name" shows the cost first, bills nothing until confirmed, then names the carrier', async ({
  page,
  request,
}) => {
  // a carrier of the generated population, watched by its profile id: no answer has named it
  const dot = '5000123';
  const { doc_id: profileId, legal_name: legalName } = await fromSandbox(dot);
  const added = await request.post('/api/v2/monitoring/add', {
    headers: API_HEADERS,
    data: { profile_ids: [profileId] },
  });
  expect(added.ok()).toBe(true);
  const fmcsaCalls = async () =>
    (await sandbox.ledger()).keys
      .flatMap((key) => key.months.flatMap((month) => month.lines))
      .filter((line) => line.kind === 'profile_fmcsa')
      .reduce((sum, line) => sum + line.calls, 0);
  const before = await fmcsaCalls();

  // every watched carrier, not only those that changed (this one has no change yet)
  await page.goto(`/monitoring?view_changes=false&profile_id=${profileId}`);
  await expect(page.getByText('1 carrier on this page has no known name.')).toBeVisible();
  await page.getByRole('button', { name: 'Look up 1 name' }).click();
  await expect(page.getByText(/Looking up 1 name costs \$0\.10/)).toBeVisible();
  expect(await fmcsaCalls()).toBe(before);
  await expectAxeCleanInBothThemes(page);

  await page.getByRole('button', { name: 'Look up for $0.10' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Named 1 carrier.' })).toBeVisible();
  await expect(carrierRow(page, dot)).toContainText(legalName);
  expect(await fmcsaCalls()).toBe(before + 1);
});
