import './lib/zod-config.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './app/providers.tsx';
import { prefetchForPath, setPrefetchClient } from './app/profile-prefetch.ts';
import { appRoutes } from './app/routes.tsx';
import { prefetchSearchParts } from './features/search/lazy-parts.ts';
import { whenIdle } from './lib/idle.ts';
import { createQueryClient } from './entities/query-client.ts';
import './index.css';

const rootElement = document.getElementById('root');
if (rootElement === null) throw new Error('index.html must contain <div id="root">');

const queryClient = createQueryClient();
setPrefetchClient(queryClient);
// A profile's first data travels beside its page's code: on a deep link, and on a navigation that
// waits for that code (the router's pending location).
prefetchForPath(window.location.pathname);
const router = createBrowserRouter(appRoutes);
router.subscribe((state) => {
  if (state.navigation.location) prefetchForPath(state.navigation.location.pathname);
});

createRoot(rootElement).render(
  <StrictMode>
    <AppProviders queryClient={queryClient} config={{ mode: undefined }}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);

// The search page's lazy parts (parsers, results), fetched once its first paint is done. Any other
// first page leaves them to the omnibox's first focus (or the search page itself), so they never
// compete with that page's own code and data, nor with the user's first clicks there.
if (window.location.pathname === '/' || window.location.pathname.startsWith('/search')) {
  whenIdle(prefetchSearchParts);
}
