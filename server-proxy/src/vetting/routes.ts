/**
 * The vetting routes under /api/local (docs/vetting.md): the verdict of the team's policy on a
 * carrier's profile, the policy and its numbered versions, and the hash-chained decision records.
 * The profile comes through the proxy's own mirror (validation, cache, budget, meter, audit), so a
 * verdict or a decision on a carrier already viewed is free and costs one billed call at most.
 * Governance's hooks run first: `request.user` is set, writes carry the CSRF header.
 */
import type Database from 'better-sqlite3';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ResponseCache } from '../cache.ts';
import type { RequestUser } from '../context.ts';
import { sendError } from '../governance/errors.ts';
import type { MirrorClient } from '../routes/mirror.ts';
import { requestKey, validateRequest } from '../validate.ts';
import { parseProfileResponse, type Profile } from '../../../src/lib/service/index.ts';
import {
  RULES,
  applySettingsChange,
  evaluate,
  type VerdictResult,
} from '../../../src/lib/vetting/index.ts';
import { MAX_NOTE_CHARS, parseDecisionBody, parseDecisionQuery, type Problem } from './inputs.ts';
import { keyFields } from './key-fields.ts';
import {
  createVettingStore,
  type Actor,
  type DecisionContent,
  type VettingStore,
} from './store.ts';

export interface VettingRouteDeps {
  db: Database.Database;
  mirror: MirrorClient;
  cache: ResponseCache;
  /** write queued audit rows, so "was this DOT ever fetched" sees the latest calls */
  flushAudit?: () => void;
  /** clock of evaluations, decisions and policy versions (tests move it) */
  now?: () => Date;
}

const LOCAL_ACTOR: RequestUser = { id: 'local', name: 'local' };
const MAX_CURRENT_DOTS = 500;
const VERDICT_HINT = 'Ask with one of dot_number or docket_number, as for /api/v2/profile.';

function actorOf(request: FastifyRequest): Actor {
  const user = request.user ?? LOCAL_ACTOR;
  return { id: user.id, name: user.name };
}

function callerOf(request: FastifyRequest) {
  return { user: actorOf(request).id, requestId: request.id, headers: request.headers };
}

function problem(code: string, error: string, hint: string): Problem {
  return { error, code, hint };
}

interface SeenProfile {
  profile: Profile;
  fetchedAt: Date;
  cacheHit: boolean;
}

type ProfileOutcome =
  { ok: true; seen: SeenProfile } | { ok: false; status: number; problem: Problem };

function cacheKey(query: Record<string, string>): string {
  return requestKey(validateRequest('profile', query, undefined));
}

function firstProfile(json: unknown): Profile | undefined {
  return parseProfileResponse(json).value.items[0];
}

function readJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

class Vetting {
  readonly store: VettingStore;
  private readonly everFetched: Database.Statement<[string], { n: number }>;

  constructor(private readonly deps: VettingRouteDeps) {
    this.store = createVettingStore(deps.db);
    this.everFetched = deps.db.prepare(
      `SELECT COUNT(*) AS n FROM audit_log
        WHERE dot = ? AND endpoint = 'profile' AND status >= 200 AND status < 300`,
    );
  }

  now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  /** The profile through the mirror (cached when viewed): the one billed call at most. */
  async fetch(query: Record<string, string>, request: FastifyRequest): Promise<ProfileOutcome> {
    const answer = await this.deps.mirror.get('profile', query, callerOf(request));
    if (answer.status === 404) {
      return {
        ok: false,
        status: 404,
        problem: problem('not_found', 'The data service has no such carrier', VERDICT_HINT),
      };
    }
    if (answer.status < 200 || answer.status >= 300) {
      return {
        ok: false,
        status: answer.status,
        problem: problem(
          'upstream_error',
          `The data service answered ${answer.status}`,
          'Try again in a moment.',
        ),
      };
    }
    const profile = firstProfile(answer.json);
    if (!profile) {
      return {
        ok: false,
        status: 404,
        problem: problem('not_found', 'The data service has no such carrier', VERDICT_HINT),
      };
    }
    const fetchedAt = this.deps.cache.get(cacheKey(query))?.fetchedAt ?? this.now();
    return { ok: true, seen: { profile, fetchedAt, cacheHit: answer.cacheHit } };
  }

