/**
 * The browser-facing mirror of the service: /api/v2/<endpoint> with the service's own parameters,
 * bodies and statuses. Each request is validated, answered from the cache when it can be, checked
 * against the budget, forwarded (queued and retried by the upstream client) and metered.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  parseFmcsaProfile,
  parseLiteResponse,
  parseMonitoringMutation,
  parseProfileResponse,
} from '../../../src/lib/service/index.ts';
import { ENDPOINT_NAMES, ENDPOINTS } from '../../../src/lib/service/endpoints.ts';
import { DEFAULT_PAGE_SIZE } from '../../../src/lib/service/rules/index.ts';
import { newestChangeDays } from '../../../src/lib/monitoring/change-freshness.ts';
import { Coalescer, type ResponseCache, type StoredResponse } from '../cache.ts';
import type { Endpoint, Governance, ProxyConfig, SpendReservation } from '../context.ts';
import { ProxyError } from '../errors.ts';
import { omitProfileFields, PROFILE_LONG_LISTS } from '../profile-items.ts';
import { largeBodyEncoding, Precompressed } from '../http/precompressed.ts';
import type { SharedResponseCache } from '../team/redis-cache.ts';
import type { UpstreamClient, UpstreamResponse } from '../upstream.ts';
import { requestKey, validateRequest, type ForwardRequest } from '../validate.ts';

const MIRROR_PREFIX = '/api/v2';
export const MIRROR_BODY_LIMIT = 1024 * 1024;

/** The mirrored endpoints, with the one method each accepts (the contract's endpoint table). */
const MIRRORED = ENDPOINT_NAMES.map((endpoint) => ({
  endpoint,
  method: ENDPOINTS[endpoint].method,
}));
/** Endpoints the service bills for (monitoring/remove and /list are free). */
const BILLABLE: ReadonlySet<Endpoint> = new Set(
  ENDPOINT_NAMES.filter((endpoint) => ENDPOINTS[endpoint].price.kind !== 'free'),
);
/**
 * Endpoints the spend meter must hear about: the billable ones, and monitoring/remove (free, but the
 * meter stops carrying a removed DOT into the next month's monitoring bill).
 */
const METERED: ReadonlySet<Endpoint> = new Set(
  ENDPOINT_NAMES.filter((endpoint) => ENDPOINTS[endpoint].metered),
);

/** What the audit needs to know about one mirrored call, filled in as the request proceeds. */
interface MirrorOutcome {
  endpoint: Endpoint;
  searchKey?: string;
  searchValue?: string;
  dots: string[];
  cacheHit: boolean;
  /** an upstream call was made for this request and the service answered with success */
  billable: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    mirror: MirrorOutcome | null;
  }
}

/** Who a mirrored call is made for: the browser's request, or a proxy route acting for its user. */
export interface MirrorCaller {
  user: string;
  requestId: string;
  headers: IncomingHttpHeaders;
  /** a bulk job's lookup: its answer is held within the cache's bulk share (cache.ts) */
  bulk?: boolean;
}

/** A successful or failed answer of the mirror, read by proxy routes that call it themselves. */
export interface MirrorAnswer {
  status: number;
  json: unknown;
  /** served from the cache (or a shared in-flight call): free */
  cacheHit: boolean;
  /**
   * the service's Retry-After on a 429 passed on (longer than the proxy waits), for routes that
   * send the answer on: the page counts down from it. Other refusals keep their own handling.
   */
  retryAfter?: string | undefined;
  /**
   * the stored answer `json` was read from: the same object for every caller while it is cached,
   * so a route can keep what it derives from it (a refreshed answer is a new object)
   */
  stored?: StoredResponse;
  /**
   * `YYYY-MM-DD` of the monitoring change that made the proxy fetch this answer anew (its held copy
   * was older than the change), for routes that tell the page why the data was refreshed
   */
  refreshedAfterChange?: string | undefined;
}

/**
 * The mirror for the proxy's own routes (e.g. watchlist resolution): the same validation, cache,
 * budget check, upstream queue, spend meter and audit as a browser's call, without an HTTP round
 * trip. Validation and budget refusals, and upstream failures, are thrown as ProxyErrors.
 */
