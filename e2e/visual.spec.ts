/**
 * Visual regression: the screens a person judges the product by, at 1440 and 390 px, light and
 * dark, compared with baselines in `e2e/visual.spec.ts-snapshots/` (docs/frontend.md, "Visual
 * baselines", says how to update them and what is masked).
 *
 * The pictures must not change with the day the suite runs: the spec runs against a proxy of its
 * own whose whole process (proxy and embedded sandbox, so seeded changes, snapshot dates, months on
 * the Usage page) lives at a fixed instant through libfaketime (Debian's `faketime`, installed by
 * .ci/run), and the browser's `Date` is pinned to the same day. What still depends on how long the
 * run takes is masked (a fetch's age) or shown as a fixed text (`data-visual="dynamic"`: a job's
 * rate, a record's hash).
 */
import { existsSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { PROFILE_TABS } from '../src/features/profile/components/tabs/types.ts';
import { API_HEADERS, expect, test } from './fixtures.ts';
import { startOwnProxy, type OwnProxy } from './own-proxy.ts';

/** Ports of this spec's own proxy (and its sandbox): no other spec uses them. */
const PORT = 4430;
/** The instant the proxy process starts at (it runs on from there). */
const EPOCH = '2026-11-20 15:00:00';
/** The browser's fixed clock: an hour after the proxy's start, the same day. */
const BROWSER_NOW = new Date('2026-11-20T16:00:00Z');
const FAKETIME_LIB = [
  process.env.FAKETIME_LIB,
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
].find((path): path is string => Boolean(path) && existsSync(path ?? ''));

const WIDTHS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const THEMES = ['light', 'dark'] as const;

/** HANSEN: every tab has content. */
const HANSEN = '568253';

let proxy: OwnProxy | undefined;
let bulkJobId = '';

test.beforeAll(async () => {
  if (!FAKETIME_LIB) {
    throw new Error(
      'visual tests need libfaketime (Debian package "faketime"; .ci/run installs it) so that ' +
        'screens do not change with the date; or set FAKETIME_LIB to its path',
    );
  }
  proxy = await startOwnProxy(PORT, {
    LD_PRELOAD: FAKETIME_LIB,
    FAKETIME: `@${EPOCH}`,
    // timers and the event loop keep the real monotonic clock
    DONT_FAKE_MONOTONIC: '1',
    TZ: 'UTC',
  });
  // What the screens show held, fetched once in a fixed order (names in the inbox, Compare, the
  // network come from held answers), and one decision: the printed record, #1.
  for (const dot of [HANSEN, '2214589', '4418207', '3187452', '265752']) {
    const held = await fetch(own(`/api/v2/profile?dot_number=${dot}`), { headers: API_HEADERS });
    expect(held.ok, `profile ${dot}`).toBe(true);
  }
  const decided = await fetch(own('/api/local/decisions'), {
    method: 'POST',
    headers: { ...API_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({
      dot_number: '4418207',
      decision: 'approved',
      note: 'Visual baseline: reviewed by phone.',
      // 4418207 fails the policy: an approval says why (issue 29)
      override_reason: 'Shared identifiers explained by the owner; documents on file.',
    }),
  });
  expect(decided.status).toBe(201);
  expect(((await decided.json()) as { id: number }).id).toBe(1);
  // the bulk job, run now so that it starts in the same minute as everything else
  const created = await fetch(own('/api/local/bulk-jobs'), {
    method: 'POST',
    headers: { ...API_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ identifiers: [HANSEN, '2214589', '4418207'] }),
  });
  expect(created.status).toBe(202);
  bulkJobId = ((await created.json()) as { id: string }).id;
  // finished before any picture: its calls must not land in the middle of Usage's counts
  await expect
    .poll(
      async () => {
        const job = await fetch(own(`/api/local/bulk-jobs/${bulkJobId}`), { headers: API_HEADERS });
        return ((await job.json()) as { status?: string }).status;
      },
      { timeout: 30_000 },
    )
    .toBe('done');
});

test.afterAll(async () => {
  await proxy?.stop();
});

function own(path: string): string {
  if (!proxy) throw new Error('own proxy not started');
  return `${proxy.url}${path}`;
}

/** What varies with the run's length, masked in every picture. */
function dynamicParts(page: Page): Locator[] {
  return [page.getByTestId('fetched-at')];
}

interface Screen {
  name: string;
  open: (page: Page) => Promise<void>;
  /** whole page (default) or the first screen only (for pages thousands of pixels tall) */
  fullPage?: boolean;
  /** print media (the printed decision record) */
  print?: boolean;
}

async function h1(page: Page, name?: string | RegExp): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

async function profile(page: Page, dot: string, tab: string, label: string): Promise<void> {
  await page.goto(own(`/carriers/${dot}/${tab}`));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const tabs = page.getByRole('navigation', { name: 'Profile sections' });
  await expect(tabs.getByRole('link', { name: label, exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0, {
    timeout: 20_000,
  });
  await page.waitForLoadState('networkidle');
}

const SCREENS: Screen[] = [
  {
    // first: what it counts is then what the set-up above fetched, whatever the later screens do
    name: 'usage',
    open: async (page) => {
      await page.goto(own('/usage'));
      await h1(page, 'Usage');
      await expect(page.getByRole('table', { name: 'Spend by endpoint this month' })).toBeVisible();
    },
  },
  {
    name: 'search',
    open: async (page) => {
      await page.goto(own('/search?company=hansen'));
      await expect(page.getByRole('table', { name: /Carriers matching/ })).toBeVisible();
    },
  },
  ...PROFILE_TABS.map((tab): Screen => ({
    name: `profile-${HANSEN}-${tab.id}`,
    fullPage: !tab.full,
    open: (page) => profile(page, HANSEN, tab.id, tab.label),
  })),
  {
    name: 'profile-2214589-overview',
    open: (page) => profile(page, '2214589', 'overview', 'Overview'),
  },
  {
    name: 'profile-265752-overview',
    open: (page) => profile(page, '265752', 'overview', 'Overview'),
  },
  {
    name: 'network-4418207',
    open: (page) => profile(page, '4418207', 'network', 'Network'),
  },
  {
    name: 'inbox',
    open: async (page) => {
      await page.goto(own('/monitoring'));
      await h1(page, 'Monitoring');
      await expect(page.getByRole('button', { name: 'Expand all' })).toBeVisible();
      await page.waitForLoadState('networkidle');
    },
  },
  {
    name: 'decisions',
    open: async (page) => {
      await page.goto(own('/decisions'));
      await h1(page, 'Decisions');
      await expect(page.getByRole('status').filter({ hasText: /Chain/ })).toBeVisible();
    },
  },
  {
    name: 'decision-record-print',
    print: true,
    open: async (page) => {
      // the record of the decision made before all
      await page.goto(own('/decisions/1'));
      await h1(page, /^Decision #1 · /);
      await page.waitForLoadState('networkidle');
    },
  },
  {
    name: 'bulk-job',
    open: async (page) => {
      await page.goto(own(`/bulk/${bulkJobId}`));
      await expect(page.getByTestId('job-status')).toHaveText('Done', { timeout: 30_000 });
      await expect(page.getByRole('table', { name: 'Results of the job' })).toBeVisible();
    },
  },
  {
    name: 'compare',
    open: async (page) => {
      await page.goto(own(`/compare?dot=${HANSEN},2214589,4418207`));
      await h1(page, 'Compare');
      await expect(page.locator('tr[data-row="verdict"] td').last()).toHaveText(/\w/);
      await page.waitForLoadState('networkidle');
    },
  },
  {
    name: 'policy',
    open: async (page) => {
      await page.goto(own('/policy'));
      await h1(page, 'Vetting policy');
      await expect(page.getByRole('list', { name: 'Policy versions' })).toBeVisible();
    },
  },
  {
    name: 'alerts',
    open: async (page) => {
      await page.goto(own('/settings/alerts'));
      await h1(page, 'Alerts');
      await expect(page.getByRole('heading', { name: 'Deliveries' })).toBeVisible();
    },
  },
];

for (const screen of SCREENS) {
  test(`looks as it did: ${screen.name}`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.clock.setFixedTime(BROWSER_NOW);
    await page.setViewportSize({ width: WIDTHS[0].width, height: WIDTHS[0].height });
    await page.emulateMedia({ colorScheme: 'light', media: screen.print ? 'print' : 'screen' });
    await screen.open(page);
    // values that depend on the run (a rate, a hash over the second a record was made) read the
    // same fixed text, so that neither they nor the line they sit in change the picture
    await page
      .locator('[data-visual="dynamic"]')
      .evaluateAll((elements) => elements.forEach((element) => (element.textContent = '(varies)')));
    for (const size of WIDTHS) {
      await page.setViewportSize({ width: size.width, height: size.height });
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        const html = page.locator('html');
        await (theme === 'dark'
          ? expect(html).toHaveClass(/\bdark\b/)
          : expect(html).not.toHaveClass(/\bdark\b/));
        await expect(page).toHaveScreenshot(`${screen.name}-${size.name}-${theme}.png`, {
          fullPage: screen.fullPage ?? true,
          mask: dynamicParts(page),
          animations: 'disabled',
          caret: 'hide',
        });
      }
    }
  });
}
