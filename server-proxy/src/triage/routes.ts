/**
 * The monitoring routes the proxy answers itself, under /api/local: triage of changes (per user),
 * the user's last inbox visit, the navigation badge's count (routes/monitoring-badge.ts), and
 * resolution of pasted watch lists to profile ids.
 * Governance's hooks run first: `request.user` is set, POST/PUT carry the CSRF header.
 */
import type Database from 'better-sqlite3';
import { unlessStorageUnavailable } from '../http/storage-unavailable.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestUser } from '../context.ts';
import { contractRoute } from '../http/contract-route.ts';
import type { InputWording } from '../http/parse-input.ts';
import { peekAt, type MirrorClient, type MirrorPeek } from '../routes/mirror.ts';
import type { ResponseCache } from '../cache.ts';
import { registerMonitoringBadgeRoute } from '../routes/monitoring-badge.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { guardWrites } from '../sql/write-guard.ts';
import {
  heldNamesRoute,
  lastVisitRoute,
  recordVisitRoute,
  triageLookupBodyRoute,
  triageLookupRoute,
  triagePutRoute,
  triageSummaryRoute,
  type TriageLookup,
} from '../../../src/lib/monitoring/contract.ts';
import { RESOLVE_HINT, resolveRoute } from '../../../src/lib/watchlist/contract.ts';
import { LOOKUP_BODY_WORDING, LOOKUP_WORDING, PUT_WORDING, VISIT_WORDING } from './inputs.ts';
import { heldNames, NAMES_WORDING } from './names.ts';
import { planResolution, resolveEntries } from './resolve.ts';
import { createTriageStore, type Actor } from './store.ts';

export interface MonitoringRouteDeps {
  db: Database.Database;
  /** where triage and visits live: PostgreSQL with DATABASE_URL (default: SQLite over `db`) */
  sql?: SqlEngine;
  /** the proxy's own mirror; its peek finds the names the inbox shows in held answers */
  mirror: MirrorClient & Partial<MirrorPeek>;
  /** a bare response cache, peeked at (peekAt) when the mirror has no peek of its own (tests) */
  cache?: ResponseCache;
  /** clock of triage and visit times (tests move it) */
  now?: () => Date;
}

const LOCAL_ACTOR: RequestUser = { id: 'local', name: 'local', role: 'admin' };

function actorOf(request: FastifyRequest): Actor {
  return request.user ?? LOCAL_ACTOR;
}

const RESOLVE_WORDING: InputWording = {
  hint: RESOLVE_HINT,
  codes: { dryRun: 'invalid_dry_run' },
  unknown: { code: 'unknown_field', message: (key) => `Unknown member "${key}"` },
};

/**
 * `fn`'s answer, or the 503 `storage_unavailable` sent on `reply`. The handler returns what this
 * gives: the reply itself when the refusal was sent, which Fastify takes as answered (typed as the
 * answer, which the contract's handler type asks for).
 */
function unlessUnavailable<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  fn: () => Promise<T>,
): Promise<T> {
  return unlessStorageUnavailable(request, reply, 'triage', fn) as Promise<T>;
}

function registerTriageRoutes(app: FastifyInstance, deps: MonitoringRouteDeps, now: () => Date) {
  const sql = deps.sql ?? createSqliteEngine(deps.db);
  const store = createTriageStore(sql);
  const write = guardWrites(sql, deps.db);
  const { mirror, cache } = deps;
  const peek = mirror.peek?.bind(mirror) ?? (cache && peekAt(cache));
  const held: MirrorPeek | undefined = peek && { peek };

  const lookUp = async (request: FastifyRequest, lookup: TriageLookup) => {
    const user = actorOf(request).id;
    const { by, values } = lookup;
    const items = await (by === 'ids' ? store.byIds(user, values) : store.byProfiles(user, values));
    return { items };
  };

  contractRoute(app, triageLookupRoute, { wording: { query: LOOKUP_WORDING } }, (request, reply) =>
    unlessUnavailable(request, reply, () => lookUp(request, request.query)),
  );

  // The same read with the ids in the body: an inbox page of 500 profile ids in one request (a
  // query string that long may pass a reverse proxy's request-line limit). A POST, so it carries
  // the CSRF header like every other POST; it changes nothing.
  contractRoute(
    app,
    triageLookupBodyRoute,
    { wording: { body: LOOKUP_BODY_WORDING } },
    (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return unlessUnavailable(request, reply, () => lookUp(request, request.body));
    },
  );

  contractRoute(app, triagePutRoute, { wording: { body: PUT_WORDING } }, (request, reply) => {
    const updates = request.body;
    return unlessUnavailable(request, reply, async () => {
      const items = await write(() => store.put(actorOf(request), updates, now()));
      return { updated: updates.length, items };
    });
  });

  // Names held already (cache, decision records): free, never an upstream call.
  contractRoute(app, heldNamesRoute, { wording: { query: NAMES_WORDING } }, (request, reply) =>
    unlessUnavailable(request, reply, async () => {
      const names = await heldNames(request.query, { sql, cache: held });
      reply.header('cache-control', 'private, no-store');
      return { names };
    }),
  );

  contractRoute(app, triageSummaryRoute, {}, (request, reply) => {
    const user = actorOf(request).id;
    return unlessUnavailable(request, reply, async () => {
      const [summary, visit] = await Promise.all([store.summary(user), store.visit(user)]);
      return { ...summary, ...visit };
    });
  });

  contractRoute(app, lastVisitRoute, {}, (request, reply) =>
    unlessUnavailable(request, reply, () => store.visit(actorOf(request).id)),
  );

  contractRoute(app, recordVisitRoute, { wording: { body: VISIT_WORDING } }, (request, reply) =>
    unlessUnavailable(request, reply, () =>
      write(() => store.recordVisit(actorOf(request).id, now())),
    ),
  );

  // The navigation badge's count: the mirror's list and this store's states, counted here.
  registerMonitoringBadgeRoute(app, { mirror: deps.mirror, store });
}

function registerResolveRoute(app: FastifyInstance, mirror: MirrorClient) {
  contractRoute(app, resolveRoute, { wording: { body: RESOLVE_WORDING } }, async (request) => {
    const { entries, dryRun } = request.body;
    if (dryRun) return { plan: planResolution(entries) };
    const caller = { user: actorOf(request).id, requestId: request.id, headers: request.headers };
    return resolveEntries(entries, mirror, caller);
  });
}

/**
 * Register /api/local/triage* (with POST /api/local/triage/lookup), /api/local/triage/names,
 * /api/local/triage/last-visit, /api/local/monitoring-badge and /api/local/watchlist/resolve.
 */
export function registerMonitoringRoutes(app: FastifyInstance, deps: MonitoringRouteDeps): void {
  const now = deps.now ?? (() => new Date());
  registerTriageRoutes(app, deps, now);
  registerResolveRoute(app, deps.mirror);
}
