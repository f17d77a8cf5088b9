import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiGet } from './api-client.ts';
import { healthPollDelayMs } from './query-policy.ts';
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

  it('backs off its polls from 2 s to at most 10 s', () => {
    expect([0, 1, 2, 3, 4].map(healthPollDelayMs)).toEqual([2_000, 4_000, 8_000, 10_000, 10_000]);
  });
});
