/**
 * `GET /api/local/profile-summary?dot_number=`: the carrier's full profile without its four long
 * histories, so the profile page can draw its header and overview before the full answer (about
 * 13 MiB for the heaviest carriers) has travelled and been parsed. The summary is cut from the
 * mirror's own answer: same validation, cache, in-flight sharing, budget check, spend meter and
 * audit as `/api/v2/profile`, so a summary and the full profile together cost one billed call.
 * A summary already cut from the cached answer is served again as it is (not audited again: the
 * page that asks for it asks for the full profile too).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ResponseCache, StoredResponse } from '../cache.ts';
import { ApiError } from '../http/api-error.ts';
import { requestKey, validateRequest } from '../validate.ts';
import type { MirrorClient } from './mirror.ts';

export const PROFILE_SUMMARY_PATH = '/api/local/profile-summary';

/**
 * Left out of every item of the summary: the histories that grow with the carrier's activity.
 * Their counters (`inspections_total`, `crashes_total`, `vehicles_total` ...) stay.
 */
export const SUMMARY_OMITTED_FIELDS = [
  'inspection_history',
  'crash_history',
  'equipment_history',
  'network_graph_equipment_ext',
] as const;

interface ProfileSummaryDeps {
  mirror: MirrorClient;
  cache: ResponseCache;
  /** the proxy's profile cache lifetime; 0 means no cache, so no summary (it would bill twice) */
  profileTtlMs: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutHistories(item: unknown): unknown {
  if (!isRecord(item)) return item;
  const trimmed = { ...item };
  for (const field of SUMMARY_OMITTED_FIELDS) delete trimmed[field];
  return trimmed;
}

/** The body with every profile item trimmed, whatever its form (envelope, array, bare object). */
export function summariseProfileBody(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(withoutHistories);
  if (isRecord(body) && Array.isArray(body.items)) {
    return { ...body, items: body.items.map(withoutHistories) };
  }
  return withoutHistories(body);
}

function noCacheRefusal(): ApiError {
  return new ApiError(
    409,
    'summary_unavailable',
    'The profile summary needs the proxy’s profile cache, which is turned off',
    'Load the full profile (/api/v2/profile); CACHE_PROFILE_TTL_SECONDS above 0 enables summaries.',
  );
}

interface Summary {
  status: number;
  /** the JSON body sent */
  body: string;
  cacheHit: boolean;
  fetchedAt: Date;
}

function sendSummary(reply: FastifyReply, summary: Summary) {
  return reply
    .code(summary.status)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'private, no-store')
    .header('x-cache', summary.cacheHit ? 'hit' : 'miss')
    .header('x-fetched-at', summary.fetchedAt.toISOString())
    .header('x-profile-summary-omitted', SUMMARY_OMITTED_FIELDS.join(','))
    .send(summary.body);
}

function callerOf(request: FastifyRequest) {
  return { user: request.user?.id ?? 'local', requestId: request.id, headers: request.headers };
}

/**
 * Summaries cut from the cached full answers, one per cached answer (dropped with it): a summary
 * asked for again is served at once, without parsing the full answer again (~100 ms for 13 MiB).
 */
class SummaryMaker {
  private readonly cut = new WeakMap<StoredResponse, string>();

  constructor(private readonly deps: ProfileSummaryDeps) {}

  async summary(request: FastifyRequest): Promise<Summary> {
    const key = requestKey(validateRequest('profile', request.query, undefined));
    const cached = this.deps.cache.get(key);
    const known = cached && this.cut.get(cached);
    if (cached && known) {
      return { status: 200, body: known, cacheHit: true, fetchedAt: cached.fetchedAt };
    }
    const answer = await this.deps.mirror.get('profile', queryOf(request), callerOf(request));
    const ok = answer.status >= 200 && answer.status < 300;
    const body = JSON.stringify(ok ? summariseProfileBody(answer.json) : answer.json);
    const stored = this.deps.cache.get(key);
    if (ok && stored) this.cut.set(stored, body);
    const fetchedAt = stored?.fetchedAt ?? new Date();
    return { status: answer.status, body, cacheHit: answer.cacheHit, fetchedAt };
  }
}

function queryOf(request: FastifyRequest): Record<string, string> {
  return request.query as Record<string, string>;
}

/** Register `GET /api/local/profile-summary` (the same parameters as `/api/v2/profile`). */
export function registerProfileSummaryRoute(app: FastifyInstance, deps: ProfileSummaryDeps) {
  const maker = new SummaryMaker(deps);
  app.get(PROFILE_SUMMARY_PATH, async (request, reply) => {
    if (deps.profileTtlMs <= 0) throw noCacheRefusal();
    return sendSummary(reply, await maker.summary(request));
  });
}
