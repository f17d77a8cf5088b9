import { useQueryClient, type QueryCacheNotifyEvent } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { knownFromCache } from '../../../api/lookup-network.ts';
import type { NetworkEquipmentCarrier } from '../../../../../lib/service/index.ts';
import { fromEquipment, mergeKnown, type KnownCarrier } from './model.ts';

/** Whether a cache event can change what `knownFromCache` reads: a profile or lite answer. */
function mayName(event: QueryCacheNotifyEvent): boolean {
  const [scope, kind] = event.query.queryKey as readonly unknown[];
  const relevant =
    (scope === 'profile' && kind === 'full') || (scope === 'carrier' && kind === 'lite');
  if (!relevant) return false;
  if (event.type === 'removed') return true;
  return (
    event.type === 'updated' &&
    (event.action.type === 'success' || event.action.type === 'setState')
  );
}

/**
 * Changes when the query cache gains or loses an answer that names a carrier, so cached names show
 * up as soon as they arrive; other cache traffic (fetch states, unrelated queries) does not
 * re-render the tab's long lists.
 */
function useCacheVersion(): number {
  const cache = useQueryClient().getQueryCache();
  const [version, setVersion] = useState(0);
  useEffect(
    () =>
      cache.subscribe((event) => {
        if (mayName(event)) setVersion((v) => v + 1);
      }),
    [cache],
  );
  return version;
}

/** Names and statuses known without a new call: equipment links, then the query cache. */
export function useKnownCarriers(
  dots: readonly string[],
  equipment: readonly NetworkEquipmentCarrier[] | undefined,
): ReadonlyMap<string, KnownCarrier> {
  const queryClient = useQueryClient();
  const version = useCacheVersion();
  return useMemo(
    () => mergeKnown(knownFromCache(queryClient, dots), fromEquipment(equipment)),
    // `version` re-reads the cache when it changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryClient, dots, equipment, version],
  );
}
