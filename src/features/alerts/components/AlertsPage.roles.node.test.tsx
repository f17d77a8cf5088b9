/**
 * The Alerts page by role, against a real proxy (child process, real SQLite file) in
 * trusted-header mode: each request carries the user and role a fronting proxy would assert. A
 * viewer (an analyst demoted, who still has subscriptions) sees each subscription's Test and
 * Remove disabled with the reason; an analyst sees only their own, usable; an admin sees the
 * other people's under their own heading, each named by its owner, and removes one. Webhooks go to
 * a closed port on loopback, allowed by ALERT_WEBHOOK_HOSTS: nothing leaves the machine.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SubscriptionInput } from '../../../lib/alerts/contract.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { startSandboxProxy, type SandboxProxy } from '../../../test/sandbox-proxy.node.ts';
import { AlertsPage } from './AlertsPage.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });
const WAIT = { timeout: 15_000 };

let proxy: SandboxProxy;
/** who the next requests are from (the fronting proxy's headers) */
let current = { user: 'al', role: 'analyst' };

async function subscribe(user: string, target: string): Promise<void> {
  current = { user, role: 'analyst' };
  const answer = await fetch('/api/local/alerts/subscriptions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'carrier-desk' },
    body: JSON.stringify({
      kind: 'webhook',
      target,
      channels: ['authority'],
      severity: 'all',
      schedule: 'immediate',
    } satisfies SubscriptionInput),
  });
  expect(answer.status).toBe(201);
}

function renderAs(user: string, role: string) {
  current = { user, role };
  renderApp('/settings/alerts', { routes: [{ path: '/settings/alerts', Component: AlertsPage }] });
}

beforeAll(async () => {
  proxy = await startSandboxProxy({
    env: {
      PROXY_TEST_ALERTS: JSON.stringify({
        pollIntervalSeconds: 0,
        emailTo: [],
        webhookSecret: 'whsec_test_0123456789abcdef',
        webhookHosts: ['127.0.0.1:9'],
      }),
      PROXY_TEST_AUTH: JSON.stringify({
        kind: 'trusted-header',
        header: 'x-forwarded-user',
        trustedProxies: ['127.0.0.1'],
      }),
    },
  });
  // the page's calls go through the proxy's fetch; each carries the current user and role
  const toProxy = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    headers.set('x-forwarded-user', current.user);
    headers.set('x-forwarded-role', current.role);
    return toProxy(input, { ...init, headers });
  });
  await subscribe('al', 'http://127.0.0.1:9/al-hook');
  await subscribe('bo', 'http://127.0.0.1:9/bo-hook');
});
afterEach(() => cleanup());
afterAll(async () => {
  await proxy.stop();
});

describe('the Alerts page by role', () => {
  it('a viewer sees their subscription’s Test and Remove disabled, with the reason', async () => {
    renderAs('al', 'viewer');
    const mine = await screen.findByRole('region', { name: 'Your subscriptions' }, WAIT);
    await within(mine).findByText('Webhook: http://127.0.0.1:9/al-hook', undefined, WAIT);
    const reason = 'Viewers cannot manage alert subscriptions — ask an admin.';
    for (const name of [/^Test/, /^Remove/]) {
      const button = within(mine).getByRole('button', { name });
      await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(true), WAIT);
      const note = document.getElementById(button.getAttribute('aria-describedby') ?? '');
      expect(note?.textContent).toBe(reason);
    }
    expect(screen.queryByRole('region', { name: 'Other people’s subscriptions' })).toBeNull();
  });

  it('an analyst sees only their own subscriptions, and may test and remove them', async () => {
    renderAs('bo', 'analyst');
    const mine = await screen.findByRole('region', { name: 'Your subscriptions' }, WAIT);
    await within(mine).findByText('Webhook: http://127.0.0.1:9/bo-hook', undefined, WAIT);
    expect(screen.queryByText(/al-hook/)).toBeNull();
    for (const name of [/^Test/, /^Remove/]) {
      expect((within(mine).getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(
        false,
      );
    }
    expect(screen.queryByRole('region', { name: 'Other people’s subscriptions' })).toBeNull();
  });

  it('an admin sees the other people’s subscriptions by owner, and removes one', async () => {
    const user = userEvent.setup();
    renderAs('ann', 'admin');
    const others = await screen.findByRole(
      'region',
      { name: 'Other people’s subscriptions' },
      WAIT,
    );
    // another user's webhook is shown as its origin only
    expect(within(others).getByText('al’s subscription')).toBeTruthy();
    expect(within(others).getByText('bo’s subscription')).toBeTruthy();
    expect(within(others).getAllByText('Webhook: http://127.0.0.1:9/…')).toHaveLength(2);
    expect(
      within(screen.getByRole('region', { name: 'Your subscriptions' })).getByText(
        'You have no subscription yet.',
      ),
    ).toBeTruthy();
    const removes = within(others).getAllByRole('button', { name: /^Remove/ });
    expect(removes.map((button) => (button as HTMLButtonElement).disabled)).toEqual([false, false]);
    await user.click(removes[1]!);
    await waitFor(() => expect(within(others).queryByText('bo’s subscription')).toBeNull(), WAIT);
    expect(within(others).getByText('al’s subscription')).toBeTruthy();
  });
});
