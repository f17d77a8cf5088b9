/** Test helper: render one profile tab of a sandbox carrier with a query client and a router. */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ComponentType } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { carrierPath } from '../../../../../lib/carrier/paths.ts';
import { createQueryClient } from '../../../../../entities/query-client.ts';
import type { ParseIssue, Profile } from '../../../../../lib/service/index.ts';
import type { ProfileTabProps } from '../types.ts';

export interface TabCarrier {
  raw: unknown;
  parsed: { value: Profile; issues: ParseIssue[] };
}

export function renderTab(
  Tab: ComponentType<ProfileTabProps>,
  dot: string,
  carrier: TabCarrier,
  queryClient: QueryClient = createQueryClient(),
) {
  const path = carrierPath(dot, 'tab');
  const router = createMemoryRouter(
    [
      {
        path: '/carriers/:dot/tab',
        element: (
          <Tab
            dot={dot}
            profile={carrier.parsed.value}
            raw={carrier.raw}
            issues={carrier.parsed.issues}
          />
        ),
      },
      { path: '/carriers/:dot/overview', element: <p>overview page</p> },
    ],
    { initialEntries: [path] },
  );
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}

/** The carriers every tab is tested against: the curated ten plus the live-shape carrier. */
export function testedDots(curated: readonly string[]): string[] {
  return [...new Set([...curated, '265752'])];
}