export interface MirrorClient {
  get(
    endpoint: Endpoint,
    query: Record<string, string>,
    caller: MirrorCaller,
  ): Promise<MirrorAnswer>;
}

/**
 * "Is this already held?": the answer the proxy holds for a request, from this replica's cache,
 * else (team mode) the shared cache — never fetched, never waited for, never billed or audited.
 * A held answer a reported change outdated is still returned, flagged (`staleAfterChange`). See
 * docs/proxy.md, "Peek".
 */
export interface MirrorPeek {
  peek(endpoint: Endpoint, query: Record<string, string>): Promise<StoredResponse | undefined>;
}

/**
 * The one peek: `cache`, else `sharedCache`'s answer without its lock or a wait (then kept in
 * `cache` for at most `ttlMs`, as `only-if-cached` keeps it). A request the mirror would refuse,
 * an endpoint it never caches, or a shared cache that cannot be asked: nothing held. The mirror's
 * `peek` is this over its own caches; a route given only a bare cache (its tests) peeks with it.
 */
export function peekAt(
  cache: ResponseCache,
  sharedCache?: SharedResponseCache,
  ttlMs = Number.POSITIVE_INFINITY,
): MirrorPeek['peek'] {
  return async (endpoint, query) => {
    if (ENDPOINTS[endpoint].cache === 'none') return undefined;
    let key: string;
    try {
      key = requestKey(validateRequest(endpoint, query, undefined));
    } catch {
      return undefined;
    }
    const local = cache.get(key);
    if (local || !sharedCache) return local;
    const shared = await sharedCache.get(key).catch(() => undefined);
    if (!shared) return undefined;
    if (shared.stored.status === 200) cache.set(key, shared.stored, Math.min(ttlMs, shared.ttlMs));
    return shared.stored;
  };
}

export interface MirrorDeps {
  config: ProxyConfig;
  upstream: UpstreamClient;
  cache: ResponseCache;
  /**
   * with REDIS_URL: the cache every replica of the key shares, behind the local one, and the lock
   * that lets one replica at a time call the service for a request
   */
  sharedCache?: SharedResponseCache;
  governance: Governance;
  /** told every successful answer of the service, to keep the carrier names it carries */
  names?: { observe(endpoint: Endpoint, json: unknown): void };
}

/** DOT numbers a successful body concerns, read with the project's shared service parsers. */
function dotsOfResponse(request: ForwardRequest, json: unknown): string[] {
  const dots = (list: (string | undefined)[]) => [
    ...new Set(list.filter((dot): dot is string => typeof dot === 'string' && dot !== '')),
  ];
  switch (request.endpoint) {
    case 'profile': {
      // Only the DOTs are read: the long histories are set aside before the shared parser runs
      // (the whole 13.5 MB answer of the heaviest carrier takes it ~0.5 s); an answer whose form
      // leaves no item after that is read whole.
      const quick = parseProfileResponse(omitProfileFields(json, PROFILE_LONG_LISTS)).value.items;
      const items = quick.length > 0 ? quick : parseProfileResponse(json).value.items;
      return dots(items.map((item) => item.dot_number));
    }
    case 'profile-lite':
      return dots(parseLiteResponse(json).value.items.map((item) => item.dot_number));
    case 'profile-fmcsa':
      return dots([parseFmcsaProfile(json).value?.dot_number ?? undefined]);
    case 'monitoring/add': {
      const failed = new Set(
        parseMonitoringMutation(json).value.failed.map((f) => f.profileId?.split('-')[0]),
      );
      return request.dots.filter((dot) => !failed.has(dot));
    }
    default:
      return request.dots;
  }
}

/** `Cache-Control: no-cache` / `no-store` / `max-age=0` or `Pragma: no-cache` force a refresh. */
function wantsRefresh(request: FastifyRequest): boolean {
  const cacheControl = String(request.headers['cache-control'] ?? '').toLowerCase();
  const pragma = String(request.headers.pragma ?? '').toLowerCase();
  return /no-cache|no-store|max-age=0\b/.test(cacheControl) || pragma.includes('no-cache');
}

/**
 * `Cache-Control: only-if-cached` (as in HTTP): answer from the cache or not at all, so the SPA can
 * ask whether a profile is already held without risking a billed call (the compare page).
 */
