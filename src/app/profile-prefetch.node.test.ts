import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { profileKeys } from '../features/profile/api/keys.ts';
import {
  startSandboxProxy,
  type SandboxProxy,
} from '../features/search/test/sandbox-proxy.node.ts';
import { apiGet } from '../lib/api-client.ts';
import { createQueryClient } from '../entities/query-client.ts';
import { verdictKey, verdictQuery } from '../entities/vetting/verdict.ts';
import { prefetchForPath, setPrefetchClient } from './profile-prefetch.ts';
import { proxyConfigQuery } from './proxy-config.ts';

vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 });

let proxy: SandboxProxy;

beforeAll(async () => {
  proxy = await startSandboxProxy();
});
afterAll(async () => {
  await proxy.stop();
});

/** The proxy calls made from `from` on, without the query string's order mattering. */
function callsSince(from: number): string[] {
  return proxy.calls.slice(from);
}

async function settled(from: number, count: number): Promise<string[]> {
  await vi.waitFor(() => expect(callsSince(from).length).toBeGreaterThanOrEqual(count));
  // nothing more follows
  await new Promise((resolve) => setTimeout(resolve, 150));
  return callsSince(from);
}

describe('prefetchForPath', () => {
  it('asks for a carrier’s summary, then its verdict, and hands both to the page’s requests', async () => {
    // the app's own client (its staleTime): the page's verdict query finds the prefetched answer
    const client = createQueryClient();
    setPrefetchClient(client);
    const from = proxy.calls.length;
    prefetchForPath('/carriers/4418207/overview');
    const calls = await settled(from, 2);
    expect(calls).toEqual([
      '/api/local/profile-summary?dot_number=4418207',
      '/api/local/verdict?dot_number=4418207',
    ]);
    // the page's own requests take the primed answers (the verdict's through its query): no
    // second request
    const summary = (await apiGet('/api/local/profile-summary', { dot_number: '4418207' })) as {
      items: unknown[];
    };
    expect(summary.items).toHaveLength(1);
    const verdict = await client.fetchQuery(verdictQuery('4418207'));
    expect(verdict.dot_number).toBe('4418207');
    expect(callsSince(from)).toHaveLength(2);
  });

  it('asks no verdict for a DOT the service does not know', async () => {
    setPrefetchClient(new QueryClient());
    const from = proxy.calls.length;
    prefetchForPath('/carriers/99999998/authority');
    expect(await settled(from, 1)).toEqual(['/api/local/profile-summary?dot_number=99999998']);
  });

  it('asks the summary and the verdict at once when the proxy says it cuts summaries', async () => {
    const client = new QueryClient();
    setPrefetchClient(client);
    client.setQueryData(proxyConfigQuery.queryKey, { mode: 'sandbox', profileSummaries: true });
    const from = proxy.calls.length;
    // a DOT without a carrier: the verdict is asked all the same, since it no longer waits
    prefetchForPath('/carriers/99999996/overview');
    expect(await settled(from, 2)).toEqual([
      '/api/local/profile-summary?dot_number=99999996',
      '/api/local/verdict?dot_number=99999996',
    ]);
    // a proxy without summaries (or one not yet heard from): the verdict waits for the summary
    client.setQueryData(proxyConfigQuery.queryKey, { mode: 'sandbox', profileSummaries: false });
    const next = proxy.calls.length;
    prefetchForPath('/carriers/99999995/overview');
    expect(await settled(next, 1)).toEqual(['/api/local/profile-summary?dot_number=99999995']);
  });

  it('runs the verdict’s query with the primed answer: the page finds the verdict held', async () => {
    const client = new QueryClient();
    setPrefetchClient(client);
    client.setQueryData(proxyConfigQuery.queryKey, { mode: 'sandbox', profileSummaries: true });
    const from = proxy.calls.length;
    prefetchForPath('/carriers/568253/overview');
    await vi.waitFor(() =>
      expect(client.getQueryData(verdictKey('568253'))).toMatchObject({
        dot_number: '568253',
        verdict: expect.stringMatching(/^(pass|review|fail)$/),
      }),
    );
    // the query took the primed answer: one verdict request in all
    expect(await settled(from, 2)).toEqual([
      '/api/local/profile-summary?dot_number=568253',
      '/api/local/verdict?dot_number=568253',
    ]);
  });

  it('asks nothing for other pages, a malformed DOT, a held summary or a DOT just asked', async () => {
    const client = new QueryClient();
    setPrefetchClient(client);
    client.setQueryData(profileKeys.summary('568253'), { dot: '568253' });
    const from = proxy.calls.length;
    prefetchForPath('/search');
    prefetchForPath('/carriers/abc/overview');
    prefetchForPath('/carriers/568253/overview');
    prefetchForPath('/carriers/4418207/safety'); // asked by the first test moments ago
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(callsSince(from)).toEqual([]);
  });
});
