/**
 * axe (WCAG 2.1 A/AA and best practices) on every route of the app and every profile tab, in the
 * light and the dark theme, plus the states a route can be in (results, suggestions, empty, not
 * found, upstream error) and the password sign-in page. The routes come from src/app/routes.tsx and
 * the tabs from PROFILE_TABS, so a new route or tab without a visit here fails the first test.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { PROFILE_TABS } from '../src/features/profile/components/tabs/types.ts';
import {
  API_HEADERS,
  axeViolations,
  expect,
  expectAxeCleanInBothThemes,
  test,
} from './fixtures.ts';
import { startOwnProxy, type OwnProxy } from './own-proxy.ts';
import { sandbox } from './sandbox.ts';

/**
 * Chromium reports every failed load on the console; expected here: the 503s injected below, and the
 * 401 page of a failed sign-in.
 */
const INJECTED_FAILURE = /Failed to load resource: the server responded with a status of (401|503)/;

test.use({ expectedConsoleErrors: INJECTED_FAILURE });

/** HANSEN: 64 inspections, 6 crashes, a network; every tab has content. */
const DOT = '568253';
const HANSEN_NAME = 'HANSEN';
/** A population carrier no other spec opens, so the proxy must ask upstream (and meet the fault). */
const UNAVAILABLE_DOT = '5000423';
/** Ports of the sign-in spec's own proxy (and its sandbox): no other spec uses them. */
const LOGIN_PORT = 4294;

interface Visit {
  name: string;
  path: string;
  /** brings the page to the state to check, after it loaded */
  settle: (page: Page) => Promise<void>;
  /** console errors this visit causes on purpose (else the file's injected failures) */
  consoleErrors?: RegExp;
}

/** The proxy answers a DOT the service does not know with 404 `unknown_dot`; Chromium logs it. */
const NOT_FOUND = /Failed to load resource: the server responded with a status of 404/;

