import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readRecentCarriers } from '../../../lib/recent.ts';
import { renderApp } from '../../../test/render-app.tsx';

const CARRIER = {
  dot_number: '4418207',
  legal_name: 'SWIFTPATH EXPRESS LLC',
  docket: 'MC1612093',
  dot_age: '212',
  usdot_status: 'Active',
  indicator_insurance: null,
  snapshot_date: '2026-11-16',
  risk_factors: [{ fatal_crashes_flag: false, boc3_on_file: true }],
};

/** What the fake proxy saw: each profile request's DOT and cache-control header. */
const seen: { dot: string | null; cacheControl: string | undefined }[] = [];

function answer(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://x');
  const dot = url.searchParams.get('dot_number');
  if (url.pathname === '/api/v2/profile')
    seen.push({ dot, cacheControl: req.headers['cache-control'] });
  const fresh = req.headers['cache-control'] === 'no-cache';
  const items = dot === CARRIER.dot_number ? [CARRIER] : [];
  res.writeHead(200, {
    'content-type': 'application/json',
    'x-cache': fresh ? 'miss' : 'hit',
    'x-fetched-at': new Date(Date.now() - (fresh ? 0 : 5 * 60_000)).toISOString(),
  });
  res.end(JSON.stringify({ items, total_count: items.length }));
}

let server: Server;
let baseUrl = '';

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const realFetch = globalThis.fetch;
  // The SPA calls its own origin; in the test that origin is this real server.
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    realFetch(new URL(String(input), baseUrl), init),
  );
});

afterEach(() => {
  cleanup();
  seen.length = 0;
  localStorage.clear();
});

afterAll(async () => {
  vi.unstubAllGlobals();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('ProfilePage', () => {
  it('shows identity, badges, freshness and the tab bar, and remembers the carrier', async () => {
    renderApp('/carriers/4418207/overview');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'SWIFTPATH EXPRESS LLC' }),
    ).toBeTruthy();
    const status = screen.getByRole('list', { name: 'Status' });
    expect(within(status).getByText('212 days')).toBeTruthy();
    expect(within(status).getByText('Insurance:').nextSibling?.textContent).toBe('Not applicable');
    expect(within(status).getByText('Not scored')).toBeTruthy();
    expect(screen.getByTestId('fetched-at').textContent).toBe('Fetched 5 min ago, from cache');
    const tabs = screen.getByRole('navigation', { name: 'Profile sections' });
    expect(within(tabs).getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await screen.findByRole('heading', { name: 'Risk factors' })).toBeTruthy();
    expect(readRecentCarriers().map((carrier) => carrier.dot)).toEqual(['4418207']);
  });

  it('switches tabs through links and keeps the header', async () => {
    const { router } = renderApp('/carriers/4418207/overview');
    const tabs = await screen.findByRole('navigation', { name: 'Profile sections' });
    await userEvent.click(within(tabs).getByRole('link', { name: 'Authority & insurance' }));
    expect(router.state.location.pathname).toBe('/carriers/4418207/authority');
    expect(await screen.findByRole('heading', { name: 'Authority history' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'SWIFTPATH EXPRESS LLC' })).toBeTruthy();
    expect(seen).toHaveLength(1);
  });

  it('refreshes past the proxy cache and says the data is fresh', async () => {
    renderApp('/carriers/4418207/overview');
    await userEvent.click(await screen.findByRole('button', { name: 'Refresh' }));
    await waitFor(() =>
      expect(screen.getByTestId('fetched-at').textContent).toBe(
        'Fetched just now, fresh from the service',
      ),
    );
    expect(seen.map((request) => request.cacheControl)).toEqual([undefined, 'no-cache']);
  });

  it('says so when the service knows no carrier with the DOT', async () => {
    renderApp('/carriers/123/overview');
    expect(await screen.findByRole('heading', { name: 'No carrier with DOT 123' })).toBeTruthy();
  });

  it('answers an invalid DOT or tab with a readable not-found, without calling the proxy', async () => {
    const { unmount } = renderApp('/carriers/abc/overview');
    expect(await screen.findByRole('heading', { name: 'Not a USDOT number' })).toBeTruthy();
    unmount();
    renderApp('/carriers/4418207/nonsense');
    expect(await screen.findByRole('heading', { name: 'No such profile section' })).toBeTruthy();
    expect(screen.getByRole('link', { name: "Go to the carrier's overview" })).toBeTruthy();
    expect(seen).toEqual([]);
  });
});
