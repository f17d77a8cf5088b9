/**
 * `GET /api/local/profile-summary?dot_number=`: the carrier's full profile without its four long
 * histories, so the profile page can draw its header and overview before the full answer (about
 * 13 MiB for the heaviest carriers) has travelled and been parsed. The summary is cut from the
 * mirror's own answer: same validation, cache, in-flight sharing, budget check, spend meter and
 * audit as `/api/v2/profile`, so a summary and the full profile together cost one billed call.
 * A summary already cut from the cached answer is served again as it is (not audited again: the
 * page that asks for it asks for the full profile too). A DOT the service knows no carrier with (a
 * successful answer without an item) is answered 404 `unknown_dot`, as the `summary` view of
 * `/api/local/profile-view` answers it; the one service call behind it is metered like any, and
 * asked again it is answered from the cached empty answer.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { profileSummaryRoute } from '../../../src/lib/carrier/contract.ts';
import type { StoredResponse } from '../cache.ts';
import { ApiError } from '../http/api-error.ts';
import { contractRoute } from '../http/contract-route.ts';
import { omitProfileFields, PROFILE_LONG_LISTS } from '../profile-items.ts';
import { validateRequest } from '../validate.ts';
import { checkText } from './contract-text.ts';
import type { MirrorCaller, MirrorClient, MirrorPeek } from './mirror.ts';

export const PROFILE_SUMMARY_PATH = '/api/local/profile-summary';

/**
 * Left out of every item of the summary: the histories that grow with the carrier's activity.
 * Their counters (`inspections_total`, `crashes_total`, `vehicles_total` ...) stay.
 */
export const SUMMARY_OMITTED_FIELDS = PROFILE_LONG_LISTS;

export interface ProfileSummaryDeps {
  /** the proxy's own mirror; its peek says whether the profile is held (here, else shared) */
  mirror: MirrorClient & MirrorPeek;
  /** the proxy's profile cache lifetime; 0 means no cache, so no summary (it would bill twice) */
  profileTtlMs: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body with every profile item trimmed, whatever its form (envelope, array, bare object). */
export function summariseProfileBody(body: unknown): unknown {
  return omitProfileFields(body, SUMMARY_OMITTED_FIELDS);
}

function noCacheRefusal(): ApiError {
  return new ApiError(
    409,
    'summary_unavailable',
    'The profile summary needs the proxy’s profile cache, which is turned off',
    'Load the full profile (/api/v2/profile); CACHE_PROFILE_TTL_SECONDS above 0 enables summaries.',
  );
}

/** A DOT the service has no carrier for: the summary route and the `summary` view (profile-view.ts). */
export function unknownDot(dot: string): ApiError {
  return new ApiError(
    404,
    'unknown_dot',
    `The data service has no carrier with DOT ${dot}`,
    'Check the DOT number, or search by name (/api/v2/profile?company=...).',
  );
}

/** The DOT number a summary request asks for, when it asks by DOT (after validation). */
function dotAsked(query: Record<string, string>): string | undefined {
  const forward = validateRequest('profile', query, undefined);
  return forward.searchKey === 'dot_number' ? forward.searchValue : undefined;
}

export interface Summary {
  status: number;
  /** the JSON body sent */
  body: string;
  cacheHit: boolean;
  fetchedAt: Date;
  /** a successful answer without a profile item (an unknown DOT) */
  empty: boolean;
  /** the service's Retry-After on a refused answer, passed on so the page can count down */
  retryAfter?: string | undefined;
  /** `YYYY-MM-DD` of the monitoring change the answer was fetched anew after, if it was */
  refreshedAfterChange?: string | undefined;
}

function sendSummary(reply: FastifyReply, summary: Summary) {
  checkText(profileSummaryRoute, summary.status, summary.body);
  if (summary.retryAfter !== undefined) void reply.header('retry-after', summary.retryAfter);
  if (summary.refreshedAfterChange !== undefined) {
    void reply.header('x-refreshed-after-change', summary.refreshedAfterChange);
  }
  return reply
    .code(summary.status)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'private, no-store')
    .header('x-cache', summary.cacheHit ? 'hit' : 'miss')
    .header('x-fetched-at', summary.fetchedAt.toISOString())
    .header('x-profile-summary-omitted', SUMMARY_OMITTED_FIELDS.join(','))
    .send(summary.body);
}

export function callerOf(request: FastifyRequest): MirrorCaller {
  return { user: request.user?.id ?? 'local', requestId: request.id, headers: request.headers };
}

