import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { knownFromCache } from '../../../api/lookup-network.ts';
import type { NetworkEquipmentCarrier } from '../../../../../lib/service/index.ts';
import { fromEquipment, mergeKnown, type KnownCarrier } from './model.ts';

/** Changes whenever the query cache does, so cached names show up as soon as they arrive. */
function useCacheVersion(): number {
  const cache = useQueryClient().getQueryCache();
  const [version, setVersion] = useState(0);
  useEffect(
    () =>
      cache.subscribe((event) => {
        if (event.type === 'updated' || event.type === 'removed') setVersion((v) => v + 1);
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
