/**
 * The watchlist, shared by the profile, search and monitoring features: whether a profile is
 * watched, watch / unwatch, and bulk watch that never loses an id (chunks, re-sends after a 207,
 * then verification against `/monitoring/list`). What watching costs is in `cost.ts`, ids in
 * `profile-id.ts`. See docs/monitoring.md.
 */
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import {
  ApiError,
  apiGet,
  apiPost,
  retryFailureOf,
  type RequestOptions,
} from '../../lib/api-client.ts';
import { FRESHNESS } from '../../lib/freshness.ts';
import { parseMonitoringList, parseMonitoringMutation } from '../../lib/service/monitoring.ts';
import {
  backoffDelayMs,
  retryable,
  retryDecision,
  type RetryDecision,
  type RetryFailure,
  type RetryPolicy,
} from '../../lib/service/retry.ts';
import { watchlistKeys } from './keys.ts';
import { canonicalIds, canonicalProfileId } from '../../lib/watchlist/profile-id.ts';

const BULK_CHUNK_SIZE = 100;
const BULK_MAX_ATTEMPTS = 5;
/** `monitoring/list` page size used to verify (the service clamps at 500). */
const VERIFY_PAGE_SIZE = 500;
/** Ids still missing after the full scan are asked for one by one, up to this many. */
const RECHECK_LIMIT = 50;

/**
 * Bulk watch's parameters of the one retry rule (src/lib/service/retry.ts). Re-adding is free, so
 * a repeat is safe; rate limits are waited out (the user asked for the whole list and watches its
 * progress) up to the proxy's Retry-After cap of 120 s; the back-off starts at 250 ms because the
 * proxy already waits out the service's own limits. A 207's remainder is re-sent on the same
 * back-off, and every re-send, whatever its cause, counts towards `maxAttempts`.
 */
function bulkRetryPolicy(maxAttempts: number): RetryPolicy {
  return {
    maxRetries: maxAttempts - 1,
    rateLimited: { maxRetries: maxAttempts - 1, maxTotalWaitMs: Number.POSITIVE_INFINITY },
    baseDelayMs: 250,
    maxDelayMs: 30_000,
    jitter: 0.2,
    maxWaitMs: 120_000,
    repeatSafe: true,
  };
}

type Transport = Pick<RequestOptions, 'baseUrl' | 'onUnauthenticated'>;

export interface CallOptions extends Transport {
  signal?: AbortSignal | undefined;
}

// ---------------------------------------------------------------------------------------------
// one profile

export interface WatchState {
  profileId: string;
  watched: boolean;
  /** when monitoring started (ISO), when the list says (it does on change records) */
  since?: string | undefined;
}

/** Whether one profile is on the watchlist (`/monitoring/list?profile_id=`, free). */
export async function getWatchState(
  profileId: string,
  options: CallOptions = {},
): Promise<WatchState> {
  const id = profileId.trim().toUpperCase();
  const body = await apiGet(
    '/api/v2/monitoring/list',
    { profile_id: id, pageSize: 1 },
    { ...options },
  );
  const { profiles } = parseMonitoringList(body).value;
  const profile = profiles.find((p) => p.profileId.toUpperCase() === id);
  const since = profile?.records.find((r) => r.startedMonitoringAt)?.startedMonitoringAt;
  return { profileId: id, watched: profile !== undefined, since };
}

function watchStateQuery(profileId: string) {
  return queryOptions({
    queryKey: watchlistKeys.state(profileId),
    queryFn: ({ signal }) => getWatchState(profileId, { signal }),
    staleTime: FRESHNESS.watchState,
  });
}

/** Watch state of a profile; disabled until the profile id is known. */
export function useWatchState(profileId: string | undefined) {
  return useQuery({
    ...watchStateQuery(profileId ?? ''),
    enabled: profileId !== undefined && canonicalProfileId(profileId) !== undefined,
  });
}

function invalidateMonitoring(client: QueryClient) {
  return client.invalidateQueries({ queryKey: watchlistKeys.all });
}

/**
 * Every watched profile id, for marking many rows at once (search results): the whole list paged
 * with pageSize 500 — one free call per 500 watched — instead of one `profile_id` call per row
 * (the service filters by one profile at a time).
 */
export function useWatchedIds(enabled = true) {
  return useQuery({
    queryKey: watchlistKeys.watchedIds(),
    queryFn: ({ signal }) => listWatchedIds({ signal }),
    staleTime: FRESHNESS.watchState,
    enabled,
  });
}

