/**
 * The full profile of one carrier (`GET /api/v2/profile?dot_number=`) and the proxy's summary of it,
 * with what the proxy says about the answer's freshness: `x-fetched-at` (when the service answered)
 * and `x-cache` (hit or miss).
 */
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { apiGetWithMeta } from '../../../lib/api-client.ts';
import { parseProfileResponse, type ParseIssue, type Profile } from '../../../lib/service/index.ts';
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
  const parsed = parseProfileResponse(answer.body);
  const profile = parsed.value.items[0];
  return {
    dot,
    profile,
    raw: profile ? firstRawItem(answer.body) : undefined,
    issues: parsed.issues,
    fetchedAt: answer.headers.get('x-fetched-at') ?? undefined,
    cache: readCacheStatus(answer.headers.get('x-cache')),
  };
}

function getProfile(dot: string, options: FetchOptions = {}): Promise<ProfileResult> {
  return fetchProfile('/api/v2/profile', dot, options);
}

function profileQueryOptions(dot: string) {
  return queryOptions({
    queryKey: profileKeys.full(dot),
    queryFn: ({ signal }) => getProfile(dot, { signal }),
    // A heavy carrier's profile is tens of thousands of objects; comparing a refetch with the
    // previous answer object by object would cost as much as parsing it. Replace it whole.
    structuralSharing: false,
  });
}

function summaryQueryOptions(dot: string, enabled: boolean) {
  return queryOptions({
    queryKey: profileKeys.summary(dot),
    queryFn: ({ signal }) => fetchProfile('/api/local/profile-summary', dot, { signal }),
    enabled,
    // The full profile, asked for alongside, answers (or shows the error) when the summary fails.
    retry: false,
  });
}

/**
 * The full profile and, beside it, the proxy's summary of it (`/api/local/profile-summary`:
 * everything but the long histories, a few kB instead of up to ~13 MiB, cut from the same single
 * billed service call; the two requests share it). Both are sent at once; the summary, small, is
 * there long before the full answer has travelled and been parsed. The summary is asked for only
 * while the full profile is not in the query cache.
 */
export function useProfileAndSummary(dot: string) {
  const client = useQueryClient();
  const haveFull = client.getQueryData(profileKeys.full(dot)) !== undefined;
  const summary = useQuery(summaryQueryOptions(dot, !haveFull));
  const full = useQuery(profileQueryOptions(dot));
  return { full, summary };
}

/** Fetch the profile past the proxy's cache and put the answer in the query. */
async function refreshProfile(client: QueryClient, dot: string): Promise<ProfileResult> {
  const result = await getProfile(dot, { fresh: true });
  client.setQueryData(profileKeys.full(dot), result);
  return result;
}

/** The refresh action: a mutation (billed, never retried automatically) that updates the query. */
export function useRefreshProfile(dot: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: () => refreshProfile(client, dot) });
}
