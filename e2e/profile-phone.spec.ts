/**
 * The carrier profile on a phone (390 × 844): every tab of two curated carriers fits the screen's
 * width (wide tables scroll inside their own box, never the page), the name, the verdict and the
 * current tab are on the first screen with room left for the tab's content, and the BASIC chart's texts do not
 * run into each other.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { startOwnProxy, type OwnProxy } from './own-proxy.ts';

/**
 * On a proxy of its own, so what stands under the name does not depend on which specs ran before:
 * 4418207 carries the most a decision shows (approved with conditions over a Review, a re-vet
 * date, then a policy change that makes it fail and flags it for re-vet), 568253 none.
 */
const PORT = 4612;
const CSRF = { 'x-requested-with': 'carrier-desk' };
let proxy: OwnProxy | undefined;

function url(path: string): string {
  if (!proxy) throw new Error('own proxy not started');
  return `${proxy.url}${path}`;
}

/** A call to the own proxy's API, as the page would make it (with the CSRF header). */
async function call(method: string, path: string, body?: unknown): Promise<void> {
  const answer = await fetch(url(path), {
    method,
    headers: { ...CSRF, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(answer.ok, `${method} ${path}: ${answer.status} ${await answer.text()}`).toBe(true);
}

test.beforeAll(async () => {
  proxy = await startOwnProxy(PORT, {});
  await call('GET', '/api/local/verdict?dot_number=4418207');
  const revet = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
  await call('POST', '/api/local/decisions', {
    dot_number: '4418207',
    decision: 'approved_with_conditions',
    conditions: 'Call back on the registered number before each load.',
    override_reason: 'New entrant known to us; shared identifiers checked by phone.',
    expires_on: revet,
  });
  await call('PUT', '/api/local/policy', {
    rules: { shared_identifiers: { outcome: 'fail' } },
    note: 'profile-phone spec',
  });
});

test.afterAll(async () => {
  await proxy?.stop();
});

const PHONE = { width: 390, height: 844 };
const TABS = [
  'overview',
  'authority',
  'safety',
  'inspections',
  'crashes',
  'fleet',
  'contact',
  'network',
  'fmcsa',
  'raw',
] as const;

test.use({ viewport: PHONE });

async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** Waits for the tab's own content (the full-profile tabs show a loading block first). */
async function openTab(page: Page, dot: string, tab: (typeof TABS)[number]): Promise<Locator> {
  await page.goto(url(`/carriers/${dot}/${tab}`));
  const panel = page.locator('section[aria-labelledby="profile-tab-heading"]');
  await expect(panel.locator('[role="status"]', { hasText: 'Loading the' })).toHaveCount(0, {
    timeout: 20_000,
  });
  await expect(panel.locator('h3, h2:not(.sr-only), table, [role="note"]').first()).toBeVisible();
  return panel;
}

function overlaps(a: DOMRectLike, b: DOMRectLike): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

interface DOMRectLike {
  x: number;
  y: number;
  width: number;
  height: number;
}

// 568253 has every history; 4418207 has the shared-VIN table that made the Network tab 487 px wide
const VISITS = [
  { dot: '568253', tabs: TABS },
  { dot: '4418207', tabs: ['overview', 'network', 'contact'] as const },
];

for (const { dot, tabs } of VISITS) {
  for (const tab of tabs) {
    test(`${dot} ${tab}: fits a phone, with the tab's content on the first screen`, async ({
      page,
    }) => {
      const panel = await openTab(page, dot, tab);
      expect(await pageWidth(page), 'page width').toBeLessThanOrEqual(PHONE.width);

      await expect(page.getByRole('heading', { level: 1 })).toBeInViewport();
      await expect(page.getByRole('region', { name: 'Verdict summary' })).toBeInViewport({
        ratio: 1,
      });
      const current = page
        .getByRole('navigation', { name: 'Profile sections' })
        .locator('[aria-current="page"]');
      await expect(current).toBeInViewport({ ratio: 1 });
      const top = (await panel.boundingBox())?.y ?? Infinity;
      // 0.8: the verdict with the decision beside it (4418207: "Approved with conditions — now
      // fails" with its needs re-vet and override marks; 657 px measured) and "Record a decision"
      // moved from the tab's content up under the name (e2e/profile-layout.spec.ts holds them on
      // the first screen), and the search has its own row in the header; at least 168 px of the
      // tab's content stay on the first screen
      expect(top, "where the tab's content starts").toBeLessThan(PHONE.height * 0.8);
    });
  }
}

test('the BASIC chart’s texts do not overlap on a phone', async ({ page }) => {
  const panel = await openTab(page, '2214589', 'safety');
  const chart = panel.getByRole('img', { name: /Bar chart of BASIC percentiles/ });
  await expect(chart.locator('.recharts-label-list text')).toHaveCount(7);
  const chartBox = await chart.boundingBox();
  if (!chartBox) throw new Error('the BASIC chart has no box');
  const texts = chart.locator('.recharts-label-list text, [class*="yAxis"] text');
  const boxes = await texts.evaluateAll((nodes) =>
    nodes.map((node) => {
      const { x, y, width, height } = node.getBoundingClientRect();
      return { text: node.textContent ?? '', x, y, width, height };
    }),
  );
  expect(boxes.length).toBeGreaterThanOrEqual(14);
  for (const [index, box] of boxes.entries()) {
    expect(box.x, box.text).toBeGreaterThanOrEqual(chartBox.x - 1);
    expect(box.x + box.width, box.text).toBeLessThanOrEqual(chartBox.x + chartBox.width + 1);
    for (const other of boxes.slice(index + 1)) {
      expect(overlaps(box, other), `"${box.text}" and "${other.text}"`).toBe(false);
    }
  }
  expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
});
