/**
 * A tab switch while the next tab's code is still on its way: the current tab stays on screen (no
 * "Loading the … tab" fallback in its place), the clicked tab is marked busy, and the next tab
 * replaces the current one once its code is in. The Authority tab's code is held back by a gate
 * around its real loader; everything else is the real page against a real HTTP server.
 */
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { profileSummaryBody } from '../test/bodies.ts';
import type * as TabLoaders from './tab-loaders.ts';
import type { ProfileTabId as TabId } from './tabs/types.ts';

const gate = vi.hoisted(() => {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open: () => open() };
});

vi.mock('./tab-loaders.ts', async (importOriginal) => {
  const real = await importOriginal<typeof TabLoaders>();
  const authority = real.TAB_LOADERS.authority;
  return {
    ...real,
    TAB_LOADERS: { ...real.TAB_LOADERS, authority: () => gate.opened.then(authority) },
    // the page would otherwise render the Authority tab directly once a hover had preloaded it
    loadedTab: (tab: TabId) => (tab === 'authority' ? undefined : real.loadedTab(tab)),
  };
});

const CARRIER = {
  dot_number: '4418207',
  legal_name: 'SWIFTPATH EXPRESS LLC',
  docket: 'MC1612093',
  dot_age: '212',
  usdot_status: 'Active',
  snapshot_date: '2026-11-16',
  risk_factors: [{ fatal_crashes_flag: false, boc3_on_file: true }],
};

function answer(req: IncomingMessage, res: ServerResponse) {
  const dot = new URL(req.url ?? '/', 'http://x').searchParams.get('dot_number');
  const items = dot === CARRIER.dot_number ? [CARRIER] : [];
  res.writeHead(200, { 'content-type': 'application/json', 'x-cache': 'hit' });
  // every answer is the summary's (the profile page asks for nothing else before the tab switch)
  res.end(JSON.stringify(profileSummaryBody(items)));
}

let server: Server;

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    realFetch(new URL(String(input), baseUrl), init),
  );
});

afterAll(async () => {
  cleanup();
  vi.unstubAllGlobals();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it('keeps the current tab on screen, marked busy, until the next tab can draw', async () => {
  const { router } = renderApp('/carriers/4418207/overview');
  expect(
    await screen.findByRole('heading', { name: 'Risk factors' }, { timeout: 5000 }),
  ).toBeTruthy();
  const fallbacks: string[] = [];
  const observer = new MutationObserver(() => {
    const text = document.body.textContent ?? '';
    if (text.includes('Loading the Authority')) fallbacks.push(text);
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  try {
    const tabs = screen.getByRole('navigation', { name: 'Profile sections' });
    const authority = within(tabs).getByRole('link', { name: 'Authority & insurance' });
    await userEvent.click(authority);
    expect(router.state.location.pathname).toBe('/carriers/4418207/authority');
    // the code is held back: the overview is still shown and the clicked tab says it is busy
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.getByRole('heading', { name: 'Risk factors' })).toBeTruthy();
    expect(authority.getAttribute('aria-busy')).toBe('true');
    expect(authority.getAttribute('aria-current')).toBeNull();
    gate.open();
    expect(
      await screen.findByRole('heading', { name: 'Authority history' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Risk factors' })).toBeNull();
    expect(authority.getAttribute('aria-current')).toBe('page');
    expect(authority.getAttribute('aria-busy')).toBeNull();
    expect(fallbacks).toEqual([]);
  } finally {
    observer.disconnect();
  }
});
