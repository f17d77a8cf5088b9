import { render, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import type { AppConfig } from '../app/app-config.tsx';
import { AppProviders } from '../app/providers.tsx';
import { appRoutes } from '../app/routes.tsx';
import { createQueryClient } from '../entities/query-client.ts';

interface RenderAppOptions {
  config?: AppConfig;
  routes?: RouteObject[];
}

/** Mounts the real route tree and providers at `path`, with a fresh query client per call. */
export function renderApp(path: string, options: RenderAppOptions = {}) {
  const router = createMemoryRouter(options.routes ?? appRoutes, { initialEntries: [path] });
  const result: RenderResult = render(
    <AppProviders queryClient={createQueryClient()} config={options.config ?? { mode: undefined }}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router };
}