/** How many parsed profile answers are kept: a 13 MiB answer is several times that once parsed. */
export const PARSED_ANSWERS_KEPT = 4;

/**
 * The parsed bodies of the few most recently used cached profile answers, keyed by the cache entry
 * itself: a refreshed or re-fetched answer is a new entry, so a stale parse is never served, and at
 * most `max` parses are held (one that outlives its entry is pushed out by the next ones).
 */
export class ParsedAnswers {
  private readonly held = new Map<StoredResponse, unknown>();

  constructor(private readonly max = PARSED_ANSWERS_KEPT) {}

  /** The parsed body of `stored`: kept, else `parsed` when the caller has it, else parsed now. */
  get(stored: StoredResponse, parsed?: unknown): unknown {
    if (this.held.has(stored)) {
      const known = this.held.get(stored);
      // Most recently used last, so the first key is the one to push out.
      this.held.delete(stored);
      this.held.set(stored, known);
      return known;
    }
    const value = parsed === undefined ? (JSON.parse(stored.body) as unknown) : parsed;
    this.held.set(stored, value);
    for (const oldest of this.held.keys()) {
      if (this.held.size <= this.max) break;
      this.held.delete(oldest);
    }
    return value;
  }

  get size(): number {
    return this.held.size;
  }
}

function hasItem(body: unknown): boolean {
  if (Array.isArray(body)) return body.length > 0;
  if (isRecord(body) && Array.isArray(body.items)) return body.items.length > 0;
  return isRecord(body) && Object.keys(body).length > 0;
}

interface Cut {
  body: string;
  empty: boolean;
}

/**
 * Summaries cut from the cached full answers, one per cached answer (dropped with it): a summary
 * asked for again is served at once, without parsing the full answer again (~100 ms for 13 MiB).
 */
export class SummaryMaker {
  private readonly cut = new WeakMap<StoredResponse, Cut>();

  constructor(
    private readonly deps: ProfileSummaryDeps,
    private readonly parsed?: ParsedAnswers,
  ) {}

  /** The summary for `query` (the parameters of `/api/v2/profile`), on behalf of `caller`. */
  async summary(query: Record<string, string>, caller: MirrorCaller): Promise<Summary> {
    const cached = await this.deps.mirror.peek('profile', query);
    const known = cached && this.cut.get(cached);
    // an answer a reported monitoring change outdated is read anew through the mirror
    if (cached && known && cached.staleAfterChange === undefined) {
      const { refreshedAfterChange } = cached;
      return {
        status: 200,
        ...known,
        cacheHit: true,
        fetchedAt: cached.fetchedAt,
        refreshedAfterChange,
      };
    }
    const answer = await this.deps.mirror.get('profile', query, caller);
    const ok = answer.status >= 200 && answer.status < 300;
    const trimmed = ok ? summariseProfileBody(answer.json) : answer.json;
    const cut = { body: JSON.stringify(trimmed), empty: ok && !hasItem(trimmed) };
    // the answer the mirror gave is the one it keeps (a 200)
    const stored = answer.stored;
    if (ok && stored) {
      this.cut.set(stored, cut);
      // Keep the parse the mirror made, so the views asked for next need not parse again.
      this.parsed?.get(stored, answer.json);
    }
    const fetchedAt = stored?.fetchedAt ?? new Date();
    const retryAfter = ok ? undefined : answer.retryAfter;
    const { status, cacheHit, refreshedAfterChange } = answer;
    return { status, ...cut, cacheHit, fetchedAt, retryAfter, refreshedAfterChange };
  }
}

function queryOf(request: FastifyRequest): Record<string, string> {
  return request.query as Record<string, string>;
}

/**
 * Register `GET /api/local/profile-summary` (the same parameters as `/api/v2/profile`): 200 the
 * summary, or 404 `unknown_dot` when the service knows no carrier with the DOT asked for.
 */
export function registerProfileSummaryRoute(
  app: FastifyInstance,
  deps: ProfileSummaryDeps,
  maker = new SummaryMaker(deps),
) {
  contractRoute(app, profileSummaryRoute, {}, async (request, reply) => {
    if (deps.profileTtlMs <= 0) throw noCacheRefusal();
    const query = queryOf(request);
    const summary = await maker.summary(query, callerOf(request));
    const dot = dotAsked(query);
    // A search by another key that matches nothing is an empty search answer, passed on as it is.
    if (summary.empty && dot !== undefined) throw unknownDot(dot);
    // sent as the text it is (Fastify takes the returned reply as answered)
    return sendSummary(reply, summary) as never;
  });
}
