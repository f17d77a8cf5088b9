/**
 * The audit log page against a real proxy (child process, real SQLite file) in trusted-header
 * mode: an API token's calls show the token's name, marked as a token, and so does the row of its
 * making; the user filter (as the API tokens page links it) shows only the token's rows; a viewer
 * sees why not and the page asks nothing.
 */
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { startSandboxProxy, type SandboxProxy } from '../../../test/sandbox-proxy.node.ts';
import { AuditPage } from './AuditPage.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });
const WAIT = { timeout: 15_000 };

let proxy: SandboxProxy;
/** who the next requests are from (the fronting proxy's headers) */
let current = { user: 'ann', role: 'admin' };
let tokenId = 0;
/** the Who cell of a token's row: its name, then the "API token" badge (its symbol is aria-hidden) */
const TOKEN_ACTOR = /^McLeod TMS.?API token$/;

function renderAt(path: string, role = 'admin') {
  current = { user: 'ann', role };
  renderApp(path, { routes: [{ path: '/audit', Component: AuditPage }] });
}

beforeAll(async () => {
  proxy = await startSandboxProxy({
    env: {
      PROXY_TEST_AUTH: JSON.stringify({
        kind: 'trusted-header',
        header: 'x-forwarded-user',
        trustedProxies: ['127.0.0.1'],
      }),
    },
  });
  const toProxy = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    headers.set('x-forwarded-user', current.user);
    headers.set('x-forwarded-role', current.role);
    return toProxy(input, { ...init, headers });
  });
  const made = await fetch('/api/local/tokens', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'carrier-desk' },
    body: JSON.stringify({ name: 'McLeod TMS', role: 'viewer', expires_in_days: 7 }),
  });
  expect(made.status).toBe(201);
  const { id, token } = (await made.json()) as { id: number; token: string };
  tokenId = id;
  // another system's call: the bearer is the user, whatever else the request carries
  const verdict = await fetch('/api/local/verdict?dot_number=568253', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(verdict.status).toBe(200);
});
afterEach(() => cleanup());
afterAll(async () => {
  await proxy.stop();
});

describe('the audit log page', () => {
  it("names an API token's calls and its making by the token's name", async () => {
    renderAt('/audit');
    const table = await screen.findByRole('table', { name: 'Audit log entries' }, WAIT);
    const call = within(table)
      .getAllByRole('row')
      .find((row) => row.textContent?.includes('GET profile'));
    expect(call).toBeDefined();
    const who = within(call!).getByRole('rowheader');
    expect(who.textContent).toMatch(TOKEN_ACTOR);
    expect(within(call!).getByText('DOT 568253')).toBeTruthy();
    const making = within(table).getByRole('row', { name: /POST \/api\/local\/tokens/ });
    expect(within(making).getByRole('rowheader').textContent).toBe('ann');
    expect(within(making).getByText('token McLeod TMS')).toBeTruthy();
    expect(within(making).getByText('201')).toBeTruthy();
  });

  it("shows only the token's rows when filtered by its user (the API tokens page's link)", async () => {
    const user = userEvent.setup();
    renderAt(`/audit?user=${encodeURIComponent(`token:${tokenId}:McLeod TMS`)}`);
    const table = await screen.findByRole('table', { name: 'Audit log entries' }, WAIT);
    expect(screen.getByRole('status').textContent).toMatch(/^\d+ entr(y|ies) by McLeod TMS$/);
    const who = within(table)
      .getAllByRole('rowheader')
      .map((cell) => cell.textContent);
    expect(who.length).toBeGreaterThan(0);
    for (const name of who) expect(name).toMatch(TOKEN_ACTOR);
    // the filter's field holds the user; emptied, everyone's rows come back
    const field = screen.getByRole('textbox', { name: 'User' });
    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await screen.findByRole('row', { name: /POST \/api\/local\/tokens/ }, WAIT);
  });

  it('a viewer sees why not, and the page asks nothing', async () => {
    proxy.calls.length = 0;
    renderAt('/audit', 'viewer');
    expect(
      await screen.findByText('Viewers cannot read the audit log — ask an admin.', undefined, WAIT),
    ).toBeTruthy();
    expect(proxy.calls.filter((call) => call.includes('/api/local/audit'))).toEqual([]);
  });
});
