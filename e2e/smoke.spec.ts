import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

test('the shell loads at / and lands on the search page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/search$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
  await expect(page).toHaveTitle('Search · carrier-desk');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Search' })).toHaveAttribute('aria-current', 'page');
});

test('the skip link is the first stop and jumps to the main content', async ({ page }) => {
  await page.goto('/search');
  // the app draws after the load event: a Tab pressed before it lands on nothing of ours
  await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
});

test('the navigation works by keyboard alone', async ({ page }) => {
  await page.goto('/search');
  const monitoring = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Monitoring' });
  await tabUntilFocused(page, monitoring);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/monitoring$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Monitoring' })).toBeVisible();
  await expect(monitoring).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveTitle('Monitoring · carrier-desk');
});

test('an unknown address shows a not-found page with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByText('There is no page at /no/such/page.')).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Go to search' }).click();
  await expect(page).toHaveURL(/\/search$/);
});

test('the dark-mode choice survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/search');
  const toggle = page.getByRole('button', { name: 'Dark mode' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
});

test('static files are served, not the app shell', async ({ request }) => {
  const robots = await request.get('/robots.txt');
  expect(await robots.text()).toContain('User-agent: *');
  const favicon = await request.get('/favicon.svg');
  expect(favicon.headers()['content-type']).toContain('image/svg+xml');
});

// axe on /search, /monitoring and a not-found page, in both themes: e2e/a11y.spec.ts (every route).

async function tabUntilFocused(page: Page, target: Locator) {
  // the header has the skip link, brand, search (input, "Search by", button), theme and the
  // grouped navigation before Monitoring: ten stops, more with a live key's spend
  for (let presses = 0; presses < 20; presses += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element.matches(':focus'))) return;
  }
  throw new Error('the element was not reachable with Tab within 20 presses');
}
