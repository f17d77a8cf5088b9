import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { pruneListPages } from './get-monitoring-list.ts';
import { monitoringKeys } from './keys.ts';

function page(n: number) {
  return monitoringKeys.list({ page: n, pageSize: 500 });
}

describe('pruneListPages', () => {
  it('keeps the newest pages nobody shows, the page shown and other queries', () => {
    const client = new QueryClient();
    for (let n = 1; n <= 6; n += 1) {
      client.setQueryData(page(n), { totalCount: 3000, profiles: [] }, { updatedAt: 1000 * n });
    }
    client.setQueryData(monitoringKeys.triageOf(['a']), new Map());
    const shown = new QueryObserver(client, {
      queryKey: page(1),
      queryFn: () => ({ totalCount: 3000, profiles: [] }),
      staleTime: Infinity,
    });
    const unsubscribe = shown.subscribe(() => undefined);

    pruneListPages(client, 2);

    const kept = client
      .getQueryCache()
      .findAll({ queryKey: monitoringKeys.lists() })
      .map((query) => (query.queryKey[2] as { page: number }).page)
      .sort();
    expect(kept).toEqual([1, 5, 6]);
    expect(client.getQueryData(monitoringKeys.triageOf(['a']))).toBeInstanceOf(Map);
    unsubscribe();
    client.clear();
  });
});