/** Watch one profile (0.50 USD for a DOT not yet billed this month; re-adding is free). */
export function useWatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (profileId: string) => {
      const result = await bulkWatch([profileId]);
      const failure = result.failed[0];
      if (failure) throw new Error(failure.reason);
      return result;
    },
    onSettled: () => invalidateMonitoring(client),
  });
}

/** Stop watching profiles (chunks of 100; removal refunds nothing this month). */
export async function unwatchProfiles(
  profileIds: readonly string[],
  options: CallOptions = {},
): Promise<{ removed: number }> {
  const ids = canonicalIds(profileIds);
  let removed = 0;
  for (const chunk of chunks(ids, BULK_CHUNK_SIZE)) {
    const body = await apiPost('/api/v2/monitoring/remove', { profile_ids: chunk }, options);
    removed += parseMonitoringMutation(body).value.removed ?? 0;
  }
  return { removed };
}

export function useUnwatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (profileIds: string | readonly string[]) =>
      unwatchProfiles(typeof profileIds === 'string' ? [profileIds] : profileIds),
    onSettled: () => invalidateMonitoring(client),
  });
}

// ---------------------------------------------------------------------------------------------
// bulk watch

type BulkPhase = 'checking' | 'sending' | 'verifying';

export interface BulkProgress {
  phase: BulkPhase;
  /** ids handled in this phase so far */
  done: number;
  total: number;
}

export interface BulkWatchOptions extends Transport {
  onProgress?: ((progress: BulkProgress) => void) | undefined;
  signal?: AbortSignal | undefined;
  chunkSize?: number | undefined;
  /** sends of one chunk at most (the first included) */
  maxAttempts?: number | undefined;
}

export interface BulkWatchResult {
  /** newly on the watchlist (verified) */
  added: string[];
  /** were on the watchlist before (verified; re-adding acknowledged them, free this month) */
  alreadyWatched: string[];
  /** not on the watchlist afterwards, with the last reason heard */
  failed: { id: string; reason: string }[];
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Every profile id on the watchlist, by paging the whole list (free calls). */
export async function listWatchedIds(options: CallOptions = {}): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let page = 1; ; page += 1) {
    const body = await apiGet(
      '/api/v2/monitoring/list',
      { page, pageSize: VERIFY_PAGE_SIZE },
      options,
    );
    const { profiles, totalCount } = parseMonitoringList(body).value;
    for (const profile of profiles) ids.add(profile.profileId.toUpperCase());
    if (profiles.length < VERIFY_PAGE_SIZE || page * VERIFY_PAGE_SIZE >= totalCount) return ids;
  }
}

class BulkSender {
  /** last reason heard per id that has not been confirmed */
  readonly reasons = new Map<string, string>();
  sent = 0;
  private readonly policy: RetryPolicy;

  constructor(
    private readonly options: BulkWatchOptions,
    private readonly total: number,
  ) {
    this.policy = bulkRetryPolicy(options.maxAttempts ?? BULK_MAX_ATTEMPTS);
  }

  /** Send one chunk until the service takes it all, the attempts run out or the rule says stop. */
  async sendChunk(chunk: readonly string[]): Promise<void> {
    const { policy } = this;
    let remaining = [...chunk];
    for (let attempt = 0; remaining.length > 0; attempt += 1) {
      const outcome = await this.attempt(remaining, attempt);
      remaining = outcome.again;
      if (remaining.length === 0) break;
      const decision: RetryDecision = outcome.failure
        ? retryDecision(outcome.failure, policy)
        : attempt < policy.maxRetries
          ? { retry: true, delayMs: backoffDelayMs(attempt, policy) }
          : { retry: false };
      if (!decision.retry) break;
      await sleep(decision.delayMs, this.options.signal);
    }
    this.sent += chunk.length;
    this.options.onProgress?.({ phase: 'sending', done: this.sent, total: this.total });
  }

