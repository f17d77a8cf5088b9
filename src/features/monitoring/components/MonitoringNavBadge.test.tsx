import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { monitoringKeys } from '../api/keys.ts';
import { useSetTriage } from '../api/triage.ts';
import { errorBody } from '../../../test/error-body.ts';
import { badgeBody, monitoringViewBody, triageEntriesBody, triagePutBody } from '../test/bodies.ts';
import { MonitoringNavBadge } from './MonitoringNavBadge.tsx';

const BADGE_PATH = '/api/local/monitoring-badge';

let asked: string[] = [];
/** What the proxy's badge route answers next: its status and body. */
let badgeAnswer: { status: number; body: unknown };
/** When set, triage PUTs wait here until the test answers them. */
let heldPuts: (() => void)[] | undefined;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  asked = [];
  heldPuts = undefined;
  badgeAnswer = { status: 200, body: badgeBody(0) };
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      asked.push(`${init?.method ?? 'GET'} ${url}`);
      if (url.includes(BADGE_PATH)) {
        return Promise.resolve(json(badgeAnswer.status, badgeAnswer.body));
      }
      if (url.includes('/api/local/triage') && init?.method === 'PUT' && heldPuts) {
        const answer = () => json(200, triagePutBody(0));
        return new Promise<Response>((resolve) => heldPuts?.push(() => resolve(answer())));
      }
      if (url.includes('/api/local/triage')) return Promise.resolve(json(200, triageEntriesBody()));
      return Promise.resolve(json(200, monitoringViewBody()));
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const badgeCalls = () => asked.filter((call) => call.includes(BADGE_PATH));

function wrapperOf(client: QueryClient, path: string) {
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
    </QueryClientProvider>
  );
}

function renderBadge(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(<MonitoringNavBadge />, { wrapper: wrapperOf(client, path) });
  return client;
}

// past the idle wait (jsdom has no requestIdleCallback: lib/idle.ts waits 200 ms instead)
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 300)));

describe('MonitoringNavBadge', () => {
  it('asks the proxy for its count once the page is idle away from the inbox', async () => {
    renderBadge('/search');
    await settle();
    expect(badgeCalls()).toEqual([`GET ${BADGE_PATH}`]);
    // neither the list nor the triage states are read for it any more
    expect(asked).toEqual(badgeCalls());
  });

  it('lets the page’s own first answers come first', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let answer: (value: string) => void = () => undefined;
    void client.fetchQuery({
      queryKey: ['profile-summary'],
      queryFn: () => new Promise<string>((resolve) => (answer = resolve)),
    });
    render(<MonitoringNavBadge />, { wrapper: wrapperOf(client, '/carriers/1/overview') });
    await settle();
    expect(badgeCalls()).toHaveLength(0);
    act(() => answer('summary'));
    await settle();
    expect(badgeCalls()).toHaveLength(1);
  });

  it('on the inbox, waits for the inbox page to arrive before asking for its count', async () => {
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

  it('shows the proxy’s total, “999+” past 999, and nothing at zero', async () => {
    badgeAnswer = { status: 200, body: badgeBody(42) };
    const client = renderBadge('/search');
    await settle();
    expect(await screen.findByText('42 untriaged changes')).toBeTruthy();

    badgeAnswer = { status: 200, body: badgeBody(1234) };
    await act(() => client.invalidateQueries({ queryKey: monitoringKeys.badge() }));
    expect(await screen.findByText('999+')).toBeTruthy();
    expect(screen.getByText('1234 untriaged changes')).toBeTruthy();

    badgeAnswer = { status: 200, body: badgeBody(0) };
    await act(() => client.invalidateQueries({ queryKey: monitoringKeys.badge() }));
    await waitFor(() => expect(screen.queryByText(/untriaged changes/)).toBeNull());
    expect(badgeCalls()).toHaveLength(3);
  });

  it('keeps the last count, drawn stale, when a refresh fails', async () => {
    badgeAnswer = { status: 200, body: badgeBody(7) };
    const client = renderBadge('/search');
    await settle();
    expect(await screen.findByText('7 untriaged changes')).toBeTruthy();
    expect(document.querySelector('[data-stale="false"]')).not.toBeNull();

    badgeAnswer = { status: 503, body: errorBody('maintenance', 'Down', 'Later') };
    await act(() => client.invalidateQueries({ queryKey: monitoringKeys.badge() }));
    expect(
      await screen.findByText('7 untriaged changes (last known, the server cannot be reached)'),
    ).toBeTruthy();
    expect(document.querySelector('[data-stale="true"]')?.textContent).toContain('7?');
  });

  it('takes an answer of another shape for an error, and shows no count', async () => {
    badgeAnswer = { status: 200, body: { total: '12', counts: {}, profiles: 3 } };
    const client = renderBadge('/search');
    await settle();
    expect(badgeCalls()).toHaveLength(1);
    await waitFor(() =>
      expect(client.getQueryState(monitoringKeys.badge())?.error).toMatchObject({
        kind: 'invalid-body',
      }),
    );
    expect(screen.queryByText(/untriaged changes/)).toBeNull();
  });

  it('asks again after a triage write', async () => {
    badgeAnswer = { status: 200, body: badgeBody(5) };
    const client = renderBadge('/search');
    await settle();
    expect(await screen.findByText('5 untriaged changes')).toBeTruthy();

    badgeAnswer = { status: 200, body: badgeBody(4) };
    const { result } = renderHook(() => useSetTriage(), { wrapper: wrapperOf(client, '/search') });
    await act(() =>
      result.current.mutateAsync([
        { id: 'a'.repeat(64), profileId: '568253-MC277621', field: 'x', state: 'reviewed' },
      ]),
    );
    await settle();
    expect(badgeCalls()).toHaveLength(2);
    expect(await screen.findByText('4 untriaged changes')).toBeTruthy();
  });

  it('asks once after a run of writes, when the last of them ends', async () => {
    const client = renderBadge('/search');
    await settle();
    expect(badgeCalls()).toHaveLength(1);
    heldPuts = [];
    const { result } = renderHook(() => useSetTriage(), { wrapper: wrapperOf(client, '/search') });
    const write = (id: string) =>
      result.current.mutateAsync([
        { id, profileId: '568253-MC277621', field: 'x', state: 'reviewed' },
      ]);
    let writes: Promise<unknown>[] = [];
    act(() => {
      writes = [write('a'.repeat(64)), write('b'.repeat(64)), write('c'.repeat(64))];
    });
    await waitFor(() => expect(heldPuts).toHaveLength(3));
    // the first two end while the third is still on its way: no count asked for yet
    await act(async () => {
      heldPuts?.[0]?.();
      heldPuts?.[1]?.();
      await Promise.all(writes.slice(0, 2));
    });
    await settle();
    expect(badgeCalls()).toHaveLength(1);
    await act(async () => {
      heldPuts?.[2]?.();
      await writes[2];
    });
    await settle();
    expect(badgeCalls()).toHaveLength(2);
  });
});
