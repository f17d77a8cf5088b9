/**
 * Carrier names by DOT from data already held — never a profile call (profile calls are billed). In
 * order of preference:
 *
 * 1. names the caller already knows (the inbox: its change records' `legal_name` / `dba_name`);
 * 2. the SPA's TanStack Query cache: profiles, lite profiles, search results, suggestions and
 *    decision records seen in this tab;
 * 3. the proxy's `GET /api/local/triage/names` (free): its response cache (profiles, FMCSA records
 *    and the autocomplete answers of watch-list resolution) and the decision records.
 *
 * A carrier no source names stays unnamed.
 */
import { useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { apiGet, parseBody } from '../../../lib/api-client.ts';
import { FRESHNESS } from '../../../lib/freshness.ts';
import { heldNamesSchema } from '../../../lib/monitoring/contract.ts';
import { MONITORING_ROOT } from '../../../entities/watchlist/keys.ts';
import { carrierKeys } from '../../../entities/carrier/keys.ts';

/** The proxy is asked for at most this many DOTs at once. */
const HELD_NAMES_MAX = 500;

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

/** `LEGAL NAME (DBA TRADE NAME)` when a carrier trades under another name, else the one it has. */
export function displayName(
  legal: string | undefined,
  dba: string | undefined,
): string | undefined {
  if (!legal) return dba;
  return dba && dba.toUpperCase() !== legal.toUpperCase() ? `${legal} (DBA ${dba})` : legal;
}

/** `[dot, name]` of every carrier inside a cached answer, however it is wrapped. */
function namesIn(data: unknown, depth = 0): [string, string][] {
  if (depth > 4) return [];
  if (Array.isArray(data)) return data.flatMap((item) => namesIn(item, depth + 1));
  if (!isRecord(data)) return [];
  if (data.dot_number !== undefined && data.dot_number !== null) {
    const name = displayName(text(data.legal_name), text(data.dba_name)) ?? decisionName(data);
    if (name) return [[String(data.dot_number).replace(/^0+/, ''), name]];
  }
  return ['profile', 'items', 'value', 'suggestions'].flatMap((key) =>
    namesIn(data[key], depth + 1),
  );
}

/** Queries whose data names no carrier: the monitoring list (big, and nameless) and the held names. */
function holdsNoNames(key: QueryKey): boolean {
  return (
    key[0] === MONITORING_ROOT[0] ||
    (key[0] === carrierKeys.all[0] && key[1] === carrierKeys.heldNames([])[1])
  );
}

/** Names in the SPA's query cache. */
export function cachedNames(client: QueryClient): Map<string, string> {
  const names = new Map<string, string>();
  for (const query of client.getQueryCache().getAll()) {
    if (holdsNoNames(query.queryKey)) continue;
    for (const [dot, name] of namesIn(query.state.data)) names.set(dot, name);
  }
  return names;
}

/** Names the proxy holds for these DOTs (free: it never calls the service for them). */
async function getHeldNames(dots: readonly string[], signal?: AbortSignal) {
  const body = await apiGet('/api/local/triage/names', { dots: dots.join(',') }, { signal });
  const { names } = parseBody(heldNamesSchema, body, 'the names held');
  return new Map(
    Object.entries(names).map(([dot, held]) => [
      dot,
      displayName(held.name, held.dba) ?? held.name,
    ]),
  );
}

/**
 * The names of these DOTs. `known` names win; `version` re-reads the SPA cache (bump it on a
 * refresh). The proxy is asked only for the DOTs nothing known or cached names.
 */
export function useCarrierNames(
  dots: readonly string[],
  known: ReadonlyMap<string, string>,
  version: unknown,
): Map<string, string> {
  const client = useQueryClient();
  // Re-read the cache when an answer that may name a carrier arrives (a profile still loading when
  // the page opened, the decisions of the page's carriers).
  const [arrivals, setArrivals] = useState(0);
  useEffect(
    () =>
      client.getQueryCache().subscribe((event) => {
        if (
          event.type === 'updated' &&
          event.action.type === 'success' &&
          !holdsNoNames(event.query.queryKey)
        ) {
          setArrivals((n) => n + 1);
        }
      }),
    [client],
  );
  const local = useMemo(() => {
    const cached = cachedNames(client);
    const names = new Map<string, string>();
    for (const dot of dots) {
      const name = known.get(dot) ?? cached.get(dot);
      if (name) names.set(dot, name);
    }
    return names;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `version` re-reads the cache on refresh
  }, [client, dots, known, version, arrivals]);
  const missing = useMemo(
    () => [...new Set(dots.filter((dot) => !local.has(dot)))].sort().slice(0, HELD_NAMES_MAX),
    [dots, local],
  );
  const held = useQuery({
    queryKey: carrierKeys.heldNames(missing),
    queryFn: ({ signal }) => getHeldNames(missing, signal),
    enabled: missing.length > 0,
    staleTime: FRESHNESS.heldNames,
    retry: false,
  });
  return useMemo(() => {
    if (!held.data) return local;
    const names = new Map(held.data);
    for (const [dot, name] of local) names.set(dot, name);
    return names;
  }, [local, held.data]);
}
