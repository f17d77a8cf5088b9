import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { monitoringKeys } from '../api/keys.ts';
import { MonitoringNavBadge } from './MonitoringNavBadge.tsx';

let asked: string[] = [];

beforeEach(() => {
  asked = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      asked.push(String(input));
      return Promise.resolve(
        new Response('{"list": {"totalCount": 0, "profiles": []}, "changeIds": []}', {
          headers: { 'content-type': 'application/json' },
        }),
      );
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const badgeCalls = () => asked.filter((url) => url.includes('view_changes=true'));

function renderBadge(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <MonitoringNavBadge />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return client;
}

// past the idle wait (jsdom has no requestIdleCallback: lib/idle.ts waits 200 ms instead)
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 300)));

describe('MonitoringNavBadge', () => {
  it('asks for its list once the page is idle away from the inbox', async () => {
    renderBadge('/search');
    await settle();
    expect(badgeCalls()).toHaveLength(1);
  });

  it('lets the page’s own first answers come first', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let answer: (value: string) => void = () => undefined;
    void client.fetchQuery({
      queryKey: ['profile-summary'],
      queryFn: () => new Promise<string>((resolve) => (answer = resolve)),
    });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/carriers/1/overview']}>
          <MonitoringNavBadge />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await settle();
    expect(badgeCalls()).toHaveLength(0);
    act(() => answer('summary'));
    await settle();
    expect(badgeCalls()).toHaveLength(1);
  });

  it('on the inbox, waits for the inbox page to arrive before asking for its own list', async () => {
    const client = renderBadge('/monitoring');
    await settle();
    expect(badgeCalls()).toHaveLength(0);
    act(() => {
      client.setQueryData(monitoringKeys.list({ page: 1, pageSize: 50 }), {
        totalCount: 0,
        profiles: [],
      });
    });
    await settle();
    expect(badgeCalls()).toHaveLength(1);
  });
});
