/**
 * Settings → API tokens against a real proxy (child process, real SQLite file) in trusted-header
 * mode, each request carrying the user and role a fronting proxy would assert: a viewer sees why
 * not and the page asks nothing; an admin makes a token (seen once, copied), finds it in the list
 * and revokes it after a confirm; a refused request (4xx) is read out in the proxy's words.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { startSandboxProxy, type SandboxProxy } from '../../../test/sandbox-proxy.node.ts';
import { TokensPage } from './TokensPage.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });
const WAIT = { timeout: 15_000 };

let proxy: SandboxProxy;
/** who the next requests are from (the fronting proxy's headers) */
let current = { user: 'ann', role: 'admin' };

function renderAs(user: string, role: string) {
  current = { user, role };
  renderApp('/settings/tokens', { routes: [{ path: '/settings/tokens', Component: TokensPage }] });
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
});
afterEach(() => cleanup());
afterAll(async () => {
  await proxy.stop();
});

describe('the API tokens page', () => {
  it('a viewer sees why not, and the page asks for no token', async () => {
    proxy.calls.length = 0;
    renderAs('vic', 'viewer');
    expect(
      await screen.findByText('Viewers cannot manage API tokens — ask an admin.', undefined, WAIT),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create token' })).toBeNull();
    expect(proxy.calls.filter((call) => call.includes('/api/local/tokens'))).toEqual([]);
  });

  it('an admin makes a token, sees it once, copies it, finds it listed and revokes it', async () => {
    const user = userEvent.setup();
    renderAs('ann', 'admin');
    await screen.findByText('No tokens yet.', undefined, WAIT);

    // nothing is sent while the form is wrong
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(
      screen.getByText('Name the system that will use the token, e.g. McLeod TMS.'),
    ).toBeTruthy();
    const days = screen.getByRole('spinbutton', { name: 'Expires after (days)' });
    await user.clear(days);
    await user.type(days, '400');
    expect(screen.getByText('A whole number of days from 1 to 365 (a year at most).')).toBeTruthy();
    expect(proxy.calls.filter((call) => call.startsWith('POST /api/local/tokens'))).toEqual([]);

    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'McLeod TMS');
    await user.click(screen.getByRole('radio', { name: /^Analyst/ }));
    await user.click(screen.getByRole('button', { name: '30 days' }));
    expect(screen.getByRole('button', { name: '30 days' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await user.click(screen.getByRole('button', { name: 'Create token' }));

    const secret = await screen.findByRole('region', { name: 'Token made for McLeod TMS' }, WAIT);
    expect(within(secret).getByText(/you will not see this token again/)).toBeTruthy();
    const field = within(secret).getByRole('textbox', { name: 'The token' }) as HTMLInputElement;
    expect(field.readOnly).toBe(true);
    expect(field.value).toMatch(/^cdk_[A-Za-z0-9_-]{43}$/);
    await user.click(within(secret).getByRole('button', { name: 'Copy token' }));
    expect(await within(secret).findByText('Copied to the clipboard.')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(field.value);

    // the list: the prefix, who made it, never used, active
    const table = await screen.findByRole('table', { name: 'API tokens' }, WAIT);
    const row = within(table).getByRole('row', { name: /McLeod TMS/ });
    expect(within(row).getByText(`${field.value.slice(0, 12)}…`)).toBeTruthy();
    expect(within(row).getByText('Analyst')).toBeTruthy();
    expect(within(row).getByText('by ann')).toBeTruthy();
    expect(within(row).getByText('Never')).toBeTruthy();
    expect(within(row).getByText('Active')).toBeTruthy();
    // its calls: the audit log filtered by the token's user
    const calls = within(row).getByRole('link', { name: 'Calls of McLeod TMS in the audit log' });
    const target = new URL(calls.getAttribute('href') ?? '', 'http://x');
    expect(target.pathname).toBe('/audit');
    expect(target.searchParams.get('user')).toMatch(/^token:\d+:McLeod TMS$/);

    // Done: the token is gone from the page for good, the form is back
    await user.click(within(secret).getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue(field.value)).toBeNull();
    expect(screen.getByRole('button', { name: 'Create token' })).toBeTruthy();

    // revoke, after a confirm that a cancel leaves alone
    await user.click(within(row).getByRole('button', { name: 'Revoke McLeod TMS' }));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Revoke McLeod TMS?' })).getByRole('button', {
        name: 'Cancel',
      }),
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await user.click(within(row).getByRole('button', { name: 'Revoke McLeod TMS' }));
    await user.click(screen.getByRole('button', { name: 'Revoke token' }));
    expect(
      await screen.findByText(
        'Revoked McLeod TMS: requests with it are refused from now on.',
        undefined,
        WAIT,
      ),
    ).toBeTruthy();
    await waitFor(() => {
      const revoked = within(screen.getByRole('table', { name: 'API tokens' })).getByRole('row', {
        name: /McLeod TMS/,
      });
      expect(within(revoked).getByText('Revoked')).toBeTruthy();
      // made by ann, revoked by ann
      expect(within(revoked).getAllByText(/by ann$/)).toHaveLength(2);
      expect(within(revoked).queryByRole('button', { name: /^Revoke/ })).toBeNull();
    }, WAIT);
  });

  it('is in the main navigation, and the link opens the page', async () => {
    const user = userEvent.setup();
    current = { user: 'ann', role: 'admin' };
    renderApp('/search');
    const nav = await screen.findByRole('navigation', { name: 'Main' }, WAIT);
    const link = within(nav).getByRole('link', { name: 'API tokens' });
    expect(link.getAttribute('href')).toBe('/settings/tokens');
    await user.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: 'API tokens' }, WAIT)).toBeTruthy();
  });

  it('a refused request is read out in the proxy’s words', async () => {
    const user = userEvent.setup();
    renderAs('ann', 'admin');
    await screen.findByRole('table', { name: 'API tokens' }, WAIT);
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'ERP');
    // the admin is demoted while the page is open: the proxy refuses (403 forbidden_role)
    current = { user: 'ann', role: 'analyst' };
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    const form = screen.getByRole('region', { name: 'New token' });
    const alert = await within(form).findByRole('alert', undefined, WAIT);
    expect(alert.textContent).toContain('This needs the admin role (you are an analyst)');
    expect(alert.textContent).toContain('Ask an admin to give your account the admin role.');
    expect(screen.queryByRole('region', { name: /^Token made for/ })).toBeNull();
  });
});
