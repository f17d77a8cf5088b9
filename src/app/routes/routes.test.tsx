import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { data, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { importOrReload, pageReloader } from '../../lib/chunk-reload.ts';
import { renderApp } from '../../test/render-app.tsx';
import { AppLayout } from '../AppLayout.tsx';
import { describeRouteError, RouteErrorPage } from './RouteErrorPage.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('not-found route', () => {
  it('explains that the page does not exist, inside the layout', () => {
    renderApp('/no/such/page');
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('There is no page at /no/such/page.')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
  });

  it('links back home', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/nope');
    const main = screen.getByRole('main');
    await user.click(within(main).getByRole('link', { name: 'Go to search' }));
    expect(router.state.location.pathname).toBe('/search');
    expect(screen.getByRole('heading', { level: 1, name: 'Search' })).toBeTruthy();
  });
});

function Boom(): never {
  throw new Error('profile parser exploded');
}

/** The same shape as appRoutes, with a page that throws. */
const failingRoutes: RouteObject[] = [
  {
    path: '/',
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { errorElement: <RouteErrorPage />, children: [{ path: 'boom', element: <Boom /> }] },
    ],
  },
];

describe('route error boundary', () => {
  it('shows a readable error and keeps the navigation usable', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderApp('/boom', { routes: failingRoutes });
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(within(alert).getByText('profile parser exploded')).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Reload page' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
  });

  it('describes a status thrown by a loader', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const routes: RouteObject[] = [
      {
        path: '/',
        errorElement: <RouteErrorPage />,
        loader: () => {
          throw data('gone', { status: 404, statusText: 'Not Found' });
        },
        element: <p>unreachable</p>,
      },
    ];
    renderApp('/', { routes });
    expect(await screen.findByText('404 Not Found')).toBeTruthy();
  });

  it('describes other thrown values without crashing', () => {
    expect(describeRouteError(new Error('x'))).toBe('x');
    expect(describeRouteError('weird')).toBe('Unknown error');
  });
});

describe('deep link to a lazy route', () => {
  it('shows the layout and a loading state while the page loads, without a HydrateFallback warning', async () => {
    const warn = vi.spyOn(console, 'warn');
    renderApp('/carriers/568253/overview');
    const hydrateWarnings = warn.mock.calls.filter((args) =>
      args.some((arg) => String(arg).includes('HydrateFallback')),
    );
    expect(hydrateWarnings).toEqual([]);
    // The layout stays while the page's code loads: navigation and a status in the main region.
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(within(screen.getByRole('main')).getByRole('status').textContent).toBe(
      'Loading the page…',
    );
  });
});

describe('a lazy page whose code cannot be downloaded', () => {
  it('reloads once, then shows a readable error instead of the browser’s message', async () => {
    window.sessionStorage.clear();
    const reload = vi.fn<() => void>();
    const original = pageReloader.reload;
    pageReloader.reload = reload;
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const raw = 'Failed to fetch dynamically imported module: http://x/assets/ProfilePage-1.js';
    const routes: RouteObject[] = [
      {
        path: '/',
        element: <AppLayout />,
        errorElement: <RouteErrorPage />,
        children: [
          {
            errorElement: <RouteErrorPage />,
            hydrateFallbackElement: <p>loading</p>,
            children: [
              {
                path: 'page',
                lazy: () => importOrReload(() => Promise.reject(new TypeError(raw))),
              },
            ],
          },
        ],
      },
    ];
    try {
      renderApp('/page', { routes });
      await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
      cleanup();
      // After the reload the chunk still fails: no second reload, a message a person can act on.
      renderApp('/page', { routes });
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByRole('heading', { name: 'This page could not be downloaded' }));
      expect(alert.textContent).toContain('Reload the page to continue.');
      expect(alert.textContent).not.toContain('Failed to fetch dynamically imported module');
      expect(reload).toHaveBeenCalledTimes(1);
    } finally {
      pageReloader.reload = original;
    }
  });
});
