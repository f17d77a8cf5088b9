import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiGet } from './api-client.ts';
import { createQueryClient, healthPollDelayMs } from './query-policy.ts';
import { isServerReachable, markServerReachable } from './server-reachable.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  markServerReachable(true);
});

/** A fetch that fails like a stopped proxy until `up` is set, then answers `{}`; counts calls by path. */
function fakeServer() {
  const server = { up: false, calls: [] as string[] };
  vi.stubGlobal('fetch', (input: string) => {
    server.calls.push(String(input).split('?')[0] ?? '');
    if (!server.up) return Promise.reject(new TypeError('Failed to fetch'));
    return Promise.resolve(new Response('{"status":"ok"}', { status: 200 }));
  });
  return server;
}

describe('server reachability', () => {
  it('is marked unreachable by a failed connection and reachable by any answer', async () => {
    const server = fakeServer();
    await expect(apiGet('/api/local/usage')).rejects.toBeInstanceOf(ApiError);
    expect(isServerReachable()).toBe(false);
    server.up = true;
    await apiGet('/api/local/usage');
    expect(isServerReachable()).toBe(true);
  });

  it('polls /healthz while the proxy is down and refetches the failed query when it is back', async () => {
    const server = fakeServer();
    const client = createQueryClient();
    client.mount();
    const observer = new QueryObserver(client, {
      queryKey: ['usage'],
      queryFn: () => apiGet('/api/local/usage'),
      retry: false,
    });
    const states: string[] = [];
    const stop = observer.subscribe((result) => states.push(result.status));
    try {
      await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('error'));
      expect(isServerReachable()).toBe(false);
      server.up = true;
      // No refetch, no click: the /healthz poll finds the proxy back and the query recovers.
      await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('success'), {
        timeout: 5_000,
      });
      expect(server.calls).toContain('/healthz');
      expect(server.calls.filter((path) => path === '/api/local/usage')).toHaveLength(2);
    } finally {
      stop();
      client.unmount();
    }
  });

  it('stops polling once the client is unmounted', async () => {
    const server = fakeServer();
    const client = createQueryClient();
    client.mount();
    client.unmount();
    await expect(apiGet('/api/local/usage')).rejects.toBeInstanceOf(ApiError);
    await new Promise((resolve) => setTimeout(resolve, healthPollDelayMs(0) + 300));
    expect(server.calls).not.toContain('/healthz');
  });

  it('backs off its polls from 2 s to at most 10 s', () => {
    expect([0, 1, 2, 3, 4].map(healthPollDelayMs)).toEqual([2_000, 4_000, 8_000, 10_000, 10_000]);
  });
});
