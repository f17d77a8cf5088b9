/**
 * The Alerts page against a real proxy (child process, real SQLite file) whose alerts are bounded
 * (issue 31, item 4): two subscriptions at most, one "send test" a minute per destination. The
 * refusals are read out in the server's words with what to do, not as a data-service rate limit.
 * The webhook goes to a closed port on loopback, allowed by ALERT_WEBHOOK_HOSTS: nothing leaves
 * the machine.
 */
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { startSandboxProxy, type SandboxProxy } from '../../../test/sandbox-proxy.node.ts';
import { AlertsPage } from './AlertsPage.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });
const WAIT = { timeout: 15_000 };

let proxy: SandboxProxy;

beforeAll(async () => {
  proxy = await startSandboxProxy({
    env: {
      PROXY_TEST_ALERTS: JSON.stringify({
        pollIntervalSeconds: 0,
        emailTo: [],
        webhookSecret: 'whsec_test_0123456789abcdef',
        webhookHosts: ['127.0.0.1:9'],
        maxSubscriptionsPerUser: 2,
      }),
    },
  });
});
afterAll(async () => {
  cleanup();
  await proxy.stop();
});

describe('the Alerts page, bounded', () => {
  it('says when the subscriptions are at the limit and when a test comes too soon', async () => {
    const user = userEvent.setup();
    renderApp('/settings/alerts', {
      routes: [{ path: '/settings/alerts', Component: AlertsPage }],
    });
    expect(
      await screen.findByText('You have 0 of at most 2 subscriptions.', undefined, WAIT),
    ).toBeTruthy();
    const url = screen.getByRole('textbox', { name: 'Webhook URL' });
    for (const n of [1, 2, 3]) {
      await user.type(url, `http://127.0.0.1:9/hook/${n}`);
      await user.click(screen.getByRole('button', { name: 'Subscribe' }));
      if (n < 3) await screen.findByText(`Webhook: http://127.0.0.1:9/hook/${n}`, undefined, WAIT);
    }
    const refused = await screen.findByRole('alert', undefined, WAIT);
    expect(refused.textContent).toContain(
      'You have 2 alert subscriptions, the most one person may have on this server',
    );
    expect(refused.textContent).toContain('Remove one you no longer need');
    expect(
      screen.getByText(
        'You have 2 subscriptions, the most one person may have here: remove one to add another.',
      ),
    ).toBeTruthy();

    const subscriptions = screen.getByRole('region', { name: 'Your subscriptions' });
    const [test] = within(subscriptions).getAllByRole('button', { name: /^Test/ });
    await user.click(test!);
    expect(
      await within(subscriptions).findByText('1 test delivery queued.', undefined, WAIT),
    ).toBeTruthy();
    await user.click(test!);
    const tooSoon = await within(subscriptions).findByRole('alert', undefined, WAIT);
    expect(tooSoon.textContent).toMatch(
      /A test alert was sent to this destination less than a minute ago; the next one can go in \d+ s/,
    );
    expect(tooSoon.textContent).toContain('One test alert a minute per destination');
    expect(tooSoon.textContent).not.toContain('data service');
  });
});
