import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { parseMonitoringList } from '../src/lib/service/index.ts';
import { triageIdsOfRecord } from '../src/lib/service/triage-id.ts';
import { axeViolations, expect, test } from './fixtures.ts';
import { BASE_PORT, SERVER_DIR, STATIC_DIR } from './slots.ts';
import { sandbox } from './sandbox.ts';

const IRONCLAD = '2214589';
const IRONCLAD_ID = '2214589-MC745120';
const HEAVY = '3999999';
const CSRF = { 'x-requested-with': 'carrier-desk' };

test.beforeAll(async () => {
  await sandbox.clearFaults();
  await sandbox.reset();
});

test.afterEach(async () => {
  await sandbox.clearFaults();
});

/** Every profile id on the watchlist, paged through the proxy (free). */
async function watchedIds(request: APIRequestContext): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let page = 1; ; page += 1) {
    const response = await request.get(`/api/v2/monitoring/list?pageSize=500&page=${page}`, {
      headers: CSRF,
    });
    expect(response.ok()).toBe(true);
    const { profiles } = parseMonitoringList(await response.json()).value;
    for (const profile of profiles) ids.add(profile.profileId);
    if (profiles.length < 500) return ids;
  }
}

async function setWatched(request: APIRequestContext, profileId: string, watched: boolean) {
  const path = watched ? '/api/v2/monitoring/add' : '/api/v2/monitoring/remove';
  const response = await request.post(path, { data: { profile_ids: [profileId] }, headers: CSRF });
  expect(response.ok()).toBe(true);
}

async function expectAxeClean(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

function watchGroup(page: Page) {
  return page.getByRole('group', { name: 'Watchlist' });
}

test('unwatch from a profile asks first and says removal refunds nothing', async ({
  page,
  request,
}) => {
  await setWatched(request, IRONCLAD_ID, true);
  await page.goto(`/carriers/${IRONCLAD}`);
  const group = watchGroup(page);
  await expect(group.getByText(/^Watching/)).toBeVisible();
  await group.getByRole('button', { name: 'Unwatch' }).click();
  const dialog = page.getByRole('alertdialog', { name: `Stop watching ${IRONCLAD_ID}?` });
  await expect(dialog).toContainText('Removal refunds nothing this month');
  await expectAxeClean(page);
  await dialog.getByRole('button', { name: 'Stop watching' }).click();
  await expect(dialog).toBeHidden();
  await expect(group.getByText('Not watched')).toBeVisible();
  expect((await watchedIds(request)).has(IRONCLAD_ID)).toBe(false);
});

test('watch from a profile, cost first, then find it in the inbox and in search', async ({
  page,
  request,
}) => {
  await setWatched(request, IRONCLAD_ID, false);
  await page.goto(`/carriers/${IRONCLAD}`);
  const group = watchGroup(page);
  await expect(group.getByText('Not watched')).toBeVisible();
  await group.getByRole('button', { name: 'Watch' }).click();
  const dialog = page.getByRole('alertdialog', { name: `Watch ${IRONCLAD_ID}?` });
  // re-adding within the month is free: this DOT was billed in the previous test's setup
  await expect(dialog.getByText(/Watching costs \$/)).toBeVisible();
  await expect(dialog).toContainText('Nothing is billed in sandbox/test');
  await expectAxeClean(page);
  await page.screenshot({ path: test.info().outputPath('watch-dialog.png') });
  await dialog.getByRole('button', { name: 'Confirm watch' }).click();
  await expect(dialog).toBeHidden();
  await expect(group.getByText(/^Watching since /)).toBeVisible();
  await expect(group.getByRole('button', { name: 'Unwatch' })).toBeVisible();

  await page.goto(`/monitoring?view_changes=false&profile_id=${IRONCLAD_ID}`);
  const inbox = page.getByRole('table', { name: 'Watched carriers and their changes' });
  await expect(inbox.getByRole('rowheader').filter({ hasText: IRONCLAD })).toBeVisible();

  await page.goto('/search?company=ironclad');
  const results = page.getByRole('table', { name: /Carriers matching/ });
  const row = results.getByRole('row').filter({ hasText: 'IRONCLAD FREIGHT' });
  await expect(row.getByText('Watched', { exact: true })).toBeVisible();
});

test('watch the whole network of 520 carriers through 207s: all committed, billed once', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await page.goto(`/carriers/${HEAVY}/network`);
  await page.getByRole('button', { name: /^Watch the whole network \(520 carriers\)$/ }).click();
  await page.getByRole('button', { name: 'Check 520 network carriers' }).click();
  await expect(page.getByText(/Looking up the DOTs and dockets costs at most \$/)).toBeVisible();

  const resolved = page.waitForResponse(
    (r) =>
      r.url().endsWith('/api/local/watchlist/resolve') &&
      !(r.request().postData() ?? '').includes('dryRun'),
    { timeout: 120_000 },
  );
  await page.getByRole('button', { name: /^Resolve \(at most / }).click();
  const { profile_ids: ids } = (await (await resolved).json()) as { profile_ids: string[] };
  expect(ids.length).toBeGreaterThanOrEqual(200);
  const confirm = page.getByRole('region', { name: 'Confirm watching' });
  await expect(confirm.getByText(/Watching costs \$/)).toBeVisible({ timeout: 60_000 });
  await expectAxeClean(page);

  await sandbox.faults([{ path: '/v2/monitoring/add', method: 'POST', status: 207, count: 3 }]);
  await confirm.getByRole('button', { name: `Confirm and watch ${ids.length} carriers` }).click();
  const report = page.getByRole('region', { name: 'Watch result' });
  await expect(report).toBeVisible({ timeout: 120_000 });
  await expect(report).toContainText(`Added ${ids.length} carriers; already watched 0; failed 0.`);
  await expectAxeClean(page);
  await page.screenshot({ path: test.info().outputPath('network-report.png') });

  // every id committed, verified through the list
  const watched = await watchedIds(request);
  expect(ids.filter((id) => !watched.has(id))).toEqual([]);
  // the 207s were all consumed, and no DOT was billed twice this month
  const monitoring = (await sandbox.ledger()).keys
    .flatMap((key) => key.months)
    .flatMap((month) => month.lines)
    .filter((line) => line.kind === 'monitoring');
  expect(monitoring.length).toBeGreaterThan(0);
  for (const line of monitoring) {
    expect(line.billed_calls).toBe(line.unique_dots);
    expect(line.unique_dots).toBeGreaterThanOrEqual(ids.length);
    expect(line.amount_usd).toBeCloseTo(line.billed_calls * 0.5, 6);
  }
});

// ------------------------------------------------------------------------------------------------
// triage across a restart of a proxy of our own

// not 4190: it is on the Fetch standard's list of blocked ports (ManageSieve), in Node and Chromium
const OWN_PORT = 4290 + BASE_PORT - 4179;
const OWN_URL = `http://127.0.0.1:${OWN_PORT}`;

/** The test runner's environment without its Node options (its loader must not reach the proxy). */
function plainEnv(): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _options, ...env } = process.env;
  return env;
}

