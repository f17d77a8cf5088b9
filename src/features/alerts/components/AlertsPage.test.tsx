/**
 * The Alerts page against a stubbed proxy: the subscription form sends what was chosen (channels,
 * severity, a daily digest at a local time in the browser's zone), and a failed delivery shows its
 * error and is sent again by its id.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Delivery, SubscriptionInput } from '../../../lib/alerts/contract.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { deliveryAnswer, overviewAnswer, pollAnswer, subscriptionAnswer } from '../test/answers.ts';
import { AlertsPage } from './AlertsPage.tsx';

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const OVERVIEW = overviewAnswer();

const FAILED = deliveryAnswer({
  state: 'failed',
  attempts: 12,
  last_error: 'The receiver answered HTTP 503',
  delivered_at: null,
});

interface Call {
  method: string;
  url: string;
  body: unknown;
}

function serve(deliveries: Delivery[] = [FAILED]) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', (input: string, init: RequestInit = {}) => {
    const call = {
      method: init.method ?? 'GET',
      url: String(input),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    if (call.url === '/api/local/alerts') return Promise.resolve(Response.json(OVERVIEW));
    if (call.url === '/api/local/alerts/deliveries') {
      return Promise.resolve(Response.json({ deliveries }));
    }
    if (call.url === '/api/local/alerts/subscriptions') {
      const body = call.body as SubscriptionInput;
      return Promise.resolve(Response.json(subscriptionAnswer(body), { status: 201 }));
    }
    if (call.url.endsWith('/resend')) return Promise.resolve(Response.json(FAILED));
    if (call.url === '/api/local/alerts/poll') {
      return Promise.resolve(
        Response.json(pollAnswer({ deliveries_queued: 1, standing_announced: 1 })),
      );
    }
    return Promise.resolve(Response.json({ error: 'no', code: 'not_found' }, { status: 404 }));
  });
  return calls;
}

describe('the Alerts page', () => {
  it('subscribes with the chosen channels, severity and daily time', async () => {
    const user = userEvent.setup();
    const calls = serve();
    renderApp('/settings/alerts', {
      routes: [{ path: '/settings/alerts', Component: AlertsPage }],
    });
    await user.type(
      await screen.findByRole('textbox', { name: /E-mail addresses/ }),
      'ops@example.com',
    );
    await user.click(screen.getByRole('checkbox', { name: 'Contact' }));
    await user.click(screen.getByRole('checkbox', { name: 'Risk' }));
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Severity' }),
      'Approved carriers that now fail policy',
    );
    await user.click(screen.getByRole('radio', { name: 'Daily digest' }));
    const time = screen.getByLabelText(/Local time/);
    await user.clear(time);
    await user.type(time, '07:30');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url === '/api/local/alerts/subscriptions')?.body).toEqual({
        kind: 'email',
        target: 'ops@example.com',
        channels: ['insurance', 'authority', 'safety', 'fleet'],
        severity: 'fails',
        schedule: 'daily',
        digest_time: '07:30',
        time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      }),
    );
  });

  it('shows a failed delivery with its error and sends it again by id', async () => {
    const user = userEvent.setup();
    const calls = serve();
    renderApp('/settings/alerts', {
      routes: [{ path: '/settings/alerts', Component: AlertsPage }],
    });
    expect(await screen.findByText('The receiver answered HTTP 503')).toBeTruthy();
    expect(screen.getByRole('cell', { name: /^Failed \(12 attempts\)/ })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Send again/ }));
    await waitFor(() =>
      expect(
        calls.some(
          (c) => c.method === 'POST' && c.url === '/api/local/alerts/deliveries/d-1/resend',
        ),
      ).toBe(true),
    );
  });

  it('names each delivery by its subject: the worst news and whose it is', async () => {
    const standing = deliveryAnswer({
      id: 'd-2',
      type: 'standing',
      state: 'delivered',
      attempts: 1,
      last_error: null,
      carriers: 0,
      changes: 0,
      summary:
        'Approved carrier now fails policy v3 — IRONCLAD FREIGHT SYSTEMS INC (USDOT 2214589)',
    });
    const changes = deliveryAnswer({
      ...FAILED,
      id: 'd-3',
      summary:
        'Authority revoked — SWIFTPATH EXPRESS LLC (USDOT 4418207) · 5 changes on 2 carriers',
    });
    serve([standing, changes]);
    renderApp('/settings/alerts', {
      routes: [{ path: '/settings/alerts', Component: AlertsPage }],
    });
    expect(
      await screen.findByRole('cell', { name: /^Approved carrier now fails policy v3 — IRONCLAD/ }),
    ).toBeTruthy();
    expect(screen.getByRole('cell', { name: /^Authority revoked — SWIFTPATH/ })).toBeTruthy();
  });

  it('says when a poll announced a policy change', async () => {
    const user = userEvent.setup();
    serve();
    renderApp('/settings/alerts', {
      routes: [{ path: '/settings/alerts', Component: AlertsPage }],
    });
    await user.click(await screen.findByRole('button', { name: 'Poll now' }));
    expect(
      await screen.findByText(
        '0 new changes, 1 delivery queued. Policy change: 1 decision changed standing, announced.',
      ),
    ).toBeTruthy();
  });
});
