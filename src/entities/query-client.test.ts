import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiGet } from '../lib/api-client.ts';
import {
  healthPollDelayMs,
  isRateLimited,
  MAX_QUERY_RETRIES,
  retryAfterSeconds,
} from '../lib/query-policy.ts';
import { isServerReachable, markServerReachable } from '../lib/server-reachable.ts';
import { createQueryClient } from './query-client.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  markServerReachable(true);
});

function httpError(status: number, retryAfter?: number): ApiError {
  return new ApiError({ kind: 'http', status, message: `status ${status}`, retryAfter });
}

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

describe('createQueryClient', () => {
  it('turns focus and reconnect refetches off and keeps data fresh for minutes', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries?.refetchOnWindowFocus).toBe(false);
    expect(queries?.refetchOnReconnect).toBe(false);
    expect(queries?.staleTime).toBeGreaterThanOrEqual(60_000);
    expect(mutations?.retry).toBe(false);
  });

  it('calls a failing 5xx query 1 + MAX_QUERY_RETRIES times, then reports the error', async () => {
    const client = createQueryClient();
    let calls = 0;
    const result = fetchFailing(client, () => {
      calls += 1;
      throw httpError(503, 0);
    });
    await expect(result).rejects.toMatchObject({ status: 503 });
    expect(calls).toBe(1 + MAX_QUERY_RETRIES);
  });

  it('calls a rate-limited query once and leaves the 429 in the query state', async () => {
    const client = createQueryClient();
    let calls = 0;
    await fetchFailing(client, () => {
      calls += 1;
      throw httpError(429, 20);
    }).catch(() => undefined);
    expect(calls).toBe(1);
    const state = client.getQueryState(['policy-test']);
    expect(isRateLimited(state?.error)).toBe(true);
    expect(retryAfterSeconds(state?.error)).toBe(20);
  });
});

/** The client's own defaults apply: fetchQuery only falls back to `retry: false` when none is set. */
function fetchFailing(client: QueryClient, fail: () => never): Promise<unknown> {
  return client.fetchQuery({ queryKey: ['policy-test'], queryFn: fail });
}

describe('recovery from a proxy outage', () => {
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
});
