/**
 * The lite profile of one carrier (`GET /api/v2/profile-lite?dot_number=`), billed less than the full
 * profile: the search page's preview and the network tab's name look-ups read the same cache entry,
 * so a carrier previewed is not looked up (and billed) again.
 */
import { queryOptions } from '@tanstack/react-query';
import { ApiError, apiGet } from '../../lib/api-client.ts';
import { FRESHNESS } from '../../lib/freshness.ts';
import { parseLiteResponse, type LiteProfile } from '../../lib/service/index.ts';
import { carrierKeys } from './keys.ts';

/** The lite profile, or null when the service has no such carrier (a 404 or an empty answer). */
async function getLiteProfile(dot: string, signal?: AbortSignal): Promise<LiteProfile | null> {
  try {
    const body = await apiGet('/api/v2/profile-lite', { dot_number: dot }, { signal });
    return parseLiteResponse(body).value.items[0] ?? null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function liteProfileQuery(dot: string) {
  return queryOptions({
    queryKey: carrierKeys.lite(dot),
    queryFn: ({ signal }) => getLiteProfile(dot, signal),
    staleTime: FRESHNESS.liteProfile,
  });
}
