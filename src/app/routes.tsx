import { Navigate, type RouteObject } from 'react-router';
import { SearchPage } from '../features/search/components/SearchPage.tsx';
import { importOrReload } from '../lib/chunk-reload.ts';
import { AppLayout } from './AppLayout.tsx';
import { loadProfilePage } from './profile-prefetch.ts';
import { NotFoundPage } from './routes/NotFoundPage.tsx';
import { PageLoading } from './routes/PageLoading.tsx';
import { RouteErrorPage } from './routes/RouteErrorPage.tsx';

/**
 * The route tree, shared by the browser router (main.tsx) and memory routers in tests.
 * The pathless child catches page errors inside the layout; the root one catches layout errors.
 * The pathless child also holds the HydrateFallback: on a deep link to a lazy page the router has
 * nothing to render until the page's code arrives, and shows it inside the layout meanwhile.
 * Lazy pages load through `importOrReload`: a chunk that cannot be downloaded reloads the page once,
 * then shows a readable error.
 */
export const appRoutes: RouteObject[] = [
  {
    path: '/',
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        errorElement: <RouteErrorPage />,
        hydrateFallbackElement: <PageLoading />,
        children: [
          { index: true, element: <Navigate to="/search" replace /> },
          { path: 'search', element: <SearchPage /> },
          { path: 'carriers/:dot', element: <Navigate to="overview" replace /> },
          {
            path: 'carriers/:dot/:tab',
            lazy: () =>
              importOrReload(() =>
                loadProfilePage().then((m) => ({
                  Component: m.ProfilePage,
                })),
              ),
          },
          {
            // Lazy like the profile: the search page's initial bundle carries only what it needs.
            path: 'monitoring',
            lazy: () =>
              importOrReload(() =>
                import('../features/monitoring/components/MonitoringPage.tsx').then((m) => ({
                  Component: m.MonitoringPage,
                })),
              ),
          },
          {
            path: 'decisions',
            lazy: () =>
              importOrReload(() =>
                import('../features/decisions/components/DecisionsPage.tsx').then((m) => ({
                  Component: m.DecisionsPage,
                })),
              ),
          },
          {
            path: 'decisions/:id',
            lazy: () =>
              importOrReload(() =>
                import('../features/decisions/components/DecisionRecordPage.tsx').then((m) => ({
                  Component: m.DecisionRecordPage,
                })),
              ),
          },
          {
            path: 'policy',
            lazy: () =>
              importOrReload(() =>
                import('../features/decisions/components/PolicyPage.tsx').then((m) => ({
                  Component: m.PolicyPage,
                })),
              ),
          },
          {
            path: 'tender-check',
            lazy: () =>
              importOrReload(() =>
                import('../features/tender/components/TenderCheckPage.tsx').then((m) => ({
                  Component: m.TenderCheckPage,
                })),
              ),
          },
          {
            path: 'tender-checks',
            lazy: () =>
              importOrReload(() =>
                import('../features/tender/components/TenderChecksPage.tsx').then((m) => ({
                  Component: m.TenderChecksPage,
                })),
              ),
          },
          {
            path: 'tender-checks/:id',
            lazy: () =>
              importOrReload(() =>
                import('../features/tender/components/TenderCheckRecordPage.tsx').then((m) => ({
                  Component: m.TenderCheckRecordPage,
                })),
              ),
          },
          {
            path: 'bulk',
            lazy: () =>
              importOrReload(() =>
                import('../features/bulk/components/BulkPage.tsx').then((m) => ({
                  Component: m.BulkPage,
                })),
              ),
          },
          {
            path: 'bulk/:id',
            lazy: () =>
              importOrReload(() =>
                import('../features/bulk/components/BulkJobPage.tsx').then((m) => ({
                  Component: m.BulkJobPage,
                })),
              ),
          },
          {
            path: 'compare',
            lazy: () =>
              importOrReload(() =>
                import('../features/compare/components/ComparePage.tsx').then((m) => ({
                  Component: m.ComparePage,
                })),
              ),
          },
          {
            path: 'settings/alerts',
            lazy: () =>
              importOrReload(() =>
                import('../features/alerts/components/AlertsPage.tsx').then((m) => ({
                  Component: m.AlertsPage,
                })),
              ),
          },
          {
            path: 'audit',
            lazy: () =>
              importOrReload(() =>
                import('../features/audit/components/AuditPage.tsx').then((m) => ({
                  Component: m.AuditPage,
                })),
              ),
          },
          {
            path: 'settings/tokens',
            lazy: () =>
              importOrReload(() =>
                import('../features/tokens/components/TokensPage.tsx').then((m) => ({
                  Component: m.TokensPage,
                })),
              ),
          },
          {
            path: 'usage',
            lazy: () =>
              importOrReload(() =>
                import('../features/usage/components/UsagePage.tsx').then((m) => ({
                  Component: m.UsagePage,
                })),
              ),
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
