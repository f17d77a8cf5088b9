/**
 * What the SPA learns from the proxy's `GET /api/local/config`: the service mode and the monthly
 * budget (never the key). Read tolerantly: an unknown or malformed field is simply unknown, so a
 * newer or older proxy never breaks the shell.
 */
import { queryOptions } from '@tanstack/react-query';
import type { ServiceMode } from '../components/ModeBanner.tsx';
import { apiGet } from '../lib/api-client.ts';
import { FRESHNESS } from '../lib/freshness.ts';
import type { AppConfig } from './app-config.tsx';

const PROXY_CONFIG_PATH = '/api/local/config';
/** The shell's one query key (features key their own reads of the config: pricing, look-ups). */
const PROXY_CONFIG_KEY = ['local', 'config'] as const;
const SERVICE_MODES: readonly unknown[] = ['sandbox', 'test', 'live'] satisfies ServiceMode[];

/*
 * Read by hand rather than with a zod schema: the shell is in the search page's initial bundle, and
 * zod (about 24 kB gzip) is loaded only with the service parsers, after the first paint.
 */
function readMode(value: unknown): ServiceMode | undefined {
  return SERVICE_MODES.includes(value) ? (value as ServiceMode) : undefined;
}

function readBudget(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The fields the shell uses, or all-unknown when the body is not an object. */
export function readProxyConfig(body: unknown): AppConfig {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { mode: undefined };
  const record = body as Record<string, unknown>;
  const summaries = record.profileSummaries;
  return {
    mode: readMode(record.mode),
    budgetUsd: readBudget(record.budgetUsd),
    ...(typeof summaries === 'boolean' ? { profileSummaries: summaries } : {}),
  };
}

/** The proxy's configuration does not change while it runs: fetched once per page load. */
export const proxyConfigQuery = queryOptions({
  queryKey: PROXY_CONFIG_KEY,
  queryFn: async ({ signal }) => readProxyConfig(await apiGet(PROXY_CONFIG_PATH, {}, { signal })),
  staleTime: FRESHNESS.proxyConfig,
  gcTime: FRESHNESS.proxyConfig,
});