  /**
   * The profile a decision is recorded on: the proxy's cached copy, else (the cache expired or the
   * proxy restarted) a new fetch when the audit shows the DOT was viewed before; a DOT never
   * fetched is refused without calling the service.
   */
  async profileForDecision(dot: string, request: FastifyRequest): Promise<ProfileOutcome> {
    const query = { dot_number: dot };
    const stored = this.deps.cache.get(cacheKey(query));
    if (stored && stored.status >= 200 && stored.status < 300) {
      const profile = firstProfile(readJson(stored.body));
      if (profile)
        return { ok: true, seen: { profile, fetchedAt: stored.fetchedAt, cacheHit: true } };
    }
    this.deps.flushAudit?.();
    if ((this.everFetched.get(dot)?.n ?? 0) === 0) {
      return {
        ok: false,
        status: 404,
        problem: problem(
          'profile_not_fetched',
          `The profile of DOT ${dot} was never fetched`,
          'A decision records what was seen: open the carrier’s profile first, then record the decision.',
        ),
      };
    }
    const fetched = await this.fetch(query, request);
    if (!fetched.ok && fetched.problem.code === 'not_found') {
      return {
        ...fetched,
        problem: problem('unknown_dot', `No carrier with DOT ${dot}`, 'Check the USDOT number.'),
      };
    }
    return fetched;
  }

  verdict(profile: Profile): VerdictResult & { evaluated_at: string } {
    const policy = this.store.currentPolicy();
    const now = this.now();
    return { ...evaluate(profile, policy, now), evaluated_at: now.toISOString() };
  }
}

function verdictQuery(
  query: unknown,
): { ok: true; value: Record<string, string> } | { ok: false; problem: Problem } {
  const raw = (typeof query === 'object' && query !== null ? query : {}) as Record<string, unknown>;
  const keys = Object.keys(raw);
  const key = keys[0];
  const value = key === undefined ? undefined : raw[key];
  if (
    keys.length !== 1 ||
    (key !== 'dot_number' && key !== 'docket_number') ||
    typeof value !== 'string'
  ) {
    return {
      ok: false,
      problem: problem(
        'invalid_query',
        'Give exactly one of dot_number or docket_number',
        VERDICT_HINT,
      ),
    };
  }
  return { ok: true, value: { [key]: value } };
}

function sendOutcome(reply: FastifyReply, outcome: Extract<ProfileOutcome, { ok: false }>) {
  return sendError(reply, outcome.status, outcome.problem);
}

function registerVerdictRoute(app: FastifyInstance, vetting: Vetting) {
  app.get('/api/local/verdict', async (request, reply) => {
    const query = verdictQuery(request.query);
    if (!query.ok) return sendError(reply, 400, query.problem);
    const outcome = await vetting.fetch(query.value, request);
    if (!outcome.ok) return sendOutcome(reply, outcome);
    const { profile, fetchedAt, cacheHit } = outcome.seen;
    reply.header('cache-control', 'private, no-store').header('x-cache', cacheHit ? 'hit' : 'miss');
    return {
      dot_number: profile.dot_number ?? null,
      legal_name: profile.legal_name ?? null,
      fetched_at: fetchedAt.toISOString(),
      ...vetting.verdict(profile),
    };
  });
}

const POLICY_HINT =
  'Send {"rules": {"<rule id>": {"enabled"?: boolean, "outcome"?: "review" | "fail", "no_data"?: "pass" | "review", "threshold"?: number}}, "note"?: text}; GET /api/local/policy lists the rules.';

function ruleCatalogue() {
  return RULES.map(({ id, label, description, tab, defaults, outcomes, threshold }) => ({
    id,
    label,
    description,
    tab,
    defaults,
    outcomes,
    threshold: threshold ?? null,
  }));
}

