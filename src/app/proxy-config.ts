/**
 * What the SPA learns from the proxy's `GET /api/local/config`: the service mode and the monthly
 * budget (never the key). Read tolerantly: an unknown or malformed field is simply unknown, so a
 * newer or older proxy never breaks the shell.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet } from '../lib/api-client.ts';
import type { AppConfig } from './app-config.tsx';

const PROXY_CONFIG_PATH = '/api/local/config';

const ProxyConfigBody = z.object({
  mode: z.enum(['sandbox', 'test', 'live']).optional().catch(undefined),
  budgetUsd: z.number().positive().finite().optional().catch(undefined),
});

/** The fields the shell uses, or all-unknown when the body is not an object. */
export function readProxyConfig(body: unknown): AppConfig {
  const parsed = ProxyConfigBody.safeParse(body);
  if (!parsed.success) return { mode: undefined };
  return { mode: parsed.data.mode, budgetUsd: parsed.data.budgetUsd };
}

/** The proxy's configuration does not change while it runs: fetched once per page load. */
export const proxyConfigQuery = queryOptions({
  queryKey: ['local', 'config'],
  queryFn: async ({ signal }) => readProxyConfig(await apiGet(PROXY_CONFIG_PATH, {}, { signal })),
  staleTime: Infinity,
  gcTime: Infinity,
});
