import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readRecentCarriers } from '../../../lib/recent.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { errorBody } from '../../../test/error-body.ts';
import { profileSummaryBody } from '../test/bodies.ts';

/** A tab's first render loads its lazy chunk: allow for a busy machine. */
const LAZY = { timeout: 5000 };

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

/** What only the full profile has: the proxy's summary leaves the long histories out. */
const HISTORY = {
  inspection_history: [{ report_number: 'TX0001', insp_date: '2026-10-01', report_state: 'TX' }],
};

/** What the fake proxy saw: each full-profile request's DOT and cache-control header. */
const seen: { dot: string | null; cacheControl: string | undefined }[] = [];
/** The path of every profile or summary request, in order. */
const paths: string[] = [];
/** While set, full-profile answers wait for it; the summary is answered at once. */
let fullProfileGate: Promise<void> | undefined;
/** A failure to answer full-profile requests with, instead of the profile. */
let fullProfileFailure: { status: number; body: unknown } | undefined;
/** Answer summaries as a proxy without a profile cache does: 409, no summary. */
let summaryUnavailable = false;

function answer(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname.includes('profile')) paths.push(url.pathname);
  if (summaryUnavailable && url.pathname === '/api/local/profile-summary') {
    res.writeHead(409, { 'content-type': 'application/json' });
    res.end(JSON.stringify(errorBody('summary_unavailable', 'No summary', 'Cache off.')));
    return;
  }
  if (url.pathname !== '/api/v2/profile') return sendProfile(req, res, false);
  seen.push({
    dot: url.searchParams.get('dot_number'),
    cacheControl: req.headers['cache-control'],
  });
  void (fullProfileGate ?? Promise.resolve()).then(() => {
    if (!fullProfileFailure) return sendProfile(req, res, true);
    res.writeHead(fullProfileFailure.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(fullProfileFailure.body));
  });
}

function sendProfile(req: IncomingMessage, res: ServerResponse, full: boolean) {
  const dot = new URL(req.url ?? '/', 'http://x').searchParams.get('dot_number');
  if (!full && dot !== CARRIER.dot_number) {
    // as the proxy answers the summary of a DOT the service knows no carrier with
    res.writeHead(404, { 'content-type': 'application/json' });
    const missing = `The data service has no carrier with DOT ${dot}`;
    res.end(JSON.stringify(errorBody('unknown_dot', missing, 'Check the DOT number.')));
    return;
  }
  const fresh = req.headers['cache-control'] === 'no-cache';
  const items = dot === CARRIER.dot_number ? [full ? { ...CARRIER, ...HISTORY } : CARRIER] : [];
  res.writeHead(200, {
    'content-type': 'application/json',
    'x-cache': fresh ? 'miss' : 'hit',
    'x-fetched-at': new Date(Date.now() - (fresh ? 0 : 5 * 60_000)).toISOString(),
  });
  // the summary as the proxy's contract has it; the full profile is the service's envelope
  res.end(JSON.stringify(full ? { items, total_count: items.length } : profileSummaryBody(items)));
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
  paths.length = 0;
  fullProfileGate = undefined;
  fullProfileFailure = undefined;
  summaryUnavailable = false;
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
    // The first render loads the lazy profile page and its tab: allow for a busy machine.
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'SWIFTPATH EXPRESS LLC' },
        { timeout: 5000 },
      ),
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
    expect(await screen.findByRole('heading', { name: 'Authority history' }, LAZY)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'SWIFTPATH EXPRESS LLC' })).toBeTruthy();
    // both tabs draw from the summary: the full profile is never asked for
    expect(seen).toHaveLength(0);
    expect(paths).not.toContain('/api/v2/profile');
  });

  it('refreshes past the proxy cache and says the data is fresh', async () => {
    renderApp('/carriers/4418207/overview');
    await userEvent.click(await screen.findByRole('button', { name: 'Refresh' }));
    await waitFor(() =>
      expect(screen.getByTestId('fetched-at').textContent).toBe(
        'Fetched just now, fresh from the service',
      ),
    );
    // the refresh is the one full-profile request (billed, past the cache); the page asked none
    expect(seen.map((request) => request.cacheControl)).toEqual(['no-cache']);
    expect(paths.filter((path) => path === '/api/local/profile-summary')).toHaveLength(2);
  });

  it('says so when the service knows no carrier with the DOT', async () => {
    renderApp('/carriers/123/overview');
    expect(await screen.findByRole('heading', { name: 'No carrier with DOT 123' })).toBeTruthy();
    // the summary's 404 unknown_dot says it all: no full profile, no second summary
    expect(paths).toEqual(['/api/local/profile-summary']);
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

  it('draws the overview from the summary alone; the Raw tab fetches the full profile', async () => {
    let release = () => {};
    fullProfileGate = new Promise((resolve) => (release = resolve));
    const { container } = renderApp('/carriers/4418207/overview');
    expect(await screen.findByRole('heading', { name: 'Risk factors' }, LAZY)).toBeTruthy();
    expect(seen).toHaveLength(0);
    expect(paths).toContain('/api/local/profile-summary');
    expect(paths).not.toContain('/api/v2/profile');
    expect(container.querySelector('[data-full-profile]')?.getAttribute('data-full-profile')).toBe(
      'absent',
    );
    const tabs = screen.getByRole('navigation', { name: 'Profile sections' });
    await userEvent.click(within(tabs).getByRole('link', { name: 'Raw' }));
    expect(await screen.findByText('Loading the Raw tab…')).toBeTruthy();
    expect(seen).toHaveLength(1);
    release();
    await userEvent.click(await screen.findByRole('button', { name: /root/ }));
    expect(screen.getByRole('button', { name: /inspection_history/ })).toBeTruthy();
    expect(seen).toHaveLength(1);
  });

  it('draws every tab from the full profile when the proxy cuts no summary (409)', async () => {
    summaryUnavailable = true;
    const { container, router } = renderApp('/carriers/4418207/overview');
    expect(
      await screen.findByRole('heading', { name: 'Risk factors' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(seen).toHaveLength(1);
    expect(
      container.querySelector('[data-profile-source]')?.getAttribute('data-profile-source'),
    ).toBe('full');
    await router.navigate('/carriers/4418207/inspections');
    // the history from the full profile, not a request for the proxy's views
    expect(await screen.findByRole('table', { name: 'Inspections: 1' }, LAZY)).toBeTruthy();
    expect(paths).not.toContain('/api/local/profile-view');
  });

  it('keeps the summary tabs when the full profile fails, and says so on the Raw tab', async () => {
    fullProfileFailure = {
      status: 400,
      body: { error: 'Refused', code: 'invalid_dot_number', hint: 'Try again later.' },
    };
    const { router } = renderApp('/carriers/4418207/overview');
    expect(await screen.findByRole('heading', { name: 'Risk factors' })).toBeTruthy();
    await router.navigate('/carriers/4418207/raw');
    expect(await screen.findByText('The request was not accepted', {}, LAZY)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'SWIFTPATH EXPRESS LLC' })).toBeTruthy();
  });
});
