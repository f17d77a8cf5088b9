/** A quick preview of one carrier (`GET /api/v2/profile-lite?dot_number=`), billed less than a profile. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';
import { parseLiteResponse, type LiteProfile } from '../../../lib/service/index.ts';

async function getLiteProfile(dot: string, signal?: AbortSignal): Promise<LiteProfile | undefined> {
  const body = await apiGet('/api/v2/profile-lite', { dot_number: dot }, { signal });
  return parseLiteResponse(body).value.items[0];
}

function liteProfileQueryOptions(dot: string) {
  return queryOptions({
    queryKey: ['search', 'lite', dot] as const,
    queryFn: ({ signal }) => getLiteProfile(dot, signal),
  });
}

export function useLiteProfile(dot: string) {
  return useQuery(liteProfileQueryOptions(dot));
}
