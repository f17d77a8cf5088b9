/**
 * Triage states of change records, kept by the proxy per user (`/api/local/triage`), and the user's
 * last visit of the inbox (`/api/local/triage/last-visit`).
 */
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { apiGet, apiPost, apiPut, parseBody } from '../../../lib/api-client.ts';
import { FRESHNESS } from '../../../lib/freshness.ts';
import {
  inboxVisitSchema,
  triageEntriesSchema,
  type StoredTriage,
} from '../../../lib/monitoring/contract.ts';
import type { TriageEntry, TriageState } from '../../../lib/monitoring/inbox.ts';
import { monitoringKeys } from './keys.ts';

/** Profile ids per lookup: the proxy's limit, one inbox page of the largest size. */
const PROFILE_IDS_PER_REQUEST = 500;

function toEntry(item: StoredTriage): TriageEntry {
  return { id: item.id, state: item.state, note: item.note ?? undefined, by: item.by, at: item.at };
}

function chunks<T>(values: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < values.length; start += size) {
    result.push(values.slice(start, start + size));
  }
  return result;
}

/** Every triage state kept for changes of these profiles, by change id. */
async function getTriageStates(
  profileIds: readonly string[],
  signal?: AbortSignal,
): Promise<Map<string, TriageEntry>> {
  // A POST with the ids in the body: one request per page rather than one per 100 profiles, with
  // no long query string on the way.
  const answers = await Promise.all(
    chunks(profileIds, PROFILE_IDS_PER_REQUEST).map((part) =>
      apiPost('/api/local/triage/lookup', { profile_ids: part }, { signal }),
    ),
  );
  const entries = answers.flatMap((body) =>
    parseBody(triageEntriesSchema, body, 'triage states').items.map(toEntry),
  );
  return new Map(entries.map((entry) => [entry.id, entry]));
}

function triageQueryOptions(profileIds: readonly string[]) {
  const sorted = [...new Set(profileIds)].sort();
  return queryOptions({
    queryKey: monitoringKeys.triageOf(sorted),
    queryFn: ({ signal }) => getTriageStates(sorted, signal),
    enabled: sorted.length > 0,
    staleTime: FRESHNESS.inbox,
  });
}

/**
 * The triage states of the changes of a page's profiles: one request per page (up to 500 profiles)
 * rather than one per 100 changes. While another page's states load, the previous ones stay (a change keeps its
 * id, so a state is never shown on the wrong change).
 */
export function useTriageStates(profileIds: readonly string[]) {
  return useQuery({ ...triageQueryOptions(profileIds), placeholderData: keepPreviousData });
}

interface TriageUpdate {
  id: string;
  profileId: string;
  field: string;
  state: TriageState;
  note?: string | undefined;
}

async function putTriage(updates: readonly TriageUpdate[]): Promise<void> {
  await apiPut('/api/local/triage', {
    items: updates.map((update) => ({
      id: update.id,
      profile_id: update.profileId,
      field: update.field,
      state: update.state,
      ...(update.note !== undefined && { note: update.note }),
    })),
  });
}

/** The mutation key of triage writes, to tell whether others are still on their way. */
const TRIAGE_WRITE = ['monitoring', 'triage-write'] as const;

/**
 * After a triage write: the states read again, and the navigation badge's count (the proxy's) once
 * the last of several quick writes has ended. The count costs the proxy a read of the service's list
 * (free, but through the shared rate-limit queue), so a run of clicks asks for it once, not per
 * click. (In `onSettled` the ending write still counts as pending.)
 */
function invalidateTriage(client: QueryClient) {
  const lastWrite = client.isMutating({ mutationKey: TRIAGE_WRITE }) <= 1;
  return Promise.all([
    client.invalidateQueries({ queryKey: monitoringKeys.triage() }),
    lastWrite ? client.invalidateQueries({ queryKey: monitoringKeys.badge() }) : undefined,
  ]);
}

/** The triage map once `updates` are applied (New removes the entry, as the proxy does). */
export function applyTriage(
  states: ReadonlyMap<string, TriageEntry>,
  updates: readonly TriageUpdate[],
): Map<string, TriageEntry> {
  const next = new Map(states);
  for (const update of updates) {
    if (update.state === 'new') next.delete(update.id);
    else {
      const { by, at } = states.get(update.id) ?? {};
      next.set(update.id, { id: update.id, state: update.state, note: update.note, by, at });
    }
  }
  return next;
}

type Snapshot = [readonly unknown[], Map<string, TriageEntry> | undefined][];

/**
 * Sets triage states. The cached states change at once (the select shows the new state, the row
 * stays as it is, the focus stays on the control); they are put back if the proxy refuses, and
 * read again from the proxy when the call ends.
 */
export function useSetTriage() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: TRIAGE_WRITE,
    mutationFn: putTriage,
    onMutate: async (updates: readonly TriageUpdate[]) => {
      await client.cancelQueries({ queryKey: monitoringKeys.triage() });
      const snapshot: Snapshot = client.getQueriesData<Map<string, TriageEntry>>({
        queryKey: monitoringKeys.triage(),
      });
      for (const [key, states] of snapshot) {
        if (states) client.setQueryData(key, applyTriage(states, updates));
      }
      return { snapshot };
    },
    onError: (_error, _updates, context) => {
      for (const [key, states] of context?.snapshot ?? []) client.setQueryData(key, states);
    },
    onSettled: () => invalidateTriage(client),
  });
}

/** When the user last opened the inbox (before this visit), or null on a first visit. */
async function getLastVisit(signal?: AbortSignal): Promise<string | null> {
  const body = await apiGet('/api/local/triage/last-visit', {}, { signal });
  return parseBody(inboxVisitSchema, body, 'the last visit').lastVisitAt;
}

/** Records a visit now (the proxy's clock). */
export async function putLastVisit(): Promise<void> {
  await apiPut('/api/local/triage/last-visit', {});
}

const lastVisitQueryOptions = queryOptions({
  queryKey: monitoringKeys.lastVisit(),
  queryFn: ({ signal }) => getLastVisit(signal),
  staleTime: FRESHNESS.lastVisit,
});

export function useLastVisit() {
  return useQuery(lastVisitQueryOptions);
}
