/**
 * Carrier names for the inbox, from data already held — never a profile call (profile calls are
 * billed). In order of preference:
 *
 * 1. the change records themselves (a `legal_name` / `dba_name` change, or its `_current` value);
 * 2. the SPA's TanStack Query cache: profiles, lite profiles, search results, suggestions and
 *    decision records seen in this tab;
 * 3. the proxy's `GET /api/local/triage/names` (free): its response cache (profiles, FMCSA records
 *    and the autocomplete answers of watch-list resolution) and the decision records.
 *
 * A carrier no source names stays unnamed.
 */
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { z } from 'zod';
import { apiGet } from '../../../lib/api-client.ts';
import type { MonitoredProfile } from '../../../lib/service/index.ts';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The legal name a decision record's evidence keeps (`profile.identity`). */
function decisionName(data: Record<string, unknown>): string | undefined {
  const profile = data.profile;
  if (!isRecord(profile) || !Array.isArray(profile.identity)) return undefined;
  const field: unknown = profile.identity.find(
    (item: unknown) => isRecord(item) && item.name === 'legal_name',
  );
  return isRecord(field) ? text(field.value) : undefined;
}

/** `[dot, name]` of every carrier inside a cached answer, however it is wrapped. */
function namesIn(data: unknown, depth = 0): [string, string][] {
  if (depth > 4) return [];
  if (Array.isArray(data)) return data.flatMap((item) => namesIn(item, depth + 1));
  if (!isRecord(data)) return [];
  if (data.dot_number !== undefined && data.dot_number !== null) {
    const name = text(data.legal_name) ?? text(data.dba_name) ?? decisionName(data);
    if (name) return [[String(data.dot_number).replace(/^0+/, ''), name]];
  }
  return ['profile', 'items', 'value', 'suggestions'].flatMap((key) =>
    namesIn(data[key], depth + 1),
  );
}

/** Names in the SPA's query cache (the monitoring list itself holds none). */
export function cachedNames(client: QueryClient): Map<string, string> {
  const names = new Map<string, string>();
  for (const query of client.getQueryCache().getAll()) {
    if (query.queryKey[0] === 'monitoring') continue;
    for (const [dot, name] of namesIn(query.state.data)) names.set(dot, name);
  }
  return names;
}

/** The name the profile's newest change record says, when one carries it. */
export function recordName(profile: MonitoredProfile): string | undefined {
  for (const record of profile.records) {
    for (const field of ['legal_name', 'dba_name']) {
      const change = record.changes.find((c) => c.field === field);
      const name = text(change?.current) ?? text(record.extra[`${field}_current`]);
      if (name) return name;
    }
  }
  return undefined;
}

const namesSchema = z.object({
  names: z.record(z.string(), z.object({ name: z.string() })),
});

/** Names the proxy holds for these DOTs (free: it never calls the service for them). */
async function getHeldNames(dots: readonly string[], signal?: AbortSignal) {
  const body = await apiGet('/api/local/triage/names', { dots: dots.join(',') }, { signal });
  const { names } = namesSchema.parse(body);
  return new Map(Object.entries(names).map(([dot, held]) => [dot, held.name]));
}

/**
 * The names of a page's profiles by DOT. `version` re-reads the SPA cache (bump it on refresh).
 * The proxy is asked only for the DOTs nothing on the page or in the SPA cache names.
 */
export function useKnownNames(
  profiles: readonly MonitoredProfile[],
  version: unknown,
): Map<string, string> {
  const client = useQueryClient();
  // Re-read the cache when an answer that may name a carrier arrives (a profile still loading when
  // the inbox opened, the decisions of the page's carriers).
  const [arrivals, setArrivals] = useState(0);
  useEffect(
    () =>
      client.getQueryCache().subscribe((event) => {
        if (
          event.type === 'updated' &&
          event.action.type === 'success' &&
          event.query.queryKey[0] !== 'monitoring'
        ) {
          setArrivals((n) => n + 1);
        }
      }),
    [client],
  );
  const local = useMemo(() => {
    const cached = cachedNames(client);
    const names = new Map<string, string>();
    for (const profile of profiles) {
      const name = recordName(profile) ?? cached.get(profile.dot);
      if (name) names.set(profile.dot, name);
    }
    return names;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `version` re-reads the cache on refresh
  }, [client, profiles, version, arrivals]);
  const missing = useMemo(
    () =>
      [...new Set(profiles.map((p) => p.dot).filter((dot) => !local.has(dot)))]
        .sort()
        .slice(0, 500),
    [profiles, local],
  );
  const held = useQuery({
    queryKey: ['monitoring', 'names', missing] as const,
    queryFn: ({ signal }) => getHeldNames(missing, signal),
    enabled: missing.length > 0,
    staleTime: 60_000,
    retry: false,
  });
  return useMemo(() => {
    if (!held.data) return local;
    const names = new Map(held.data);
    for (const [dot, name] of local) names.set(dot, name);
    return names;
  }, [local, held.data]);
}