  /**
   * One POST: the ids to send again (the remainder a 207 names, or all after a failure the rule
   * may retry). A failure it never retries (a 4xx refusal, the proxy's open circuit) is thrown.
   */
  private async attempt(
    ids: string[],
    attempt: number,
  ): Promise<{ again: string[]; failure?: RetryFailure }> {
    try {
      const body = await apiPost('/api/v2/monitoring/add', { profile_ids: ids }, this.options);
      const { failed, error } = parseMonitoringMutation(body).value;
      for (const id of ids) this.reasons.delete(id);
      if (failed.length === 0 && error === undefined) return { again: [] };
      return { again: this.remainder(ids, failed, error) };
    } catch (err) {
      const failure = retryFailureOf(err, attempt);
      if (failure === undefined || !retryable(failure, this.policy)) throw err;
      const reason = err instanceof Error ? err.message : 'The service did not answer';
      for (const id of ids) this.reasons.set(id, reason);
      return { again: ids, failure };
    }
  }

  /** After a 207: the ids it names, or (no list given) the whole request, re-adding is free. */
  private remainder(
    ids: string[],
    failed: { profileId?: string; error?: string }[],
    error: string | undefined,
  ): string[] {
    const named = failed.filter((f) => f.profileId !== undefined);
    if (named.length === 0) {
      for (const id of ids) this.reasons.set(id, error ?? 'Partially committed');
      return ids;
    }
    const asked = new Set(ids);
    const again: string[] = [];
    for (const f of named) {
      const id = (f.profileId ?? '').toUpperCase();
      if (!asked.has(id)) continue;
      this.reasons.set(id, f.error ?? error ?? 'Not committed');
      again.push(id);
    }
    return again;
  }
}

async function verify(
  ids: readonly string[],
  options: BulkWatchOptions,
): Promise<{ watched: Set<string>; missing: string[] }> {
  options.onProgress?.({ phase: 'verifying', done: 0, total: ids.length });
  const watched = await listWatchedIds(options);
  let missing = ids.filter((id) => !watched.has(id));
  // the list may have moved while it was paged (others adding/removing): ask for stragglers directly
  for (const id of missing.slice(0, RECHECK_LIMIT)) {
    if ((await getWatchState(id, options)).watched) watched.add(id);
  }
  missing = ids.filter((id) => !watched.has(id));
  options.onProgress?.({ phase: 'verifying', done: ids.length, total: ids.length });
  return { watched, missing };
}

/**
 * Watch many profiles. Ids are canonicalised and de-duplicated (malformed ones are reported, never
 * sent: one would make the service refuse the whole request). The watchlist is read first (to tell
 * added from already watched), the ids are sent in chunks, a 207 or a transient failure re-sends
 * the remainder with back-off up to `maxAttempts` times, and finally every id is checked against
 * `/monitoring/list`. Every valid id ends in `added`, `alreadyWatched` or `failed`.
 * A final refusal (400, 401, 402 budget) stops sending; the unsent ids are reported failed.
 */
export async function bulkWatch(
  profileIds: readonly string[],
  options: BulkWatchOptions = {},
): Promise<BulkWatchResult> {
  const result: BulkWatchResult = { added: [], alreadyWatched: [], failed: [] };
  const valid: string[] = [];
  for (const raw of new Set(profileIds)) {
    const id = canonicalProfileId(raw);
    if (id === undefined) result.failed.push({ id: raw, reason: 'Not a profile id' });
    else if (!valid.includes(id)) valid.push(id);
  }
  if (valid.length === 0) return result;
  options.onProgress?.({ phase: 'checking', done: 0, total: valid.length });
  const before = await listWatchedIds(options);
  const sender = new BulkSender(options, valid.length);
  const stopped = await sendAll(sender, valid, options.chunkSize ?? BULK_CHUNK_SIZE);
  const { watched, missing } = await verify(valid, options);
  for (const id of valid) {
    if (!watched.has(id)) continue;
    (before.has(id) ? result.alreadyWatched : result.added).push(id);
  }
  for (const id of missing) {
    const reason = sender.reasons.get(id) ?? stopped ?? 'Not on the watchlist after sending';
    result.failed.push({ id, reason });
  }
  return result;
}

/** Send every chunk; a final refusal stops the rest and is returned as their reason. */
async function sendAll(
  sender: BulkSender,
  ids: readonly string[],
  size: number,
): Promise<string | undefined> {
  for (const chunk of chunks(ids, size)) {
    try {
      await sender.sendChunk(chunk);
    } catch (err) {
      if (err instanceof ApiError) return err.message;
      throw err;
    }
  }
  return undefined;
}

/** Bulk watch as a mutation: invalidates every monitoring query when it ends. */
export function useBulkWatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, ...options }: { ids: readonly string[] } & BulkWatchOptions) =>
      bulkWatch(ids, options),
    onSettled: () => invalidateMonitoring(client),
  });
}
