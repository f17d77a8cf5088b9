/**
 * `GET /api/local/profile-view?dot_number=&view=`: one view of a carrier's profile (a page of a
 * history, the map's points, the network fields, the summary), cut on the proxy from the mirror's
 * one `/v2/profile` answer so the browser never downloads or parses the whole answer (13.5 MB for
 * the heaviest carrier). Billing is the summary's: a cache miss is the mirror's one billed call
 * (shared with any call in flight); a held answer (the mirror's peek: this replica's cache, else
 * the shared one) is served without calling the mirror, so it is free and not audited again. The parsed answer is kept for the few most
 * recently used profiles (`ParsedAnswers`), and the tables cut from it beside it (`ProfileModel`).
 * See docs/proxy.md, "Profile views".
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { profileViewRoute } from '../../../src/lib/carrier/contract.ts';
import type { StoredResponse } from '../cache.ts';
import { ApiError } from '../http/api-error.ts';
import { contractRoute } from '../http/contract-route.ts';
import { parseInput } from '../http/parse-input.ts';
import { validateRequest } from '../validate.ts';
import {
  callerOf,
  ParsedAnswers,
  registerProfileSummaryRoute,
  SUMMARY_OMITTED_FIELDS,
  SummaryMaker,
  type ProfileSummaryDeps,
  type Summary,
  unknownDot,
} from './profile-summary.ts';
import { checkText } from './contract-text.ts';
import {
  defaultSort,
  isPagedView,
  PROFILE_VIEWS,
  ProfileModel,
  profileItemOf,
  VIEW_PARAMETERS,
  VIEW_QUERY_CODE,
  VIEW_SCHEMAS,
  type Filters,
  type PageQuery,
  type ProfileView,
} from './profile-view-model.ts';

export const PROFILE_VIEW_PATH = '/api/local/profile-view';

export interface ProfileViewDeps extends ProfileSummaryDeps {
  /** the summary route's maker, so both routes share its cut summaries and parsed answers */
  summaries: SummaryMaker;
  parsed: ParsedAnswers;
}

function badQuery(message: string, hint: string): ApiError {
  return new ApiError(400, VIEW_QUERY_CODE, message, hint);
}

function viewOf(query: Record<string, unknown>): ProfileView {
  const view = query.view;
  if (typeof view === 'string' && (PROFILE_VIEWS as readonly string[]).includes(view)) {
    return view as ProfileView;
  }
  const problem =
    view === undefined
      ? 'view is required'
      : typeof view === 'string'
        ? `Unknown view '${view.slice(0, 40)}'`
        : 'view must be given once';
  throw badQuery(problem, `Ask with view= one of ${PROFILE_VIEWS.join(', ')}.`);
}

type ViewQuery =
  { view: 'summary' } | { view: 'network' } | { view: 'points'; filters: Filters } | PageAsk;
interface PageAsk {
  view: 'page';
  page: PageQuery;
}

/** The view's own parameters, read with its schema: a 400 `invalid_view_query` names the problem. */
function parametersOf(view: ProfileView, query: Record<string, unknown>): ViewQuery {
  const hint = VIEW_PARAMETERS[view]
    ? `The ${view} view takes dot_number, view and ${VIEW_PARAMETERS[view]}.`
    : `The ${view} view takes only dot_number and view.`;
  const parsed = parseInput(VIEW_SCHEMAS[view], query, {
    hint,
    unknown: {
      code: VIEW_QUERY_CODE,
      message: (key) => `Unknown parameter '${key}' for the ${view} view`,
    },
    codes: Object.fromEntries(Object.keys(query).map((key) => [key, VIEW_QUERY_CODE])),
    rootCode: VIEW_QUERY_CODE,
  });
  if (!parsed.ok) throw parsed.error;
  const { dot_number: _dot, view: _view, ...rest } = parsed.value as Record<string, unknown>;
  if (view === 'summary') return { view };
  if (view === 'network') return { view };
  if (!isPagedView(view)) return { view: 'points', filters: rest as Filters };
  const page = rest as Omit<PageQuery, 'sort'> & { sort?: string };
  return { view: 'page', page: { ...page, sort: page.sort ?? defaultSort(view) } };
}

function noCacheRefusal(): ApiError {
  return new ApiError(
    409,
    'view_unavailable',
    'Profile views need the proxy’s profile cache, which is turned off',
    'Load the full profile (/api/v2/profile); CACHE_PROFILE_TTL_SECONDS above 0 enables views.',
  );
}

