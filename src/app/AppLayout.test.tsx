import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
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
  it('groups the destinations: Vet, Watch, Record, then Usage and API tokens', () => {
    renderApp('/search');
    const names = (group: string) =>
      within(screen.getByRole('list', { name: group }))
        .getAllByRole('link')
        .map((link) => link.textContent);
    expect(names('Vet')).toEqual(['Search', 'Tender check', 'Bulk vetting', 'Compare']);
    expect(names('Watch')).toEqual(['Monitoring', 'Alerts']);
    expect(names('Record')).toEqual(['Decisions', 'Policy']);
    expect(navLink('Usage').getAttribute('href')).toBe('/usage');
    expect(navLink('API tokens').getAttribute('href')).toBe('/settings/tokens');
    // nothing else: the three groups, Usage and API tokens
    const grouped = ['Vet', 'Watch', 'Record'].flatMap((group) => names(group));
    expect(
      within(screen.getByRole('navigation', { name: 'Main' })).getAllByRole('link'),
    ).toHaveLength(grouped.length + 2);
  });
});

/**
 * The menu button that shows the navigation below 1024 px (jsdom applies no CSS: what is checked is
 * the disclosure's state, `aria-expanded` and the panel's `data-open`, which its classes follow).
 */
describe('the navigation menu', () => {
  function menu() {
    const button = screen.getByRole('button', { name: /^Menu/ });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    return {
      button,
      nav,
      isOpen: () => {
        const expanded = button.getAttribute('aria-expanded');
        expect(nav.getAttribute('data-open')).toBe(expanded);
        return expanded === 'true';
      },
    };
  }

  it('is a button that controls the navigation and toggles it', async () => {
    const user = userEvent.setup();
    renderApp('/search');
    const { button, nav, isOpen } = menu();
    expect(button.getAttribute('aria-controls')).toBe(nav.id);
    expect(isOpen()).toBe(false);
    await user.click(button);
    expect(isOpen()).toBe(true);
    await user.click(button);
    expect(isOpen()).toBe(false);
  });

  it('opens with the keyboard; Escape closes it and gives the focus back to the button', async () => {
    const user = userEvent.setup();
    renderApp('/search');
    const { button, isOpen } = menu();
    button.focus();
    await user.keyboard('{Enter}');
    expect(isOpen()).toBe(true);
    await user.tab();
    expect(document.activeElement).toBe(navLink('Search'));
    await user.keyboard('{Escape}');
    expect(isOpen()).toBe(false);
    expect(document.activeElement).toBe(button);
  });

  it('closes on a click outside it, not on one inside it', async () => {
    const user = userEvent.setup();
    renderApp('/search', { config: { mode: 'sandbox' } });
    const { button, nav, isOpen } = menu();
    await user.click(button);
    fireEvent.pointerDown(within(nav).getByText('Watch'));
    expect(isOpen()).toBe(true);
    // the mode banner takes no focus: only the click itself can close the menu
    await user.click(screen.getByRole('note', { name: 'Service mode' }));
    expect(isOpen()).toBe(false);
  });

  it('closes when the focus leaves it', async () => {
    const user = userEvent.setup();
    renderApp('/search');
    const { button, isOpen } = menu();
    await user.click(button);
    await user.keyboard('/');
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Search carriers' }));
    expect(isOpen()).toBe(false);
  });

  it('closes on navigation, also by a link to the page already shown', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/search');
    const { button, isOpen } = menu();
    await user.click(button);
    await user.click(navLink('Search'));
    expect(router.state.location.pathname).toBe('/search');
    expect(isOpen()).toBe(false);

    await user.click(button);
    await user.click(navLink('Monitoring'));
    await screen.findByRole('heading', { level: 1, name: 'Monitoring' }, LAZY_ROUTE);
    expect(isOpen()).toBe(false);

    // a navigation from elsewhere (the omnibox, Back) closes it too
    await user.click(button);
    await act(() => router.navigate('/usage'));
    await screen.findByRole('heading', { level: 1, name: 'Usage' }, LAZY_ROUTE);
    expect(isOpen()).toBe(false);
  });
});
