/**
 * Carrier names the app already holds: profiles and lite profiles in the TanStack Query cache. The
 * inbox never fetches a profile to learn a name (profile calls are billed); unknown names stay empty.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `{dot_number, legal_name|dba_name}` carriers inside a cached answer, however it is wrapped. */
function carriersIn(data: unknown, depth = 0): Record<string, unknown>[] {
  if (depth > 3) return [];
  if (Array.isArray(data)) return data.flatMap((item) => carriersIn(item, depth + 1));
  if (!isRecord(data)) return [];
  if (data.dot_number !== undefined && (data.legal_name ?? data.dba_name) !== undefined) {
    return [data];
  }
  return ['profile', 'items', 'value'].flatMap((key) => carriersIn(data[key], depth + 1));
}

function knownNames(client: QueryClient): Map<string, string> {
  const names = new Map<string, string>();
  for (const query of client.getQueryCache().getAll()) {
    for (const carrier of carriersIn(query.state.data)) {
      const name = carrier.legal_name ?? carrier.dba_name;
      if (typeof name === 'string' && name !== '') names.set(String(carrier.dot_number), name);
    }
  }
  return names;
}

/** Names known when the inbox renders `version` (bump it on refresh to read the cache again). */
export function useKnownNames(version: unknown): Map<string, string> {
  const client = useQueryClient();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `version` re-reads the cache on refresh
  return useMemo(() => knownNames(client), [client, version]);
}