function registerPolicyRoutes(app: FastifyInstance, vetting: Vetting) {
  const { store } = vetting;
  app.get('/api/local/policy', async () => ({ ...store.currentPolicy(), rules: ruleCatalogue() }));

  app.get('/api/local/policy/versions', async () => ({ items: store.policyVersions() }));

  app.get('/api/local/policy/versions/:version', async (request, reply) => {
    const raw = (request.params as { version: string }).version;
    const version = /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
    const found = version === undefined ? undefined : store.policyVersion(version);
    if (!found) {
      return sendError(
        reply,
        404,
        problem(
          'unknown_version',
          `No policy version ${raw.slice(0, 20)}`,
          'GET /api/local/policy/versions lists them.',
        ),
      );
    }
    return found;
  });

  app.put('/api/local/policy', async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return sendError(
        reply,
        400,
        problem('invalid_body', 'The body must be a JSON object', POLICY_HINT),
      );
    }
    const { rules, note, ...rest } = body as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined)
      return sendError(
        reply,
        400,
        problem('unknown_field', `Unknown member "${extra.slice(0, 40)}"`, POLICY_HINT),
      );
    if (
      note !== undefined &&
      note !== null &&
      (typeof note !== 'string' || note.length > MAX_NOTE_CHARS)
    ) {
      return sendError(
        reply,
        400,
        problem(
          'invalid_note',
          `"note" must be text of at most ${MAX_NOTE_CHARS} characters`,
          POLICY_HINT,
        ),
      );
    }
    const current = store.currentPolicy();
    const applied = applySettingsChange(current.settings, rules);
    if (!applied.ok)
      return sendError(reply, 400, problem(applied.code, applied.error, POLICY_HINT));
    const text = typeof note === 'string' && note.trim() ? note.trim() : null;
    const saved = store.savePolicy(actorOf(request), applied.value, text, vetting.now());
    if (!saved) {
      return sendError(
        reply,
        400,
        problem('no_change', 'The settings are those of the current version', POLICY_HINT),
      );
    }
    return reply.code(201).send({ ...saved, rules: ruleCatalogue() });
  });
}

function registerDecisionRoutes(app: FastifyInstance, vetting: Vetting) {
  const { store } = vetting;

  app.post('/api/local/decisions', async (request, reply) => {
    const input = parseDecisionBody(request.body);
    if (!input.ok) return sendError(reply, 400, input.problem);
    const body = input.value;
    if (body.supersedes !== null) {
      const earlier = store.decision(body.supersedes);
      if (!earlier || earlier.dot_number !== body.dot_number) {
        return sendError(
          reply,
          400,
          problem(
            'invalid_supersedes',
            `Record ${body.supersedes} is not a decision on DOT ${body.dot_number}`,
            'A correction supersedes an earlier record of the same carrier.',
          ),
        );
      }
    }
    const outcome = await vetting.profileForDecision(body.dot_number, request);
    if (!outcome.ok) return sendOutcome(reply, outcome);
    const { profile, fetchedAt } = outcome.seen;
    const verdict = vetting.verdict(profile);
    const content: DecisionContent = {
      ...body,
      user: actorOf(request),
      decided_at: verdict.evaluated_at,
      verdict,
      policy_version: verdict.policy_version,
      profile: {
        snapshot_date: profile.snapshot_date ?? null,
        fetched_at: fetchedAt.toISOString(),
        ...keyFields(profile),
      },
    };
    return reply.code(201).send(store.appendDecision(content));
  });

  app.get('/api/local/decisions', async (request, reply) => {
    const filter = parseDecisionQuery(request.query);
    if (!filter.ok) return sendError(reply, 400, filter.problem);
    const { items, total } = store.decisions(filter.value);
    return { items, total, page: filter.value.page, page_size: filter.value.pageSize };
  });

  app.get('/api/local/decisions/verify', async () => store.verifyChain());

  app.get('/api/local/decisions/current', async (request, reply) => {
    const raw = (request.query as Record<string, unknown>).dot_numbers;
    const dots = typeof raw === 'string' ? raw.split(',').map((dot) => dot.trim()) : [];
    if (
      dots.length === 0 ||
      dots.length > MAX_CURRENT_DOTS ||
      dots.some((dot) => !/^\d{1,8}$/.test(dot))
    ) {
      return sendError(
        reply,
        400,
        problem(
          'invalid_dot_numbers',
          `"dot_numbers" must be 1 to ${MAX_CURRENT_DOTS} comma-separated USDOT numbers`,
          'GET /api/local/decisions/current?dot_numbers=568253,2214589',
        ),
      );
    }
    return { items: store.currentDecisions(dots.map((dot) => dot.replace(/^0+(?=\d)/, ''))) };
  });

  app.get('/api/local/decisions/:id', async (request, reply) => {
    const raw = (request.params as { id: string }).id;
    const record = /^\d{1,15}$/.test(raw) ? store.decision(Number(raw)) : undefined;
    if (!record) {
      return sendError(
        reply,
        404,
        problem(
          'unknown_decision',
          `No decision record ${raw.slice(0, 20)}`,
          'GET /api/local/decisions lists them.',
        ),
      );
    }
    return record;
  });
}

/** Register /api/local/verdict, /api/local/policy*, /api/local/decisions*. */
export function registerVettingRoutes(app: FastifyInstance, deps: VettingRouteDeps): void {
  const vetting = new Vetting(deps);
  registerVerdictRoute(app, vetting);
  registerPolicyRoutes(app, vetting);
  registerDecisionRoutes(app, vetting);
}
