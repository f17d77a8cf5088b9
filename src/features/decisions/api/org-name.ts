/**
 * The organisation's name (`ORG_NAME` of the proxy) from `GET /api/local/config`, for the top of a
 * printed decision record. Read tolerantly: absent, empty or not text → undefined (no name line).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';
import { FRESHNESS } from '../../../lib/freshness.ts';

function readOrgName(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const value = (body as Record<string, unknown>).orgName;
  if (typeof value !== 'string') return undefined;
  const name = value.trim();
  return name !== '' && name.length <= 120 ? name : undefined;
}

const orgNameQuery = queryOptions({
  queryKey: ['decisions', 'org-name'] as const,
  queryFn: async ({ signal }) =>
    readOrgName(await apiGet('/api/local/config', {}, { signal })) ?? null,
  staleTime: FRESHNESS.proxyConfig,
});

/**
 * The name to print: ORG_NAME, "carrier-desk" when the proxy has none (or cannot say), and an empty
 * string while it is being asked, so a record never shows the wrong name first.
 */
export function useOrgName(): string {
  const { data, isError } = useQuery(orgNameQuery);
  if (data) return data;
  return data === null || isError ? 'carrier-desk' : '';
}