function startOwnProxy(dataDir: string): ChildProcess {
  const child = spawn('node', [`${SERVER_DIR}/server.mjs`], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...plainEnv(),
      HOST: '127.0.0.1',
      PORT: String(OWN_PORT),
      DATA_DIR: dataDir,
      STATIC_DIR,
      LOG_LEVEL: 'warn',
      EMBEDDED_SANDBOX_PORT: String(OWN_PORT + 1),
      CARRIER_API_BASE_URL: '',
      CARRIER_API_KEY: '',
      CARRIER_API_KEY_FILE: '',
      CARRIER_API_LEGACY: '',
      DASHBOARD_AUTH: '',
      MONTHLY_BUDGET_USD: '',
    },
  });
  const errors: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  startErrors.set(child, errors);
  return child;
}

/** What each own proxy wrote to stderr, for the error when it does not start. */
const startErrors = new WeakMap<ChildProcess, string[]>();

async function waitReady(child: ChildProcess) {
  let last = '';
  for (let i = 0; i < 120; i += 1) {
    if (child.exitCode !== null) {
      throw new Error(`own proxy exited: ${startErrors.get(child)?.join('') ?? child.exitCode}`);
    }
    try {
      const response = await fetch(`${OWN_URL}/readyz`);
      if (response.ok) return;
      last = `readyz ${response.status}`;
    } catch (error) {
      last = String((error as { cause?: unknown }).cause ?? error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`own proxy not ready after 30 s (${last}): ${startErrors.get(child)?.join('')}`);
}

async function stopOwnProxy(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The first changed field of the first profile with changes on a proxy's inbox. */
async function firstChange(request: APIRequestContext) {
  const response = await request.get(`${OWN_URL}/api/v2/monitoring/list?view_changes=true`, {
    headers: CSRF,
  });
  expect(response.ok()).toBe(true);
  const { profiles } = parseMonitoringList(await response.json()).value;
  for (const profile of profiles) {
    for (const record of profile.records) {
      const first = triageIdsOfRecord(profile.profileId, record)[0];
      if (first) return { profileId: profile.profileId, ...first };
    }
  }
  throw new Error('no change on the seeded watchlist');
}

test('a triaged change is still Reviewed after the proxy restarts', async ({ page, request }) => {
  test.setTimeout(120_000);
  const dataDir = await mkdtemp(join(tmpdir(), 'carrier-desk-watching-'));
  let child = startOwnProxy(dataDir);
  try {
    await waitReady(child);
    const change = await firstChange(request);
    const put = await request.put(`${OWN_URL}/api/local/triage`, {
      headers: CSRF,
      data: {
        items: [
          {
            id: change.id,
            profile_id: change.profileId,
            field: change.change.field,
            state: 'reviewed',
          },
        ],
      },
    });
    expect(put.ok()).toBe(true);

    await stopOwnProxy(child);
    child = startOwnProxy(dataDir);
    await waitReady(child);

    await page.goto(`${OWN_URL}/monitoring?view_changes=false&profile_id=${change.profileId}`);
    await page.getByRole('button', { name: 'Expand all' }).click();
    const states = page.getByRole('combobox', { name: /^Triage state of / });
    await expect(states.first()).toBeVisible();
    await expect
      .poll(() => states.evaluateAll((els) => els.map((el) => (el as HTMLSelectElement).value)))
      .toContain('reviewed');
    const values = await states.evaluateAll((els) =>
      els.map((el) => (el as HTMLSelectElement).value),
    );
    expect(values.filter((value) => value === 'reviewed')).toHaveLength(1);
  } finally {
    // leave the page first: its idle-time requests (the navigation's counts) must not meet a
    // stopped proxy (the CI run of 2126587 logged one refused connection here)
    await page.goto('about:blank');
    await stopOwnProxy(child);
    await rm(dataDir, { recursive: true, force: true });
  }
});
