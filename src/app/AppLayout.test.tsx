import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../test/render-app.tsx';

/**
 * A lazy route's module graph can take more than findBy's default second on a busy machine (the
 * test itself times out at 5 s).
 */
const LAZY_ROUTE = { timeout: 4_000 };

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

function navLink(name: string): HTMLElement {
  const nav = screen.getByRole('navigation', { name: 'Main' });
  return within(nav).getByRole('link', { name });
}

describe('AppLayout', () => {
  it('shows the product name, the navigation and the main landmark', () => {
    renderApp('/search');
    expect(screen.getByRole('link', { name: 'carrier-desk' }).getAttribute('href')).toBe('/search');
    expect(navLink('Search').getAttribute('href')).toBe('/search');
    expect(navLink('Monitoring').getAttribute('href')).toBe('/monitoring');
    expect(screen.getByRole('main').id).toBe('main');
    expect(screen.getByRole('link', { name: 'Skip to content' }).getAttribute('href')).toBe(
      '#main',
    );
  });

  it('marks the current page in the navigation', async () => {
    renderApp('/monitoring');
    // The monitoring page is a lazy route: wait for it before looking at the navigation.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Monitoring' }, LAZY_ROUTE),
    ).toBeTruthy();
    expect(navLink('Monitoring').getAttribute('aria-current')).toBe('page');
    expect(navLink('Search').hasAttribute('aria-current')).toBe(false);
  });

  it('redirects / to /search', async () => {
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Search' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/search');
    expect(navLink('Search').getAttribute('aria-current')).toBe('page');
  });

  it('moves aria-current when the user follows a link', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/search');
    await user.click(navLink('Monitoring'));
    await screen.findByRole('heading', { level: 1, name: 'Monitoring' }, LAZY_ROUTE);
    expect(router.state.location.pathname).toBe('/monitoring');
    expect(navLink('Monitoring').getAttribute('aria-current')).toBe('page');
    expect(navLink('Search').hasAttribute('aria-current')).toBe(false);
  });

  it('shows the mode banner from the app config', () => {
    renderApp('/search', { config: { mode: 'sandbox' } });
    const banner = screen.getByRole('note', { name: 'Service mode' });
    expect(banner.textContent).toContain('Sandbox');
  });

  it('shows no mode banner while the mode is unknown', () => {
    renderApp('/search');
    expect(screen.queryByRole('note', { name: 'Service mode' })).toBeNull();
  });
});