function onlyIfCached(headers: IncomingHttpHeaders): boolean {
  return /only-if-cached/.test(String(headers['cache-control'] ?? '').toLowerCase());
}

function notCached(): ProxyError {
  return new ProxyError(
    504,
    'not_cached',
    'The proxy holds no cached answer for this request (only-if-cached)',
    'Ask again without Cache-Control: only-if-cached to fetch it (a billed call).',
  );
}

function userOf(request: FastifyRequest): string {
  return request.user?.id ?? 'local';
}

function callerOf(request: FastifyRequest): MirrorCaller {
  return { user: userOf(request), requestId: request.id, headers: request.headers };
}

const compressedBodies = new Precompressed<StoredResponse>();

/**
 * The stored answer as the browser gets it. A large body goes out compressed from a copy made once
 * per stored answer (see http/precompressed.ts); a small one is left to the compression plugin.
 */
async function send(
  request: FastifyRequest,
  reply: FastifyReply,
  stored: StoredResponse,
  cache: 'hit' | 'miss',
): Promise<FastifyReply> {
  reply
    .code(stored.status)
    .headers(stored.headers)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'private, no-store')
    .header('x-cache', cache)
    .header('x-fetched-at', stored.fetchedAt.toISOString());
  if (stored.refreshedAfterChange !== undefined) {
    void reply.header('x-refreshed-after-change', stored.refreshedAfterChange);
  }
  // only-if-cached may be answered with a held copy a reported change has outdated: say so
  if (stored.staleAfterChange !== undefined) {
    void reply.header('x-stale-after-change', stored.staleAfterChange);
  }
  const encoding = largeBodyEncoding(request.headers, stored.body.length);
  if (!encoding) return reply.send(stored.body);
  const compressed = await compressedBodies.get(stored, stored.body, encoding);
  return reply
    .header('content-encoding', encoding)
    .header('vary', 'accept-encoding')
    .send(compressed);
}

function budgetRefusal(decision: { costUsd: number; spentUsd: number; budgetUsd: number }) {
  const usd = (n: number) => n.toFixed(2);
  return new ProxyError(
    402,
    'budget_exceeded',
    `This call would cost ${usd(decision.costUsd)} USD and cross the monthly budget ` +
      `(${usd(decision.spentUsd)} of ${usd(decision.budgetUsd)} USD spent)`,
    'Ask an administrator to raise MONTHLY_BUDGET_USD, or use data already fetched this month.',
  );
}

/** An answer and whether it came from the shared cache (free) rather than this replica's call. */
interface Fetched {
  stored: StoredResponse;
  hit: boolean;
}

class MirrorHandler {
  private readonly inFlight = new Coalescer<Fetched>();

  constructor(private readonly deps: MirrorDeps) {}

  ttlOf(endpoint: Endpoint): number {
    const { cache } = this.deps.config;
    switch (ENDPOINTS[endpoint].cache) {
      case 'profile':
        return cache.profileTtlMs;
      case 'autocomplete':
        return cache.autocompleteTtlMs;
      case 'none':
        return 0;
    }
  }

  async handle(endpoint: Endpoint, request: FastifyRequest, reply: FastifyReply) {
    const outcome: MirrorOutcome = { endpoint, dots: [], cacheHit: false, billable: false };
    request.mirror = outcome;
    const caller = { ...callerOf(request), refresh: wantsRefresh(request) };
    const { stored, cache } = await this.run(outcome, request.query, request.body, caller);
    return send(request, reply, stored, cache);
  }