async function heading(page: Page, name?: string | RegExp) {
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/** A profile tab, loaded: its heading, its section and no loading status left. */
async function profileLoaded(page: Page, label: string) {
  await expect(page.getByRole('heading', { level: 1 })).toContainText(HANSEN_NAME);
  const tabs = page.getByRole('navigation', { name: 'Profile sections' });
  await expect(tabs.getByRole('link', { name: label, exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByText(/^Fetched /)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0, {
    timeout: 15_000,
  });
  await page.waitForLoadState('networkidle');
}

/**
 * Profile tabs whose axe check lives in another spec that brings them to a fuller state than a
 * visit here would (detail rows and the map's table view open; a carrier with BASIC alerts drawn;
 * the chameleon carrier's fleet, contact changes and network):
 * a visit here would check a subset of it again, at ~10 s each.
 */
const AXE_ELSEWHERE: Record<string, string> = {
  inspections: 'e2e/profile-maps.spec.ts',
  crashes: 'e2e/profile-maps.spec.ts',
  safety: 'e2e/profile-safety.spec.ts',
  fleet: 'e2e/profile-network.spec.ts',
  contact: 'e2e/profile-network.spec.ts',
  network: 'e2e/profile-network.spec.ts',
};

/** The visits of each route pattern of src/app/routes.tsx ('' is the index route). */
const VISITS: Record<string, Visit[]> = {
  '/': [{ name: 'the root', path: '/', settle: (page) => heading(page, 'Search') }],
  // the index route is what `/` renders: the visit above covers it
  '': [],
  search: [
    { name: 'search, nothing asked', path: '/search', settle: (page) => heading(page, 'Search') },
    {
      name: 'search results with a preview open',
      path: '/search?company=hansen',
      settle: async (page) => {
        await expect(page.getByRole('table', { name: /Carriers matching/ })).toBeVisible();
        await page
          .getByRole('button', { name: /^Preview HANSEN/ })
          .first()
          .click();
        await expect(page.getByText('Authority check')).toBeVisible();
      },
    },
    {
      name: 'search without a match',
      path: '/search?company=zzqxv',
      settle: async (page) => {
        await heading(page, 'Search');
        await expect(page.getByText(/No carrier/i).first()).toBeVisible();
      },
    },
    {
      name: 'the omnibox with suggestions open',
      path: '/search',
      settle: async (page) => {
        await page.getByRole('combobox', { name: 'Search carriers' }).fill('hansen');
        await expect(page.getByRole('listbox', { name: 'Suggestions' })).toBeVisible();
      },
    },
  ],
  'carriers/:dot': [
    {
      name: 'a carrier without a tab (→ overview)',
      path: `/carriers/${DOT}`,
      settle: (page) => profileLoaded(page, 'Overview'),
    },
  ],
  'carriers/:dot/:tab': [
    ...PROFILE_TABS.filter((tab) => !(tab.id in AXE_ELSEWHERE)).map((tab) => ({
      name: `the ${tab.id} tab`,
      path: `/carriers/${DOT}/${tab.id}`,
      settle: (page: Page) => profileLoaded(page, tab.label),
    })),
    {
      name: 'an unknown tab',
      path: `/carriers/${DOT}/nope`,
      settle: (page) => heading(page, 'No such profile section'),
    },
    {
      name: 'an unknown carrier',
      path: '/carriers/99999999/overview',
      settle: (page) => heading(page, 'No carrier with DOT 99999999'),
      consoleErrors: NOT_FOUND,
    },
  ],
  monitoring: [
    {
      name: 'the inbox, expanded, bulk watch open',
      path: '/monitoring',
      settle: async (page) => {
        await heading(page, 'Monitoring');
        await page.getByRole('button', { name: 'Expand all' }).click();
        await expect(page.getByRole('table', { name: /^Changes of / }).first()).toBeVisible();
        await page.getByText('Watch carriers in bulk').click();
      },
    },
  ],
  decisions: [
    {
      name: 'the decisions list with its chain check',
      path: '/decisions',
      settle: async (page) => {
        await heading(page, 'Decisions');
        await expect(page.getByRole('status').filter({ hasText: /^. Chain/ })).toBeVisible();
      },
    },
  ],
  'decisions/:id': [
    {
      name: 'a decision record (print view)',
      path: `/carriers/${DOT}/overview`,
      settle: async (page) => {
        await profileLoaded(page, 'Overview');
        const csrf = { 'x-requested-with': 'carrier-desk' };
        const answer = await page.request.post('/api/local/decisions', {
          headers: csrf,
          data: { dot_number: DOT, decision: 'approved', note: 'a11y visit' },
        });
        expect(answer.status()).toBe(201);
        const { id } = (await answer.json()) as { id: number };
        await page.goto(`/decisions/${id}`);
        await heading(page, new RegExp(`^Decision #${id} · ${HANSEN_NAME}`));
        // the record's receipt (loaded after the record) is checked too
        await expect(page.getByTestId('receipt-json')).toBeVisible();
      },
    },
  ],
  bulk: [
    {
      name: 'a pasted list with its reasons and the estimate',
      path: '/bulk',
      settle: async (page) => {
        await heading(page, 'Bulk vetting');
        await page
          .getByRole('textbox', { name: /USDOT numbers or MC\/MX\/FF dockets/ })
          .fill('568253 2214589\nnope\n568253');
        await page.getByRole('button', { name: 'Check cost' }).click();
        await expect(page.getByRole('region', { name: 'Estimate' })).toBeVisible();
      },
    },
  ],
  'bulk/:id': [
    {
      name: 'a finished job with its results',
      path: '/bulk',
      settle: async (page) => {
        const created = await page.request.post('/api/local/bulk-jobs', {
          headers: { 'x-requested-with': 'carrier-desk' },
          data: { identifiers: [DOT, '4418207'] },
        });
        expect(created.status()).toBe(202);
        const { id } = (await created.json()) as { id: string };
        await page.goto(`/bulk/${id}`);
        await expect(page.getByTestId('job-status')).toHaveText('Done');
        await expect(page.getByRole('table', { name: 'Results of the job' })).toBeVisible();
      },
    },
  ],
  compare: [
    {
      name: 'two carriers compared',
      path: '/compare',
      settle: async (page) => {
        await heading(page, 'Compare');
        // held by the proxy first: a profile not held would be asked for with a 504 (console)
        for (const dot of [DOT, '2214589']) {
          const held = await page.request.get(`/api/v2/profile?dot_number=${dot}`, {
            headers: { 'x-requested-with': 'carrier-desk' },
          });
          expect(held.ok()).toBe(true);
        }
        await page.goto(`/compare?dot=${DOT},2214589`);
        await expect(page.locator('tr[data-row="verdict"] td').last()).toHaveText(/Review/);
      },
    },
  ],
  'tender-check': [
    {
      name: 'a tender check with its answer',
      path: '/tender-check?dot_number=568253',
      settle: async (page) => {
        await heading(page, 'Tender check');
        await page.getByRole('textbox', { name: 'Phone' }).fill('(562) 602-7220');
        await page.getByRole('button', { name: 'Check this offer' }).click();
        await expect(page.locator('article[data-answer]')).toBeVisible({ timeout: 15_000 });
      },
    },
  ],
  'tender-checks': [
    {
      name: 'the tender checks',
      path: '/tender-checks',
      settle: async (page) => {
        const made = await page.request.post('/api/local/tender-checks', {
          headers: API_HEADERS,
          data: { dot_number: DOT, email: 'dispatch@hansen-adkins.com' },
        });
        expect(made.status()).toBe(201);
        await page.reload();
        await heading(page, 'Tender checks');
        await expect(page.getByText(/^\d+ checks?$/)).toBeVisible();
      },
    },
  ],
  'tender-checks/:id': [
    {
      name: 'a stored tender check',
      path: '/tender-checks',
      settle: async (page) => {
        const made = await page.request.post('/api/local/tender-checks', {
          headers: API_HEADERS,
          data: { dot_number: DOT, phone: '469-555-0163' },
        });
        expect(made.status()).toBe(201);
        const { id } = (await made.json()) as { id: number };
        await page.goto(`/tender-checks/${id}`);
        await heading(page, `Tender check #${id}`);
        await expect(page.locator('article[data-answer]')).toBeVisible();
      },
    },
  ],
  usage: [
    {
      name: 'the usage page',
      path: '/usage',
      settle: async (page) => {
        await heading(page, 'Usage');
        await expect(
          page.getByRole('table', { name: 'Spend by endpoint this month' }),
        ).toBeVisible();
      },
    },
  ],
  'settings/alerts': [
    {
      name: 'the alerts settings',
      path: '/settings/alerts',
      settle: async (page) => {
        await heading(page, 'Alerts');
        await expect(page.getByRole('heading', { name: 'Deliveries' })).toBeVisible();
      },
    },
  ],
  audit: [
    {
      name: 'the audit log',
      path: '/audit',
      settle: async (page) => {
        await heading(page, 'Audit log');
        await expect(page.getByRole('table', { name: 'Audit log entries' })).toBeVisible();
      },
    },
  ],
  'settings/tokens': [
    {
      name: 'the API tokens',
      path: '/settings/tokens',
      settle: async (page) => {
        await heading(page, 'API tokens');
        await expect(page.getByRole('button', { name: 'Create token' })).toBeVisible();
        const list = page.getByRole('table', { name: 'API tokens' });
        await expect(page.getByText('No tokens yet.').or(list)).toBeVisible();
      },
    },
  ],
  policy: [
    {
      name: 'the policy with its versions',
      path: '/policy',
      settle: async (page) => {
        await heading(page, 'Vetting policy');
        await expect(page.getByRole('list', { name: 'Policy versions' })).toBeVisible();
      },
    },
  ],
  '*': [
    { name: 'not found', path: '/no/such/page', settle: (page) => heading(page, 'Page not found') },
  ],
};

/** The route patterns of the route tree, read from its source ('' for an index route). */
function routePatterns(): string[] {
  const source = readFileSync('src/app/routes.tsx', 'utf8');
  const paths = [...source.matchAll(/\bpath:\s*'([^']*)'/g)].map((match) => match[1] ?? '');
  const indexes = [...source.matchAll(/\bindex:\s*true\b/g)].map(() => '');
  return [...paths, ...indexes];
}

/** `tabs/inspections/Tab.tsx` → `inspections`: the tab components on disk. */
function tabFiles(): string[] {
  const dir = 'src/features/profile/components/tabs';
  return readdirSync(dir).filter((name) => existsSync(`${dir}/${name}/Tab.tsx`));
}

test('every route and every profile tab has a visit here', () => {
  const patterns = routePatterns();
  expect(patterns.length).toBeGreaterThanOrEqual(5);
  expect(patterns.filter((pattern) => !(pattern in VISITS))).toEqual([]);
  expect(tabFiles().sort()).toEqual(PROFILE_TABS.map((tab) => tab.id).sort());
  for (const [tab, spec] of Object.entries(AXE_ELSEWHERE)) {
    const source = readFileSync(spec, 'utf8');
    expect(source, `${spec} opens the ${tab} tab`).toMatch(new RegExp(`['/]${tab}\\b`));
    expect(source, `${spec} runs axe`).toContain('expectAxeCleanInBothThemes(page)');
  }
});

for (const [pattern, visits] of Object.entries(VISITS)) {
  for (const visit of visits) {
    test.describe(() => {
      if (visit.consoleErrors) test.use({ expectedConsoleErrors: visit.consoleErrors });
      test(`axe: ${visit.name} [${pattern || 'index'}]`, async ({ page }) => {
        await page.emulateMedia({ colorScheme: 'light' });
        await page.goto(visit.path);
        await visit.settle(page);
        await expectAxeCleanInBothThemes(page);
      });
    });
  }
}

test.describe('an upstream error on the profile', () => {
  test.afterEach(async () => {
    await sandbox.clearFaults();
  });

  test('axe: the "service unavailable" state', async ({ page }) => {
    test.setTimeout(60_000);
    // more failures than the proxy and the SPA retry, whichever calls the profile takes
    await sandbox.faults([{ path: '/v2/profile', status: 503, retry_after: 0, count: 100 }]);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`/carriers/${UNAVAILABLE_DOT}/overview`);
    await expect(page.getByRole('alert')).toContainText('The data service is unavailable', {
      timeout: 20_000,
    });
    await expectAxeCleanInBothThemes(page);
  });
});

test.describe('the sign-in page in password mode', () => {
  let proxy: OwnProxy | undefined;

  test.beforeAll(async () => {
    proxy = await startOwnProxy(LOGIN_PORT, {
      DASHBOARD_AUTH: 'password',
      DASHBOARD_PASSWORD: 'correct horse battery staple',
    });
  });

  test.afterAll(async () => {
    await proxy?.stop();
  });

  // a page of its own (not the SPA): it follows the system theme through `color-scheme`
  for (const scheme of ['light', 'dark'] as const) {
    test(`axe: sign-in, then a failed attempt (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${proxy?.url}/search`);
      await expect(page).toHaveURL(/\/login\?next=/);
      await heading(page, 'Sign in to carrier-desk');
      expect(await axeViolations(page)).toEqual([]);
      await page.getByLabel('User name').fill('admin');
      await page.getByLabel('Password').fill('wrong password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});
