import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../entities/query-client.ts';
import { AppProviders } from './providers.tsx';
import { readProxyConfig } from './proxy-config.ts';
import { appRoutes } from './routes.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('readProxyConfig', () => {
  it('reads the mode and the budget of a proxy answer', () => {
    expect(readProxyConfig({ mode: 'live', budgetUsd: 250, auth: 'none', prices: [] })).toEqual({
      mode: 'live',
      budgetUsd: 250,
    });
    expect(readProxyConfig({ mode: 'sandbox', budgetUsd: null })).toEqual({
      mode: 'sandbox',
      budgetUsd: undefined,
    });
  });

  it('reads whether the proxy cuts profile summaries', () => {
    expect(readProxyConfig({ mode: 'live', profileSummaries: true }).profileSummaries).toBe(true);
    expect(readProxyConfig({ mode: 'live', profileSummaries: false }).profileSummaries).toBe(false);
    expect(readProxyConfig({ mode: 'live', profileSummaries: 'yes' })).toEqual({
      mode: 'live',
      budgetUsd: undefined,
    });
  });

  it('treats unknown or malformed fields as unknown', () => {
    expect(readProxyConfig({ mode: 'staging', budgetUsd: '25' })).toEqual({
      mode: undefined,
      budgetUsd: undefined,
    });
    expect(readProxyConfig({ mode: 'test', budgetUsd: -5 }).budgetUsd).toBeUndefined();
    expect(readProxyConfig({ mode: 'live', budgetUsd: 0 }).budgetUsd).toBeUndefined();
    expect(readProxyConfig(['live'])).toEqual({ mode: undefined });
    expect(readProxyConfig('<html>')).toEqual({ mode: undefined });
    expect(readProxyConfig(null)).toEqual({ mode: undefined });
  });
});

const CONFIG_URL = '/api/local/config';

/**
 * A fetch stub that answers `/api/local/config` with `status` and `body` (other calls of the shell,
 * such as the inbox badge's, get a 404) and records the calls.
 */
function stubFetch(status: number, body: unknown) {
  const fetchStub = vi.fn((url: string, _init?: RequestInit) =>
    Promise.resolve(
      url === CONFIG_URL
        ? new Response(JSON.stringify(body), {
            status,
            headers: { 'content-type': 'application/json' },
          })
        : new Response(JSON.stringify({ error: 'No route', code: 'not_found' }), { status: 404 }),
    ),
  );
  vi.stubGlobal('fetch', fetchStub);
  return fetchStub;
}

function configCalls(fetchStub: ReturnType<typeof stubFetch>): number {
  return fetchStub.mock.calls.filter(([url]) => url === CONFIG_URL).length;
}

/** The shell on a page that reads nothing itself (the search form asks for prices separately). */
const SHELL_ONLY = '/no-such-page';

function renderShell() {
  const router = createMemoryRouter(appRoutes, { initialEntries: [SHELL_ONLY] });
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

describe('the mode banner fed from /api/local/config', () => {
  it('shows the mode the proxy reports', async () => {
    const fetchStub = stubFetch(200, { mode: 'sandbox', budgetUsd: null, auth: 'none' });
    renderShell();
    const banner = await screen.findByRole('note', { name: 'Service mode' });
    expect(banner.textContent).toBe('Sandbox — fictional data, nothing is billed');
    expect(configCalls(fetchStub)).toBe(1);
  });

  it('shows the live budget', async () => {
    stubFetch(200, { mode: 'live', budgetUsd: 99.5 });
    renderShell();
    const banner = await screen.findByRole('note', { name: 'Service mode' });
    expect(banner.textContent).toContain('monthly budget $99.50');
  });

  it.each([
    ['an unknown mode', 200, { mode: 'staging' }],
    ['a failed request', 404, { error: 'No route', code: 'not_found' }],
  ])('shows no banner and logs nothing for %s', async (_case, status, body) => {
    const consoleError = vi.spyOn(console, 'error');
    const fetchStub = stubFetch(status, body);
    renderShell();
    await waitFor(() => expect(configCalls(fetchStub)).toBe(1));
    await screen.findByRole('heading', { level: 1, name: 'Page not found' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('note', { name: 'Service mode' })).toBeNull();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('keeps a pinned mode without asking the proxy', () => {
    const fetchStub = stubFetch(200, { mode: 'live' });
    const router = createMemoryRouter(appRoutes, { initialEntries: [SHELL_ONLY] });
    render(
      <AppProviders queryClient={createQueryClient()} config={{ mode: 'test' }}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    expect(screen.getByRole('note', { name: 'Service mode' }).textContent).toMatch(/^Test mode/);
    expect(configCalls(fetchStub)).toBe(0);
  });
});