  /** Validate, then answer from the cache or upstream; `outcome` is filled in for the audit. */
  async run(
    outcome: MirrorOutcome,
    query: unknown,
    body: unknown,
    caller: MirrorCaller & { refresh: boolean },
  ): Promise<{ stored: StoredResponse; cache: 'hit' | 'miss' }> {
    const { endpoint } = outcome;
    const forward = validateRequest(endpoint, query, body);
    outcome.searchKey = forward.searchKey;
    outcome.searchValue = forward.searchValue;
    outcome.dots = forward.dots;
    if (this.ttlOf(endpoint) > 0) return this.cached(forward, outcome, caller);
    if (onlyIfCached(caller.headers)) throw notCached();
    const stored = await this.call(forward, caller);
    outcome.dots = stored.dots;
    outcome.billable = BILLABLE.has(endpoint) && isSuccess(stored.status);
    if (endpoint === 'monitoring/list' && isSuccess(stored.status))
      await this.followChanges(stored);
    // Only a change to the watchlist drops cached answers: a list read (the Watch button reads
    // `monitoring/list?profile_id=`) must not, or the next profile view would be billed again.
    if (ENDPOINTS[endpoint].method === 'POST' && isSuccess(stored.status)) {
      this.deps.cache.invalidateDots(forward.dots);
      await this.deps.sharedCache?.invalidateDots(forward.dots);
    }
    return { stored, cache: 'miss' };
  }

  /**
   * Every change a monitoring list answer reports (the inbox, the badge, the alert poll and the
   * browser's own list read all pass here) marks the held answers of its DOT fetched before it
   * stale, here and (team mode) for every replica. See docs/proxy.md, "Freshness after a change".
   */
  private async followChanges(stored: StoredResponse): Promise<void> {
    const json = jsonOf(stored);
    parsedLists.set(stored, json);
    const marks = newestChangeDays(json);
    if (marks.size === 0) return;
    this.deps.cache.markStale(marks);
    await this.deps.sharedCache?.markStale(marks, this.deps.config.cache.profileTtlMs);
  }

  private async cached(
    forward: ForwardRequest,
    outcome: MirrorOutcome,
    caller: MirrorCaller & { refresh: boolean },
  ): Promise<{ stored: StoredResponse; cache: 'hit' | 'miss' }> {
    const key = requestKey(forward);
    const hit = caller.refresh ? undefined : this.deps.cache.get(key);
    // A held answer a reported change has outdated is read anew (only-if-cached still gets it).
    if (hit && (hit.staleAfterChange === undefined || onlyIfCached(caller.headers))) {
      return this.replayHit(hit, outcome, caller);
    }
    if (onlyIfCached(caller.headers)) {
      const shared = await this.deps.sharedCache?.get(key);
      if (!shared) throw notCached();
      this.deps.cache.set(key, shared.stored, shared.ttlMs);
      return this.replayHit(shared.stored, outcome, caller);
    }
    const staleAfter = hit?.staleAfterChange;
    // Readers of one stale answer join the one refetch (the coalescer), as readers of a miss do.
    const { value, shared } = await this.inFlight.run(key, () =>
      this.fetch(forward, key, caller, staleAfter),
    );
    if (shared || value.hit) return this.replayHit(value.stored, outcome, caller);
    outcome.dots = value.stored.dots;
    outcome.billable = BILLABLE.has(forward.endpoint) && isSuccess(value.stored.status);
    return { stored: value.stored, cache: 'miss' };
  }

  /**
   * A local miss: the shared cache's answer when another replica holds or is fetching it, else
   * this replica's own call; kept in the local cache either way (a 200 only).
   */
  private async fetch(
    forward: ForwardRequest,
    key: string,
    caller: MirrorCaller & { refresh: boolean },
    staleAfter: string | undefined,
  ): Promise<Fetched> {
    const ttl = this.ttlOf(forward.endpoint);
    const { sharedCache } = this.deps;
    /** this replica's call; an answer fetched because a change outdated the held one says which */
    const call = async (after: string | undefined) => {
      const stored = await this.call(forward, caller);
      if (after !== undefined && isSuccess(stored.status)) stored.refreshedAfterChange = after;
      return stored;
    };
    const held = { bulk: caller.bulk === true };
    if (!sharedCache) {
      const stored = await call(staleAfter);
      if (stored.status === 200) this.deps.cache.set(key, stored, ttl, held);
      return { stored, hit: false };
    }
    const fetched = await sharedCache.fetch(key, ttl, caller.refresh, call, staleAfter);
    if (fetched.hit) {
      this.deps.cache.set(key, fetched.stored, Math.min(ttl, fetched.ttlMs), held);
    } else if (fetched.stored.status === 200) {
      this.deps.cache.set(key, fetched.stored, ttl, held);
    }
    return { stored: fetched.stored, hit: fetched.hit };
  }

