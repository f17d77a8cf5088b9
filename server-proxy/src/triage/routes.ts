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
import { z } from 'zod';
import { sendApiError } from '../http/api-error.ts';
import { issue, parseInput, type InputWording } from '../http/parse-input.ts';
import { peekAt, type MirrorClient, type MirrorPeek } from '../routes/mirror.ts';
import type { ResponseCache } from '../cache.ts';
import { registerMonitoringBadgeRoute } from '../routes/monitoring-badge.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { guardWrites } from '../sql/write-guard.ts';
import { MAX_ENTRY_CHARS } from '../../../src/lib/service/rules/entries.ts';
import {
  parseLookup,
  parseLookupBody,
  parseTriagePut,
  parseVisitPut,
  type TriageLookup,
} from './inputs.ts';
import { heldNames, parseNamesQuery } from './names.ts';
import { planResolution, resolveEntries } from './resolve.ts';
import { createTriageStore, type Actor } from './store.ts';

const MAX_RESOLVE_ENTRIES = 10_000;

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

const RESOLVE_HINT = `Send {"entries": ["568253", "MC277621", "568253-MC277621"], "dryRun"?: true} with at most ${MAX_RESOLVE_ENTRIES} entries.`;
const ENTRIES = `"entries" must be an array of 1 to ${MAX_RESOLVE_ENTRIES} strings`;

const isEntry = (entry: unknown): entry is string =>
  typeof entry === 'string' && entry.trim() !== '' && entry.length <= MAX_ENTRY_CHARS;

/** POST /api/local/watchlist/resolve body: `{entries: string[], dryRun?: boolean}`. */
const resolveSchema = z.strictObject(
  {
    entries: z
      .array(z.unknown(), { error: ENTRIES })
      .min(1, { error: ENTRIES })
      .max(MAX_RESOLVE_ENTRIES, { error: ENTRIES })
      .transform((entries, ctx) => {
        const bad = entries.findIndex((entry) => !isEntry(entry));
        if (bad >= 0) {
          const message = `entries[${bad}] must be a non-empty string of at most ${MAX_ENTRY_CHARS} characters`;
          ctx.addIssue(issue('invalid_entries', message));
        }
        return entries.filter(isEntry);
      }),
    dryRun: z.boolean({ error: '"dryRun" must be true or false' }).default(false),
  },
  { error: 'The body must be a JSON object' },
);

const RESOLVE_WORDING: InputWording = {
  hint: RESOLVE_HINT,
  codes: { dryRun: 'invalid_dry_run' },
  unknown: { code: 'unknown_field', message: (key) => `Unknown member "${key}"` },
};

function unlessUnavailable<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  fn: () => Promise<T>,
): Promise<T | FastifyReply> {
  return unlessStorageUnavailable(request, reply, 'triage', fn);
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

  app.get('/api/local/triage', async (request, reply) => {
    const lookup = parseLookup(request.query);
    if (!lookup.ok) return sendApiError(reply, lookup.error);
    return unlessUnavailable(request, reply, () => lookUp(request, lookup.value));
  });

  // The same read with the ids in the body: an inbox page of 500 profile ids in one request (a
  // query string that long may pass a reverse proxy's request-line limit). A POST, so it carries
  // the CSRF header like every other POST; it changes nothing.
  app.post('/api/local/triage/lookup', async (request, reply) => {
    const lookup = parseLookupBody(request.body);
    if (!lookup.ok) return sendApiError(reply, lookup.error);
    reply.header('cache-control', 'private, no-store');
    return unlessUnavailable(request, reply, () => lookUp(request, lookup.value));
  });

  app.put('/api/local/triage', async (request, reply) => {
    const updates = parseTriagePut(request.body);
    if (!updates.ok) return sendApiError(reply, updates.error);
    return unlessUnavailable(request, reply, async () => {
      const items = await write(() => store.put(actorOf(request), updates.value, now()));
      return { updated: updates.value.length, items };
    });
  });

  // Names held already (cache, decision records): free, never an upstream call.
  app.get('/api/local/triage/names', async (request, reply) => {
    const dots = parseNamesQuery(request.query);
    if (!dots.ok) return sendApiError(reply, dots.error);
    return unlessUnavailable(request, reply, async () => {
      const names = await heldNames(dots.value, { sql, cache: held });
      reply.header('cache-control', 'private, no-store');
      return { names };
    });
  });

  app.get('/api/local/triage/summary', async (request, reply) => {
    const user = actorOf(request).id;
    return unlessUnavailable(request, reply, async () => {
      const [summary, visit] = await Promise.all([store.summary(user), store.visit(user)]);
      return { ...summary, ...visit };
    });
  });

  app.get('/api/local/triage/last-visit', async (request, reply) =>
    unlessUnavailable(request, reply, () => store.visit(actorOf(request).id)),
  );

  app.put('/api/local/triage/last-visit', async (request, reply) => {
    const body = parseVisitPut(request.body);
    if (!body.ok) return sendApiError(reply, body.error);
    return unlessUnavailable(request, reply, () =>
      write(() => store.recordVisit(actorOf(request).id, now())),
    );
  });

  // The navigation badge's count: the mirror's list and this store's states, counted here.
  registerMonitoringBadgeRoute(app, { mirror: deps.mirror, store });
}

function registerResolveRoute(app: FastifyInstance, mirror: MirrorClient) {
  app.post('/api/local/watchlist/resolve', async (request, reply) => {
    const body = parseInput(resolveSchema, request.body, RESOLVE_WORDING);
    if (!body.ok) return sendApiError(reply, body.error);
    const { entries, dryRun } = body.value;
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
