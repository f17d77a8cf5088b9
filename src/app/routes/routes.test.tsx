import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { data, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