interface Answer {
  status: number;
  /** the parsed body (the service's error body when status is not 2xx) */
  json: unknown;
  cacheHit: boolean;
  fetchedAt: Date;
  /** the service's Retry-After on a refused answer, passed on so the page can count down */
  retryAfter?: string | undefined;
}

function send(reply: FastifyReply, view: ProfileView, answer: Omit<Answer, 'json'>, body: string) {
  checkText(profileViewRoute, answer.status, body);
  if (answer.retryAfter !== undefined) void reply.header('retry-after', answer.retryAfter);
  return reply
    .code(answer.status)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'private, no-store')
    .header('x-cache', answer.cacheHit ? 'hit' : 'miss')
    .header('x-fetched-at', answer.fetchedAt.toISOString())
    .header('x-profile-view', view)
    .send(body);
}

class ProfileViews {
  /** tables cut from each parsed answer, dropped with it */
  private readonly models = new WeakMap<object, ProfileModel>();

  constructor(private readonly deps: ProfileViewDeps) {}

  /** The profile answer: parsed from the cached entry (free), else through the mirror (billed). */
  private async answer(query: Record<string, string>, request: FastifyRequest): Promise<Answer> {
    const cached: StoredResponse | undefined = await this.deps.mirror.peek('profile', query);
    // an answer a reported monitoring change outdated is read anew through the mirror
    if (cached && cached.staleAfterChange === undefined) {
      const json = this.deps.parsed.get(cached);
      return { status: cached.status, json, cacheHit: true, fetchedAt: cached.fetchedAt };
    }
    const answer = await this.deps.mirror.get('profile', query, callerOf(request));
    // the answer the mirror gave is the one it keeps (a 200)
    const stored = answer.stored;
    const ok = answer.status >= 200 && answer.status < 300;
    if (ok && stored) this.deps.parsed.get(stored, answer.json);
    return { ...answer, fetchedAt: stored?.fetchedAt ?? new Date() };
  }

  private modelOf(json: unknown, dot: string): ProfileModel | undefined {
    if (typeof json !== 'object' || json === null) return undefined;
    const known = this.models.get(json);
    if (known) return known;
    const item = profileItemOf(json);
    if (!item) return undefined;
    const model = new ProfileModel(item, dot);
    this.models.set(json, model);
    return model;
  }

  async serve(request: FastifyRequest, reply: FastifyReply) {
    const raw = request.query as Record<string, unknown>;
    const view = viewOf(raw);
    const ask = parametersOf(view, raw);
    if (this.deps.profileTtlMs <= 0) throw noCacheRefusal();
    // Only the DOT goes on to the mirror, validated by the rules of `/api/v2/profile`.
    const profileQuery = (
      raw.dot_number === undefined ? {} : { dot_number: raw.dot_number }
    ) as Record<string, string>;
    const forward = validateRequest('profile', profileQuery, undefined);
    const dot = forward.query.find(([name]) => name === 'dot_number')?.[1] ?? '';
    if (ask.view === 'summary') {
      const summary: Summary = await this.deps.summaries.summary(profileQuery, callerOf(request));
      if (summary.empty) throw unknownDot(dot);
      reply.header('x-profile-summary-omitted', SUMMARY_OMITTED_FIELDS.join(','));
      return send(reply, view, summary, summary.body);
    }
    const answer = await this.answer(profileQuery, request);
    if (answer.status < 200 || answer.status >= 300) {
      return send(reply, view, answer, JSON.stringify(answer.json));
    }
    const model = this.modelOf(answer.json, dot);
    if (!model) throw unknownDot(dot);
    let body: unknown;
    if (ask.view === 'network') body = model.network();
    else if (ask.view === 'points') {
      body = model.points(view as 'inspection-points' | 'crash-points', ask.filters);
    } else body = model.page(view as 'inspections' | 'crashes' | 'equipment', ask.page);
    return send(reply, view, answer, JSON.stringify(body));
  }
}

/** Register `GET /api/local/profile-view` beside the summary route it shares its caches with. */
function registerProfileViewRoute(app: FastifyInstance, deps: ProfileViewDeps) {
  const views = new ProfileViews(deps);
  // sent as text (Fastify takes the returned reply as answered)
  contractRoute(
    app,
    profileViewRoute,
    {},
    (request, reply) => views.serve(request, reply) as never,
  );
}

/** Register the summary and the view routes, sharing one store of parsed answers and summaries. */
export function registerProfileRoutes(app: FastifyInstance, deps: ProfileSummaryDeps) {
  const parsed = new ParsedAnswers();
  const summaries = new SummaryMaker(deps, parsed);
  registerProfileSummaryRoute(app, deps, summaries);
  registerProfileViewRoute(app, { ...deps, summaries, parsed });
}
