/**
 * The carrier's consolidated FMCSA record (`GET /api/v2/profile-fmcsa?dot_number=`): the 236
 * FMCSA-sourced keys. Billed 0.10 USD per matched lookup; a 404 (no match) is an answer, not an
 * error, and is not billed — so the result says "not found" instead of failing.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiGet } from '../../../lib/api-client.ts';
import {
  parseFmcsaProfile,
  type FmcsaProfile,
  type ParseIssue,
} from '../../../lib/service/index.ts';
import { profileKeys } from './keys.ts';

type FmcsaResult =
  { status: 'found'; record: FmcsaProfile; issues: ParseIssue[] } | { status: 'not-found' };

interface FetchOptions {
  signal?: AbortSignal | undefined;
  /** absolute origin to call instead of the page's own (tests) */
  baseUrl?: string | undefined;
}

function isNoMatch(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'http' && error.status === 404;
}

async function getFmcsaProfile(dot: string, options: FetchOptions = {}): Promise<FmcsaResult> {
  let body: unknown;
  try {
    body = await apiGet('/api/v2/profile-fmcsa', { dot_number: dot }, options);
  } catch (error) {
    if (isNoMatch(error)) return { status: 'not-found' };
    throw error;
  }
  const parsed = parseFmcsaProfile(body);
  return parsed.value
    ? { status: 'found', record: parsed.value, issues: parsed.issues }
    : { status: 'not-found' };
}

function fmcsaProfileQueryOptions(dot: string) {
  return queryOptions({
    queryKey: profileKeys.fmcsa(dot),
    queryFn: ({ signal }) => getFmcsaProfile(dot, { signal }),
  });
}

/** Fetches only while mounted with `enabled` (the tab is open): each lookup is billed. */
export function useFmcsaProfile(dot: string, enabled = true) {
  return useQuery({ ...fmcsaProfileQueryOptions(dot), enabled });
}
