import { Navigate, type RouteObject } from 'react-router';
import { SearchPage } from '../features/search/components/SearchPage.tsx';
import { AppLayout } from './AppLayout.tsx';
import { NotFoundPage } from './routes/NotFoundPage.tsx';
import { RouteErrorPage } from './routes/RouteErrorPage.tsx';

/**
 * The route tree, shared by the browser router (main.tsx) and memory routers in tests.
 * The pathless child catches page errors inside the layout; the root one catches layout errors.
 */
export const appRoutes: RouteObject[] = [
  {
    path: '/',
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, element: <Navigate to="/search" replace /> },
          { path: 'search', element: <SearchPage /> },
          { path: 'carriers/:dot', element: <Navigate to="overview" replace /> },
          {
            path: 'carriers/:dot/:tab',
            lazy: () =>
              import('../features/profile/components/ProfilePage.tsx').then((m) => ({
                Component: m.ProfilePage,
              })),
          },
          {
            // Lazy like the profile: the search page's initial bundle carries only what it needs.
            path: 'monitoring',
            lazy: () =>
              import('../features/monitoring/components/MonitoringPage.tsx').then((m) => ({
                Component: m.MonitoringPage,
              })),
          },
          {
            path: 'decisions',
            lazy: () =>
              import('../features/decisions/components/DecisionsPage.tsx').then((m) => ({
                Component: m.DecisionsPage,
              })),
          },
          {
            path: 'decisions/:id',
            lazy: () =>
              import('../features/decisions/components/DecisionRecordPage.tsx').then((m) => ({
                Component: m.DecisionRecordPage,
              })),
          },
          {
            path: 'policy',
            lazy: () =>
              import('../features/decisions/components/PolicyPage.tsx').then((m) => ({
                Component: m.PolicyPage,
              })),
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
