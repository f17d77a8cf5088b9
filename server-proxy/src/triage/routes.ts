/**
 * The monitoring routes the proxy answers itself, under /api/local: triage of changes (per user),
 * the user's last inbox visit, and resolution of pasted watch lists to profile ids.
 * Governance's hooks run first: `request.user` is set, POST/PUT carry the CSRF header.
 */
import type Database from 'better-sqlite3';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RequestUser } from '../context.ts';
import { sendError } from '../governance/errors.ts';
import type { ResponseCache } from '../cache.ts';
import type { MirrorClient } from '../routes/mirror.ts';
import { storageOf } from '../storage.ts';
import { MAX_ENTRY_CHARS } from './entries.ts';
import { parseLookup, parseTriagePut, parseVisitPut, type Checked } from './inputs.ts';
import { heldNames, parseNamesQuery } from './names.ts';
import { planResolution, resolveEntries } from './resolve.ts';
import { createTriageStore, type Actor } from './store.ts';

const MAX_RESOLVE_ENTRIES = 10_000;

export interface MonitoringRouteDeps {
  db: Database.Database;
  mirror: MirrorClient;
  /** the mirror's response cache, read (never filled) for the names the inbox shows */
  cache?: ResponseCache;
  /** clock of triage and visit times (tests move it) */
  now?: () => Date;
}

const LOCAL_ACTOR: RequestUser = { id: 'local', name: 'local' };

function actorOf(request: FastifyRequest): Actor {
  return request.user ?? LOCAL_ACTOR;
}

interface ResolveBody {
  entries: string[];
  dryRun: boolean;
}

const RESOLVE_HINT = `Send {"entries": ["568253", "MC277621", "568253-MC277621"], "dryRun"?: true} with at most ${MAX_RESOLVE_ENTRIES} entries.`;

function fail(
  code: string,
  error: string,
): { ok: false; problem: { error: string; code: string; hint: string } } {
  return { ok: false, problem: { error, code, hint: RESOLVE_HINT } };
}

/** POST /api/local/watchlist/resolve body: `{entries: string[], dryRun?: boolean}`. */
function parseResolveBody(body: unknown): Checked<ResolveBody> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail('invalid_body', 'The body must be a JSON object');
  }
  const raw = body as Record<string, unknown>;
  const extra = Object.keys(raw).find((key) => key !== 'entries' && key !== 'dryRun');
  if (extra !== undefined) return fail('unknown_field', `Unknown member "${extra.slice(0, 40)}"`);
  const { entries, dryRun = false } = raw;
  if (!Array.isArray(entries) || entries.length === 0 || entries.length > MAX_RESOLVE_ENTRIES) {
    return fail(
      'invalid_entries',
      `"entries" must be an array of 1 to ${MAX_RESOLVE_ENTRIES} strings`,
    );
  }
  const bad = entries.findIndex(
    (entry) => typeof entry !== 'string' || entry.trim() === '' || entry.length > MAX_ENTRY_CHARS,
  );
  if (bad >= 0) {
    return fail(
      'invalid_entries',
      `entries[${bad}] must be a non-empty string of at most ${MAX_ENTRY_CHARS} characters`,
    );
  }
  if (typeof dryRun !== 'boolean') return fail('invalid_dry_run', '"dryRun" must be true or false');
  return { ok: true, value: { entries: entries as string[], dryRun } };
}

function registerTriageRoutes(app: FastifyInstance, deps: MonitoringRouteDeps, now: () => Date) {
  const store = createTriageStore(deps.db);
  // A write the database refuses (lock, read-only, deleted file) is a 503 storage_unavailable.
  const storage = storageOf(deps.db);

  app.get('/api/local/triage', async (request, reply) => {
    const lookup = parseLookup(request.query);
    if (!lookup.ok) return sendError(reply, 400, lookup.problem);
    const user = actorOf(request).id;
    const { by, values } = lookup.value;
    const items = by === 'ids' ? store.byIds(user, values) : store.byProfiles(user, values);
    return { items };
  });

  app.put('/api/local/triage', async (request, reply) => {
    const updates = parseTriagePut(request.body);
    if (!updates.ok) return sendError(reply, 400, updates.problem);
    const items = storage.write(() => store.put(actorOf(request), updates.value, now()));
    return { updated: updates.value.length, items };
  });

  // Names held already (cache, decision records): free, never an upstream call.
  app.get('/api/local/triage/names', async (request, reply) => {
    const dots = parseNamesQuery(request.query);
    if (!dots.ok) return sendError(reply, 400, dots.problem);
    reply.header('cache-control', 'private, no-store');
    return { names: heldNames(dots.value, { db: deps.db, cache: deps.cache }) };
  });

  app.get('/api/local/triage/summary', async (request) => {
    const user = actorOf(request).id;
    return { ...store.summary(user), ...store.visit(user) };
  });

  app.get('/api/local/triage/last-visit', async (request) => store.visit(actorOf(request).id));

  app.put('/api/local/triage/last-visit', async (request, reply) => {
    const body = parseVisitPut(request.body);
    if (!body.ok) return sendError(reply, 400, body.problem);
    return storage.write(() => store.recordVisit(actorOf(request).id, now()));
  });
}

function registerResolveRoute(app: FastifyInstance, mirror: MirrorClient) {
  app.post('/api/local/watchlist/resolve', async (request, reply) => {
    const body = parseResolveBody(request.body);
    if (!body.ok) return sendError(reply, 400, body.problem);
    const { entries, dryRun } = body.value;
    if (dryRun) return { plan: planResolution(entries) };
    const caller = { user: actorOf(request).id, requestId: request.id, headers: request.headers };
    return resolveEntries(entries, mirror, caller);
  });
}

/** Register /api/local/triage*, /api/local/triage/names, /api/local/triage/last-visit and /api/local/watchlist/resolve. */
export function registerMonitoringRoutes(app: FastifyInstance, deps: MonitoringRouteDeps): void {
  const now = deps.now ?? (() => new Date());
  registerTriageRoutes(app, deps, now);
  registerResolveRoute(app, deps.mirror);
}
