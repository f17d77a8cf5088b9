/**
 * The layout check (e2e/layout-check.ts) on every route of src/app/routes.tsx, loaded once each and
 * looked at 390, 1280, 1440 and 1920 px wide in the light and the dark theme: no sideways page
 * scroll, no overlapping controls, targets of 24 px or spaced (WCAG 2.2 SC 2.5.8), no text cut off,
 * and every sideways scroller showing its fade. A failure lists each problem with its route, width,
 * theme and the elements' selectors, text and boxes.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { API_HEADERS, expect, test } from './fixtures.ts';
import { checkLayout, checkLayoutEverywhere } from './layout-check.ts';

/** HANSEN: 64 inspections, 6 crashes, a network; every tab has content. */
const DOT = '568253';

interface Visit {
  name: string;
  path: string;
  /** brings the page to the state to check, after it loaded */
  settle: (page: Page) => Promise<void>;
}

async function heading(page: Page, name?: string | RegExp) {
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

async function profileLoaded(page: Page, label: string) {
  await expect(page.getByRole('heading', { level: 1 })).toContainText('HANSEN');
  const tabs = page.getByRole('navigation', { name: 'Profile sections' });
  await expect(tabs.getByRole('link', { name: label, exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0, {
    timeout: 15_000,
  });
}

async function holdProfiles(page: Page, dots: string[]) {
  for (const dot of dots) {
    const held = await page.request.get(`/api/v2/profile?dot_number=${dot}`, {
      headers: API_HEADERS,
    });
    expect(held.ok()).toBe(true);
  }
}

/** The watched carriers of the seeded inbox. */
const INBOX_DOTS = ['568253', '265752', '4418207', '2214589', '3187452'];

/** The visits of each route pattern of src/app/routes.tsx ('' is the index route). */
const VISITS: Record<string, Visit[]> = {
  '/': [],
  '': [],
  search: [
    {
      name: 'search results',
      path: '/search?company=hansen',
      settle: async (page) => {
        await expect(page.getByRole('table', { name: /Carriers matching/ })).toBeVisible();
      },
    },
  ],
  'carriers/:dot': [],
  'carriers/:dot/:tab': [
    {
      name: 'profile overview',
      path: `/carriers/${DOT}/overview`,
      settle: async (page) => {
        await profileLoaded(page, 'Overview');
        await expect(page.getByRole('region', { name: /^Verdict:/ })).toBeVisible();
      },
    },
    {
      name: 'profile inspections (table and map)',
      path: `/carriers/${DOT}/inspections`,
      settle: async (page) => {
        await profileLoaded(page, 'Inspections');
        await expect(page.getByRole('table').first()).toBeVisible();
      },
    },
    {
      name: 'profile network (graph and lists)',
      path: '/carriers/4418207/network',
      settle: async (page) => {
        await expect(page.getByRole('heading', { level: 1 })).toContainText(/\S/);
        await expect(page.getByRole('region', { name: 'Network graph' })).toBeVisible({
          timeout: 15_000,
        });
        await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0, {
          timeout: 15_000,
        });
      },
    },
  ],
  monitoring: [
    {
      name: 'monitoring inbox, expanded',
      path: '/monitoring',
      settle: async (page) => {
        // the carriers' names are known once their profiles were fetched
        await holdProfiles(page, INBOX_DOTS);
        await page.reload();
        await heading(page, 'Monitoring');
        await expect(
          page.getByRole('table', { name: 'Watched carriers and their changes' }),
        ).toBeVisible();
        await page.getByRole('button', { name: 'Expand all' }).click();
        await expect(page.getByRole('table', { name: /^Changes of / }).first()).toBeVisible();
      },
    },
  ],
  decisions: [
    {
      name: 'decisions list',
      path: '/decisions',
      settle: async (page) => {
        // a decision needs the carrier's profile held (whatever ran before this visit)
        const held = await page.request.get(`/api/v2/profile?dot_number=${DOT}`, {
          headers: API_HEADERS,
        });
        expect(held.ok()).toBe(true);
        const answer = await page.request.post('/api/local/decisions', {
          headers: API_HEADERS,
          // a note longer than the three lines a card shows on a phone
          data: {
            dot_number: DOT,
            decision: 'approved',
            note:
              'Layout check: called the carrier on the registered number, confirmed the new ' +
              'dispatcher and the insurance agent, and asked for the certificate to be sent ' +
              'again with the broker named as certificate holder before the first load.',
          },
        });
        expect(answer.status()).toBe(201);
        await page.reload();
        await heading(page, 'Decisions');
        await expect(page.getByRole('status').filter({ hasText: /^. Chain/ })).toBeVisible();
      },
    },
  ],
  'decisions/:id': [
    {
      name: 'a decision record',
      path: '/decisions',
      settle: async (page) => {
        // a decision needs the carrier's profile held (whatever ran before this visit)
        const held = await page.request.get(`/api/v2/profile?dot_number=${DOT}`, {
          headers: API_HEADERS,
        });
        expect(held.ok()).toBe(true);
        const answer = await page.request.post('/api/local/decisions', {
          headers: API_HEADERS,
          data: { dot_number: DOT, decision: 'approved', note: 'layout check record' },
        });
        expect(answer.status()).toBe(201);
        const { id } = (await answer.json()) as { id: number };
        await page.goto(`/decisions/${id}`);
        await heading(page, new RegExp(`^Decision #${id}`));
        // the record's receipt (loaded after the record) is checked too
        await expect(page.getByTestId('receipt-json')).toBeVisible();
      },
    },
  ],
  policy: [
    {
      name: 'policy',
      path: '/policy',
      settle: async (page) => {
        await heading(page, 'Vetting policy');
        await expect(page.getByRole('list', { name: 'Policy versions' })).toBeVisible();
      },
    },
  ],
  bulk: [
    {
      name: 'bulk with an estimate and a recent job',
      path: '/bulk',
      settle: async (page) => {
        const created = await page.request.post('/api/local/bulk-jobs', {
          headers: API_HEADERS,
          data: { identifiers: [DOT, '2214589'] },
        });
        expect(created.status()).toBe(202);
        await page.reload();
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
      name: 'a finished bulk job',
      path: '/bulk',
      settle: async (page) => {
        const created = await page.request.post('/api/local/bulk-jobs', {
          headers: API_HEADERS,
          data: { identifiers: [DOT, '4418207', '2214589'] },
        });
        expect(created.status()).toBe(202);
        const { id } = (await created.json()) as { id: string };
        await page.goto(`/bulk/${id}`);
        await expect(page.getByTestId('job-status')).toHaveText('Done', { timeout: 15_000 });
        await expect(page.getByRole('table', { name: 'Results of the job' })).toBeVisible();
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
  compare: [
    {
      name: 'compare three carriers',
      path: '/compare',
      settle: async (page) => {
        await holdProfiles(page, [DOT, '2214589', '3187452']);
        await page.goto(`/compare?dot=${DOT},2214589,3187452`);
        await heading(page, 'Compare');
        await expect(page.locator('tr[data-row="verdict"] td')).toHaveCount(3);
        await expect(page.locator('tr[data-row="verdict"] td').last()).toContainText(/Fail/);
      },
    },
  ],
  'settings/alerts': [
    {
      name: 'alerts settings',
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
      name: 'API tokens',
      path: '/settings/tokens',
      settle: async (page) => {
        await heading(page, 'API tokens');
        await expect(page.getByRole('button', { name: 'Create token' })).toBeVisible();
        const list = page.getByRole('table', { name: 'API tokens' });
        await expect(page.getByText('No tokens yet.').or(list)).toBeVisible();
      },
    },
  ],
  usage: [
    {
      name: 'usage',
      path: '/usage',
      settle: async (page) => {
        await heading(page, 'Usage');
        await expect(
          page.getByRole('table', { name: 'Spend by endpoint this month' }),
        ).toBeVisible();
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

test('every route pattern has an entry here', () => {
  expect(routePatterns().filter((pattern) => !(pattern in VISITS))).toEqual([]);
});

for (const [pattern, visits] of Object.entries(VISITS)) {
  for (const visit of visits) {
    test(`layout: ${visit.name} [${pattern}]`, async ({ page }) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto(visit.path);
      await visit.settle(page);
      const problems = await checkLayoutEverywhere(
        page,
        page.url().replace(/^https?:\/\/[^/]+/, ''),
      );
      expect(problems, `layout problems on ${visit.name}`).toEqual([]);
    });
  }
}

test('the inbox keeps its actions inside its box at every width, its changes expanded', async ({
  page,
}) => {
  await holdProfiles(page, INBOX_DOTS);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/monitoring');
  await page.getByRole('button', { name: 'Expand all' }).click();
  await expect(page.getByRole('table', { name: /^Changes of / }).first()).toBeVisible();
  const box = page.getByTestId('inbox-scroll');
  const outside: string[] = [];
  for (const width of [800, 1024, 1280, 1440, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    outside.push(
      ...(await box.evaluate((scroller, at) => {
        const edge = scroller.getBoundingClientRect().right;
        const wider = scroller.scrollWidth - scroller.clientWidth;
        const cut = [...scroller.querySelectorAll('button')]
          .filter((button) =>
            /^(Unwatch|Add to compare|Remove from compare)/.test(button.innerText),
          )
          .filter((button) => button.getBoundingClientRect().right > edge + 0.5)
          .map(
            (button) =>
              `${at}px: "${button.innerText.replace(/\s+/g, ' ')}" ends at ${Math.round(button.getBoundingClientRect().right)}, the box at ${Math.round(edge)}`,
          );
        return wider > 1 ? [...cut, `${at}px: the table is ${wider} px wider than its box`] : cut;
      }, width)),
    );
  }
  expect(outside).toEqual([]);
});

test.describe('the check itself, on pages built to fail it', () => {
  async function problemsOf(page: Page, body: string) {
    await page.setContent(
      `<!doctype html><html><head><style>body{margin:0;font:16px sans-serif} button{padding:0;border:0}</style></head><body>${body}</body></html>`,
    );
    return (await checkLayout(page, 800, 'light')).map(
      (problem) => `${problem.kind} ${problem.elements.map((element) => element.text).join(' | ')}`,
    );
  }

  test('a box wider than the window scrolls the page; inside a scroller it does not', async ({
    page,
  }) => {
    expect(await problemsOf(page, '<div style="width:1200px">too wide</div>')).toEqual([
      'page-scroll too wide',
    ]);
    expect(
      await problemsOf(
        page,
        '<div data-scroll-hint="end"><div style="overflow-x:auto"><div style="width:1200px">held</div></div></div>',
      ),
    ).toEqual([]);
  });

  test('overlapping controls, unless one is inside the other or in an overlay', async ({
    page,
  }) => {
    const two = (second: string) =>
      `<button style="position:absolute;left:10px;top:10px;width:100px;height:40px">First</button>${second}`;
    expect(
      await problemsOf(
        page,
        two(
          '<button style="position:absolute;left:60px;top:20px;width:100px;height:40px">Second</button>',
        ),
      ),
    ).toEqual(['overlap First | Second']);
    expect(
      await problemsOf(
        page,
        two(
          '<div role="dialog" aria-label="d"><button style="position:absolute;left:60px;top:20px;width:100px;height:40px">Over</button></div>',
        ),
      ),
    ).toEqual([]);
    expect(
      await problemsOf(
        page,
        '<a href="#x" style="display:block;width:200px;height:40px"><span tabindex="0" style="display:inline-block;width:100px;height:30px">inner</span></a>',
      ),
    ).toEqual([]);
  });

  test('small targets too close together; spaced ones and links in a sentence pass', async ({
    page,
  }) => {
    const small = (left: number, name: string) =>
      `<button style="position:absolute;left:${left}px;top:10px;width:16px;height:16px" aria-label="${name}"></button>`;
    expect(await problemsOf(page, small(10, 'a') + small(30, 'b'))).toEqual([
      'target-size a | b',
      'target-size b | a',
    ]);
    expect(await problemsOf(page, small(10, 'a') + small(40, 'b'))).toEqual([]);
    // a target half scrolled out of its box is measured whole (the box shows it scrolls)
    expect(
      await problemsOf(
        page,
        '<div data-scroll-hint="end"><div style="overflow-x:auto;width:100px;white-space:nowrap"><button style="width:94px;height:30px">a</button><button style="width:60px;height:30px;margin-left:4px">b</button></div></div>',
      ),
    ).toEqual([]);
    expect(
      await problemsOf(
        page,
        '<p style="font-size:12px;width:300px">See <a href="#1">one</a> and <a href="#2">two</a> for the rules.</p>',
      ),
    ).toEqual([]);
  });

  test('text cut off in a box that does not scroll, unless its full text is at hand', async ({
    page,
  }) => {
    const cut = (attributes: string) =>
      `<div ${attributes} style="width:80px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis">A carrier name far too long</div>`;
    expect(await problemsOf(page, cut(''))).toEqual(['clipped-text A carrier name far too long']);
    expect(await problemsOf(page, cut('title="A carrier name far too long"'))).toEqual([]);
    expect(
      await problemsOf(
        page,
        '<input aria-label="q" style="width:60px" placeholder="DOT, MC, name, phone">',
      ),
    ).toEqual(['clipped-text DOT, MC, name, phone']);
  });

  test('a sideways scroller needs the fade, and its marker must say there is more', async ({
    page,
  }) => {
    const scroller =
      '<div style="overflow-x:auto;width:200px"><div style="width:600px">rows</div></div>';
    expect(await problemsOf(page, scroller)).toEqual(['scroll-hint rows']);
    expect(await problemsOf(page, `<div data-scroll-hint="none">${scroller}</div>`)).toEqual([
      'scroll-hint rows',
    ]);
    expect(await problemsOf(page, `<div data-scroll-hint="end">${scroller}</div>`)).toEqual([]);
  });
});