  /**
   * The answer held for `endpoint`/`query` (peekAt over this mirror's caches); nothing when the
   * configured lifetime of the endpoint's answers is 0 (not cached).
   */
  async peek(endpoint: Endpoint, query: Record<string, string>) {
    const ttl = this.ttlOf(endpoint);
    if (ttl <= 0) return undefined;
    return peekAt(this.deps.cache, this.deps.sharedCache, ttl)(endpoint, query);
  }

  /** A cache hit (or a request that joined one in flight): free, and recorded as such. */
  private async replayHit(stored: StoredResponse, outcome: MirrorOutcome, caller: MirrorCaller) {
    outcome.cacheHit = true;
    outcome.dots = stored.dots;
    if (BILLABLE.has(outcome.endpoint) && isSuccess(stored.status)) {
      await this.deps.governance.spend.record({
        endpoint: outcome.endpoint,
        dots: stored.dots,
        at: new Date(),
        user: caller.user,
        cacheHit: true,
      });
    }
    return { stored, cache: 'hit' as const };
  }

  /**
   * Reserve what a billable call may cost, before it is sent: the budget is checked and the intent
   * written in one transaction (402 when it could cross the budget, 503 when it cannot be written;
   * either way nothing goes upstream). A search whose DOTs are unknown is priced at its page.
   */
  private async reserve(
    forward: ForwardRequest,
    caller: MirrorCaller,
  ): Promise<SpendReservation | undefined> {
    if (!BILLABLE.has(forward.endpoint)) return undefined;
    const decision = await this.deps.governance.spend.reserve({
      endpoint: forward.endpoint,
      dots: forward.dots,
      at: new Date(),
      user: caller.user,
      maxUnits: forward.dots.length === 0 ? pageSizeOf(forward) : undefined,
    });
    if (!decision.ok) throw budgetRefusal(decision);
    return decision.reservation;
  }

  /** Reserve, call upstream, settle; the answer as the proxy stores and replays it. */
  private async call(forward: ForwardRequest, caller: MirrorCaller): Promise<StoredResponse> {
    const { spend } = this.deps.governance;
    const reservation = await this.reserve(forward, caller);
    let response: UpstreamResponse;
    try {
      response = await this.deps.upstream.send(forward, {
        requestId: caller.requestId,
        clientHeaders: caller.headers,
      });
    } catch (err) {
      if (reservation) {
        // Sent and then cut off, timed out or unreadable: the service may have billed it.
        if (err instanceof ProxyError && err.reachedService) await spend.markUncertain(reservation);
        else await spend.release(reservation);
      }
      throw err;
    }
    let stored: StoredResponse;
    try {
      stored = toStored(forward, response);
    } catch (err) {
      if (reservation) await spend.markUncertain(reservation);
      throw err;
    }
    const call = { endpoint: forward.endpoint, dots: stored.dots, at: stored.fetchedAt };
    if (isSuccess(stored.status)) {
      // the names it carries are kept (queued here, written in batches off this path)
      this.deps.names?.observe(forward.endpoint, response.json);
      // Written at once, or queued and retried when the database refuses: the answer is served.
      if (reservation) await spend.settle(reservation, { ...call, user: caller.user });
      else if (METERED.has(forward.endpoint)) {
        await spend.record({ ...call, user: caller.user, cacheHit: false });
      }
    } else if (reservation) {
      // A gateway error may come after the service served (and billed) the request.
      if (GATEWAY_STATUSES.has(stored.status)) await spend.markUncertain(reservation);
      else await spend.release(reservation);
    }
    return stored;
  }
}

/** Answers a gateway may give after the service served the request. */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 504]);

/**
 * The most DOTs a search may serve: its page size (`pageSize`, sent only when it is not the
 * service's default of 100; validation clamps it to 100 before it is sent).
 */
