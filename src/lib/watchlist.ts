/**
 * The watchlist, shared by the profile, search and monitoring features: whether a profile is
 * watched, watch / unwatch, and bulk watch that never loses an id (chunks, re-sends after a 207,
 * then verification against `/monitoring/list`). See docs/monitoring.md.
 */
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, apiGet, apiPost, type RequestOptions } from './api-client.ts';
import { parseMonitoringList, parseMonitoringMutation } from './service/monitoring.ts';

/** Every monitoring query key starts with this: invalidating it refreshes inbox and watch states. */
const MONITORING_QUERY_KEY = ['monitoring'] as const;

const BULK_CHUNK_SIZE = 100;
const BULK_MAX_ATTEMPTS = 5;
/** `monitoring/list` page size used to verify (the service clamps at 500). */
const VERIFY_PAGE_SIZE = 500;
/** Ids still missing after the full scan are asked for one by one, up to this many. */
const RECHECK_LIMIT = 50;
const BASE_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 30_000;

const PROFILE_ID = /^([1-9]\d{0,7})(?:-((?:MC|MX|FF)\d{1,8}))?$/;

/** The canonical spelling of a profile id (`568253-MC277621`, or a bare DOT), or undefined. */
export function canonicalProfileId(raw: string): string | undefined {
  const text = raw.trim().toUpperCase();
  return PROFILE_ID.test(text) ? text : undefined;
}

/** The fields of a profile that name it on the watchlist. */
export interface ProfileIdentity {
  dot_number?: string | undefined;
  doc_id?: string | undefined;
  docket?: string | undefined;
  docket_prefix?: string | undefined;
  docket_number?: string | undefined;
}

/**
 * The watchlist id of a profile: its `doc_id`, else `<dot>-<docket>`, else the DOT alone (a carrier
 * without a docket). Undefined when no valid id can be formed.
 */
export function profileIdOf(
  profile: ProfileIdentity,
  dot = profile.dot_number,
): string | undefined {
  const docket =
    profile.docket ??
    (profile.docket_number ? `${profile.docket_prefix ?? ''}${profile.docket_number}` : undefined);
  const candidates = [profile.doc_id, docket && dot ? `${dot}-${docket}` : undefined, dot];
  for (const candidate of candidates) {
    const id =
      candidate === undefined ? undefined : canonicalProfileId(candidate.replace(/\s+/g, ''));
    if (id !== undefined) return id;
  }
  return undefined;
}

/** The DOT part of a profile id. */
export function dotOfProfileId(profileId: string): string {
  return profileId.split('-')[0] ?? profileId;
}

type Transport = Pick<RequestOptions, 'baseUrl' | 'onUnauthenticated'>;

interface CallOptions extends Transport {
  signal?: AbortSignal | undefined;
}

// ---------------------------------------------------------------------------------------------
// one profile

const watchStateKey = (profileId: string) =>
  [...MONITORING_QUERY_KEY, 'watch-state', profileId.trim().toUpperCase()] as const;

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
    queryKey: watchStateKey(profileId),
    queryFn: ({ signal }) => getWatchState(profileId, { signal }),
    staleTime: 60_000,
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
  return client.invalidateQueries({ queryKey: MONITORING_QUERY_KEY });
}

const watchedIdsKey = [...MONITORING_QUERY_KEY, 'watched-ids'] as const;

/**
 * Every watched profile id, for marking many rows at once (search results): the whole list paged
 * with pageSize 500 — one free call per 500 watched — instead of one `profile_id` call per row
 * (the service filters by one profile at a time).
 */
