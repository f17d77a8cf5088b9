/**
 * The proxy's summary of one carrier's profile (`GET /api/local/profile-summary?dot_number=`) and,
 * when a tab needs it, the full profile (`GET /api/v2/profile?dot_number=`), with what the proxy
 * says about the answer's freshness: `x-fetched-at` (when the service answered) and `x-cache`.
 */
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { ApiError, apiGetWithMeta, parseBody } from '../../../lib/api-client.ts';
import { profileSummarySchema } from '../../../lib/carrier/contract.ts';
import { parseProfileResponse, type ParseIssue, type Profile } from '../../../lib/service/index.ts';
import { verdictKey } from '../../../entities/vetting/verdict.ts';
import { profileKeys } from './keys.ts';

type CacheStatus = 'hit' | 'miss';

export interface ProfileResult {
  dot: string;
  /** the first carrier of the answer, or undefined when the service knows no carrier with this DOT */
  profile: Profile | undefined;
  /** that carrier's item exactly as the proxy sent it */
  raw: unknown;
  issues: ParseIssue[];
  /** ISO time the service answered (`x-fetched-at`), when the proxy said */
  fetchedAt: string | undefined;
  /** whether the proxy served its cached copy (`x-cache`), when it said */
  cache: CacheStatus | undefined;
  /**
   * `YYYY-MM-DD` of the monitoring change the proxy fetched this answer anew after
   * (`x-refreshed-after-change`), when it did
   */
  refreshedAfterChange?: string | undefined;
}

interface FetchOptions {
  signal?: AbortSignal | undefined;
  /** skip the proxy's cache (`Cache-Control: no-cache`): a new, billed call to the service */
  fresh?: boolean | undefined;
}

/** The first item of a profile body, whatever its form (envelope, bare array, bare object). */
function firstRawItem(body: unknown): unknown {
  const items =
    typeof body === 'object' && body !== null && !Array.isArray(body) && 'items' in body
      ? body.items
      : body;
  return Array.isArray(items) ? items[0] : items;
}

function readCacheStatus(value: string | null): CacheStatus | undefined {
  const lower = value?.trim().toLowerCase();
  return lower === 'hit' || lower === 'miss' ? lower : undefined;
}

function readDay(value: string | null): string | undefined {
  const day = value?.trim();
  return day !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : undefined;
}

/** Where the proxy answers: the full profile, or its summary (the long histories left out). */
type ProfileSource = '/api/v2/profile' | '/api/local/profile-summary';

async function fetchProfile(
  source: ProfileSource,
  dot: string,
  options: FetchOptions = {},
): Promise<ProfileResult> {
  const answer = await apiGetWithMeta(
    source,
    { dot_number: dot },
    {
      signal: options.signal,
      headers: options.fresh ? { 'cache-control': 'no-cache' } : undefined,
    },
  );
  // the summary is our route's answer (its contract); the full profile is the service's, as sent
  const body =
    source === '/api/local/profile-summary'
      ? parseBody(profileSummarySchema, answer.body, 'the profile summary')
      : answer.body;
  const parsed = parseProfileResponse(body);
  const profile = parsed.value.items[0];
  return {
    dot,
    profile,
    raw: profile ? firstRawItem(body) : undefined,
    issues: parsed.issues,
    fetchedAt: answer.headers.get('x-fetched-at') ?? undefined,
    cache: readCacheStatus(answer.headers.get('x-cache')),
    refreshedAfterChange: readDay(answer.headers.get('x-refreshed-after-change')),
  };
}

function getProfile(dot: string, options: FetchOptions = {}): Promise<ProfileResult> {
  return fetchProfile('/api/v2/profile', dot, options);
}

function profileQueryOptions(dot: string, enabled: boolean) {
  return queryOptions({
    queryKey: profileKeys.full(dot),
    queryFn: ({ signal }) => getProfile(dot, { signal }),
    enabled,
    // A heavy carrier's profile is tens of thousands of objects; comparing a refetch with the
    // previous answer object by object would cost as much as parsing it. Replace it whole.
    structuralSharing: false,
  });
}

/** The summary route's answer for a DOT the service knows no carrier with. */
function isUnknownDot(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.kind === 'http' &&
    error.status === 404 &&
    error.code === 'unknown_dot'
  );
}

/**
 * The summary; for an unknown DOT (404 `unknown_dot`) the same result an empty full profile gives,
 * a carrier-less one, so the page says "No carrier with DOT …" without asking anything more.
 */
async function getSummary(dot: string, options: FetchOptions = {}): Promise<ProfileResult> {
  try {
    return await fetchProfile('/api/local/profile-summary', dot, options);
  } catch (error) {
    if (!isUnknownDot(error)) throw error;
    return {
      dot,
      profile: undefined,
      raw: undefined,
      issues: [],
      fetchedAt: undefined,
      cache: undefined,
    };
  }
}

function summaryQueryOptions(dot: string) {
  return queryOptions({
    queryKey: profileKeys.summary(dot),
    queryFn: ({ signal }) => getSummary(dot, { signal }),
  });
}

/** The proxy cuts no summary or view (its profile cache is off): 409 `*_unavailable`. */
function isSliceUnavailable(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'http' && error.status === 409;
}

/**
 * What the profile page draws from. The proxy's summary (`/api/local/profile-summary`: everything
 * but the long histories, 49 kB instead of 13.5 MB for the heaviest carrier) always; the full
 * profile only while `needsFull` (a tab that reads the whole item is open) or when the proxy
 * cannot cut a summary (409: its profile cache is off), and whenever it is already in the query
 * cache. Both are cut from the proxy's one cached (or in-flight) service answer: one billed call.
 */
export function useProfileData(dot: string, needsFull: boolean) {
  const summary = useQuery(summaryQueryOptions(dot));
  const summaryUnavailable = summary.isError && isSliceUnavailable(summary.error);
  const full = useQuery(profileQueryOptions(dot, needsFull || summaryUnavailable));
  return { full, summary, summaryUnavailable };
}

/**
 * Fetch the profile past the proxy's cache (a new, billed service call; the proxy keeps the new
 * answer), then have everything the page drew from the old answer asked again: the full profile
 * when held (replaced by the new answer itself), the summary, the views and the verdict.
 */
async function refreshProfile(client: QueryClient, dot: string): Promise<void> {
  const fresh = await getProfile(dot, { fresh: true });
  if (client.getQueryData(profileKeys.full(dot)) !== undefined) {
    client.setQueryData(profileKeys.full(dot), fresh);
  }
  await Promise.all([
    client.invalidateQueries({ queryKey: profileKeys.views(dot) }),
    client.invalidateQueries({ queryKey: verdictKey(dot) }),
    client.invalidateQueries({ queryKey: profileKeys.summary(dot) }),
  ]);
  // the proxy now serves the summary from the answer this refresh fetched from the service
  const summary = client.getQueryData<ProfileResult>(profileKeys.summary(dot));
  if (summary) {
    const fetchedAt = fresh.fetchedAt ?? summary.fetchedAt;
    client.setQueryData(
      profileKeys.summary(dot),
      Object.assign({}, summary, {
        fetchedAt,
        cache: fresh.cache,
        refreshedAfterChange: undefined,
      }),
    );
  }
}

/** The refresh action: a mutation (billed, never retried automatically) that updates the queries. */
export function useRefreshProfile(dot: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: () => refreshProfile(client, dot) });
}