function pageSizeOf(forward: ForwardRequest): number {
  if (forward.endpoint !== 'profile' && forward.endpoint !== 'profile-lite') return 1;
  const sent = forward.query.find(([name]) => name === 'pageSize')?.[1];
  const size = sent === undefined ? DEFAULT_PAGE_SIZE : Number(sent);
  return Number.isInteger(size) && size > 0 ? size : DEFAULT_PAGE_SIZE;
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function toStored(forward: ForwardRequest, response: UpstreamResponse): StoredResponse {
  return {
    status: response.status,
    body: response.body,
    headers: response.headers,
    fetchedAt: new Date(),
    dots: isSuccess(response.status) ? dotsOfResponse(forward, response.json) : forward.dots,
  };
}

function recordAudit(
  governance: Governance,
  outcome: MirrorOutcome | null,
  call: { user: string; method: string; status: number },
): void {
  if (!outcome) return;
  const { user, method, status } = call;
  governance.audit.record({
    at: new Date(),
    user,
    method,
    endpoint: outcome.endpoint,
    searchKey: outcome.searchKey,
    searchValue: outcome.searchValue,
    dot: outcome.dots[0],
    cacheHit: outcome.cacheHit,
    billable: outcome.billable,
    status,
  });
}

/** Paths of the mirror, with the one method each accepts (for 405 answers). */
function mirrorRoutes(): { path: string; method: 'GET' | 'POST'; endpoint: Endpoint }[] {
  return MIRRORED.map(({ endpoint, method }) => ({
    path: `${MIRROR_PREFIX}/${endpoint}`,
    method,
    endpoint,
  }));
}

/** List answers parsed once to follow their changes, so the route that asked reads the same parse. */
const parsedLists = new WeakMap<StoredResponse, unknown>();

/** The body of a stored answer as JSON (the upstream client only stores JSON bodies). */
function jsonOf(stored: StoredResponse): unknown {
  try {
    return JSON.parse(stored.body) as unknown;
  } catch {
    return undefined;
  }
}

function mirrorClient(handler: MirrorHandler, governance: Governance): MirrorClient & MirrorPeek {
  return {
    peek: (endpoint, query) => handler.peek(endpoint, query),
    async get(endpoint, query, caller) {
      const outcome: MirrorOutcome = { endpoint, dots: [], cacheHit: false, billable: false };
      const audit = (status: number) =>
        recordAudit(governance, outcome, { user: caller.user, method: 'GET', status });
      try {
        const { stored } = await handler.run(outcome, query, undefined, {
          ...caller,
          refresh: false,
        });
        audit(stored.status);
        // The body is parsed when a caller reads `json`, once: a caller that keeps what it derived
        // from `stored` (the verdict) does not pay for parsing a 13.5 MB answer on every hit.
        let json: unknown;
        let parsed = false;
        return {
          status: stored.status,
          get json() {
            if (!parsed) {
              json = parsedLists.has(stored) ? parsedLists.get(stored) : jsonOf(stored);
              parsed = true;
            }
            return json;
          },
          cacheHit: outcome.cacheHit,
          retryAfter: stored.status === 429 ? stored.headers['retry-after'] : undefined,
          stored,
          refreshedAfterChange: stored.refreshedAfterChange,
        };
      } catch (err) {
        audit(err instanceof ProxyError ? err.status : 500);
        throw err;
      }
    },
  };
}

/**
 * Register the seven mirror routes and the audit of every call to them; returns the same mirror
 * for the proxy's own routes.
 */
export function registerMirrorRoutes(
  app: FastifyInstance,
  deps: MirrorDeps,
): MirrorClient & MirrorPeek {
  const handler = new MirrorHandler(deps);
  // Team mode: changes another replica's list reads reported mark this replica's held answers too.
  const stopFollowing = deps.sharedCache?.onStale((marks) => deps.cache.markStale(marks));
  if (stopFollowing) app.addHook('onClose', () => stopFollowing());
  app.decorateRequest('mirror', null);
  for (const route of mirrorRoutes()) {
    app.route({
      method: route.method,
      url: route.path,
      bodyLimit: MIRROR_BODY_LIMIT,
      handler: (request, reply) => handler.handle(route.endpoint, request, reply),
      onResponse: async (request, reply) => {
        recordAudit(deps.governance, request.mirror, {
          user: userOf(request),
          method: request.method,
          status: reply.statusCode,
        });
      },
    });
  }
  return mirrorClient(handler, deps.governance);
}