export function useWatchedIds(enabled = true) {
  return useQuery({
    queryKey: watchedIdsKey,
    queryFn: ({ signal }) => listWatchedIds({ signal }),
    staleTime: 60_000,
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
  const ids = [...new Set(profileIds.map(canonicalProfileId).filter(isDefined))];
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

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
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

function backoffMs(attempt: number, error?: unknown): number {
  const asked = error instanceof ApiError ? error.retryAfter : undefined;
  const delay = asked === undefined ? BASE_BACKOFF_MS * 2 ** attempt : asked * 1000;
  return Math.min(delay, MAX_BACKOFF_MS);
}

/** A failure worth sending again: rate limits, 5xx, no answer. Other 4xx are final. */
function isTransient(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.kind === 'network' || error.status === 429 || error.status >= 500)
  );
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

  constructor(
    private readonly options: BulkWatchOptions,
    private readonly total: number,
  ) {}

  /** Send one chunk until the service takes all of it or the attempts run out. */
  async sendChunk(chunk: readonly string[]): Promise<void> {
    const maxAttempts = this.options.maxAttempts ?? BULK_MAX_ATTEMPTS;
    let remaining = [...chunk];
    for (let attempt = 0; attempt < maxAttempts && remaining.length > 0; attempt += 1) {
      if (attempt > 0) await sleep(backoffMs(attempt - 1), this.options.signal);
      remaining = await this.attempt(remaining, attempt === maxAttempts - 1);
    }
    this.sent += chunk.length;
    this.options.onProgress?.({ phase: 'sending', done: this.sent, total: this.total });
  }

  /** One POST; returns the ids to send again (the remainder a 207 names, or all after a transient error). */
  private async attempt(ids: string[], last: boolean): Promise<string[]> {
    try {
      const body = await apiPost('/api/v2/monitoring/add', { profile_ids: ids }, this.options);
      const { failed, error } = parseMonitoringMutation(body).value;
      for (const id of ids) this.reasons.delete(id);
      if (failed.length === 0 && error === undefined) return [];
      return this.remainder(ids, failed, error);
    } catch (err) {
      if (!isTransient(err)) throw err;
      const reason = err instanceof Error ? err.message : 'The service did not answer';
      for (const id of ids) this.reasons.set(id, reason);
      if (!last) await sleep(backoffMs(0, err), this.options.signal);
      return ids;
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

// ---------------------------------------------------------------------------------------------
// costs before watching (proxy routes, see docs/monitoring.md)

const planSchema = z.object({
  plan: z.object({
    entries: z.number(),
    profileIds: z.number(),
    dots: z.number(),
    dockets: z.number(),
    invalid: z.number(),
    maxCostUsd: z.number(),
  }),
});
export type ResolvePlan = z.infer<typeof planSchema>['plan'];

const resolutionSchema = z.object({
  resolved: z.array(z.object({ input: z.string(), profile_id: z.string(), via: z.string() })),
  unresolved: z.array(z.object({ input: z.string(), reason: z.string(), message: z.string() })),
  profile_ids: z.array(z.string()),
  costUsd: z.number(),
});
export type Resolution = z.infer<typeof resolutionSchema>;

const estimateSchema = z.object({
  units: z.number(),
  billableUnits: z.number(),
  unitPriceUsd: z.number(),
  costUsd: z.number(),
  withinBudget: z.boolean(),
  billing: z.object({ billed: z.boolean(), note: z.string() }).optional(),
});
export type WatchEstimate = z.infer<typeof estimateSchema>;

/** Entries per resolve call (the proxy takes at most 10,000). */
const RESOLVE_MAX_ENTRIES = 10_000;

/** What resolving entries would cost at most (a dry run: nothing is called, nothing billed). */
export async function planResolution(
  entries: readonly string[],
  options: CallOptions = {},
): Promise<ResolvePlan> {
  const body = await apiPost(
    '/api/local/watchlist/resolve',
    { entries: entries.slice(0, RESOLVE_MAX_ENTRIES), dryRun: true },
    options,
  );
  return planSchema.parse(body).plan;
}

/** DOT numbers, dockets or profile ids → profile ids (billed lookups: show the plan first). */
export async function resolveEntries(
  entries: readonly string[],
  options: CallOptions = {},
): Promise<Resolution> {
  const body = await apiPost(
    '/api/local/watchlist/resolve',
    { entries: entries.slice(0, RESOLVE_MAX_ENTRIES) },
    options,
  );
  return resolutionSchema.parse(body);
}

/**
 * The proxy's estimate of watching profiles: new DOTs this month × 0.50 USD, already-billed DOTs
 * free. Ids with a docket go in `profile_ids`, bare-DOT ids (carriers without a docket) in `dots`.
 */
export async function estimateWatch(
  profileIds: readonly string[],
  options: CallOptions = {},
): Promise<WatchEstimate> {
  const ids = [...new Set(profileIds.map(canonicalProfileId).filter(isDefined))];
  const withDocket = ids.filter((id) => id.includes('-'));
  const dots = ids.filter((id) => !id.includes('-'));
  const body = await apiPost(
    '/api/local/estimate',
    {
      action: 'monitoring/add',
      ...(withDocket.length ? { profile_ids: withDocket } : {}),
      ...(dots.length ? { dots } : {}),
    },
    options,
  );
  return estimateSchema.parse(body);
}

/** The estimate of watching one profile, cached briefly (shown before the Watch confirmation). */
export function useWatchEstimate(profileIds: readonly string[], enabled: boolean) {
  return useQuery({
    queryKey: [...MONITORING_QUERY_KEY, 'estimate', ...profileIds],
    queryFn: ({ signal }) => estimateWatch(profileIds, { signal }),
    enabled: enabled && profileIds.length > 0,
    staleTime: 30_000,
  });
}
