import './lib/zod-config.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './app/providers.tsx';
import { appRoutes } from './app/routes.tsx';
import { prefetchSearchParts } from './features/search/lazy-parts.ts';
import { whenIdle } from './lib/idle.ts';
import { createQueryClient } from './lib/query-policy.ts';
import './index.css';

const rootElement = document.getElementById('root');
if (rootElement === null) throw new Error('index.html must contain <div id="root">');

const queryClient = createQueryClient();
const router = createBrowserRouter(appRoutes);

createRoot(rootElement).render(
  <StrictMode>
    <AppProviders queryClient={queryClient} config={{ mode: undefined }}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);

// The search page's lazy parts (parsers, results), fetched once the first paint is done.
whenIdle(prefetchSearchParts);
