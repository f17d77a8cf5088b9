/**
 * The vetting routes under /api/local (docs/vetting.md): the verdict of the team's policy on a
 * carrier's profile, the policy and its numbered versions, and the hash-chained decision records.
 * The profile comes through the proxy's own mirror (validation, cache, budget, meter, audit), so a
 * verdict or a decision on a carrier already viewed is free and costs one billed call at most.
 * Governance's hooks run first: `request.user` is set, writes carry the CSRF header.
 */
import type Database from 'better-sqlite3';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestUser } from '../context.ts';
import { ApiError } from '../http/api-error.ts';
import { refuse, unlessUnavailable } from './refuse.ts';
import { contractRoute } from '../http/contract-route.ts';
import type { InputWording } from '../http/parse-input.ts';
import type { MirrorClient, MirrorPeek } from '../routes/mirror.ts';
import type { Profile } from '../../../src/lib/service/index.ts';
import {
  CARGO_CLASSES,
  CARGO_CLASS_LABELS,
  HAZMAT_MODES,
  HAZMAT_MODE_LABELS,
  RULES,
  applyOptionsChange,
  applySettingsChange,
  evaluate,
  type Policy,
  type VerdictResult,
} from '../../../src/lib/vetting/index.ts';
import {
  ONE_KEY,
  chainCheckRoute,
  decisionRoute,
  decisionsRoute,
  policyPreviewRoute,
  policyRoute,
  policyVersionRoute,
  policyVersionsRoute,
  recordDecisionRoute,
  savePolicyRoute,
  verdictRoute,
} from '../../../src/lib/vetting/contract.ts';
import { DECISION_WORDING, QUERY_WORDING } from './inputs.ts';
import { keyFields } from './key-fields.ts';
import {
  expiresOnProblem,
  isOverride,
  maxRevetDays,
  overrideRequired,
  registerRevetDueRoute,
} from './decision-checks.ts';
import { VerdictProfiles } from './verdict-profile.ts';
import { registerAnchorRoutes } from './anchor-routes.ts';
import { registerCurrentRoute } from './current.ts';
import type { SigningKey } from './signing.ts';
import { Held } from './held.ts';
import {
  insertStandingChanges,
  previewPolicy,
  standingChangesOf,
  type StandingDeps,
} from './standing-changes.ts';
import {
  PolicyChangedError,
  createVettingSqlStore,
  recordAnswer,
  type Actor,
  type DecisionContent,
  type VettingSqlStore,
} from './store.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { attachTenderCheck, checkAttachments } from '../tender/attach.ts';
import { guardWrites } from '../sql/write-guard.ts';

export interface VettingRouteDeps {
  db: Database.Database;
  /** where this state lives: PostgreSQL with DATABASE_URL (default: SQLite over `db`) */
  sql?: SqlEngine;
  /** the proxy's own mirror; its peek says what is held (here, else in the shared cache) */
  mirror: MirrorClient & MirrorPeek;
  /**
   * write queued audit rows, so "was this DOT ever fetched" sees the latest calls (on PostgreSQL
   * they are written when the promise resolves)
   */
  flushAudit?: () => void | Promise<void>;
  /** clock of evaluations, decisions and policy versions (tests move it) */
  now?: () => Date;
  /** the key records, receipts and checkpoints are signed with (signing.ts) */
  signingKey: SigningKey;
}

const LOCAL_ACTOR: RequestUser = { id: 'local', name: 'local', role: 'admin' };
const VERDICT_HINT = 'Ask with one of dot_number or docket_number, as for /api/v2/profile.';

function actorOf(request: FastifyRequest): Actor {
  const user = request.user ?? LOCAL_ACTOR;
  return { id: user.id, name: user.name };
}

function callerOf(request: FastifyRequest) {
  return { user: actorOf(request).id, requestId: request.id, headers: request.headers };
}

function refusal(status: number, code: string, error: string, hint: string): ApiError {
  return new ApiError(status, code, error, hint);
}

interface SeenProfile {
  profile: Profile;
  fetchedAt: Date;
  cacheHit: boolean;
  /** `YYYY-MM-DD` of the monitoring change the profile was fetched anew after, if it was */
  refreshedAfterChange?: string | undefined;
}

type ProfileOutcome = { ok: true; seen: SeenProfile } | { ok: false; error: ApiError };

function readJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

class Vetting {
  readonly store: VettingSqlStore;
  /** a write through the proxy file's storage guard on SQLite (its failures become a 503) */
  readonly write: <T>(fn: () => Promise<T>) => Promise<T>;
  /** the parsed profile of each cached answer, so a verdict on a cached carrier parses nothing */
  readonly profiles = new VerdictProfiles();
  readonly sql: SqlEngine;
  /** the freshest held data of carriers, never a billed call (held.ts) */
  readonly held: Held;

  constructor(private readonly deps: VettingRouteDeps) {
    this.sql = deps.sql ?? createSqliteEngine(deps.db);
    this.store = createVettingSqlStore(this.sql, deps.signingKey);
    this.write = guardWrites(this.sql, deps.db);
    this.held = new Held({
      sql: this.sql,
      mirror: deps.mirror,
      profiles: this.profiles,
      store: this.store,
    });
  }

  /**
   * Was a profile of `dot` ever answered with success? Read in the audit log, in the engine every
   * replica writes it to (with DATABASE_URL), so a carrier viewed on one replica may be decided on
   * from another.
   */
  private async everFetched(dot: string): Promise<boolean> {
    await this.deps.flushAudit?.();
    const rows = await this.sql.query(
      `SELECT 1 AS found FROM audit_log
        WHERE dot = ? AND endpoint = 'profile' AND status >= 200 AND status < 300 LIMIT 1`,
      [dot],
    );
    return rows.length > 0;
  }

  get signingKey(): SigningKey {
    return this.deps.signingKey;
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
        error: refusal(404, 'not_found', 'The data service has no such carrier', VERDICT_HINT),
      };
    }
    if (answer.status < 200 || answer.status >= 300) {
      return {
        ok: false,
        error: refusal(
          answer.status,
          'upstream_error',
          `The data service answered ${answer.status}`,
          'Try again in a moment.',
        ),
      };
    }
    const profile = this.profiles.of(answer.stored, () => answer.json);
    if (!profile) {
      return {
        ok: false,
        error: refusal(404, 'not_found', 'The data service has no such carrier', VERDICT_HINT),
      };
    }
    // the mirror keeps the answer it gave (a 200): its own fetch time
    const fetchedAt = answer.stored?.fetchedAt ?? this.now();
    const { cacheHit, refreshedAfterChange } = answer;
    return { ok: true, seen: { profile, fetchedAt, cacheHit, refreshedAfterChange } };
  }

  /**
   * The profile a decision is recorded on: the proxy's cached copy, else (the cache expired or the
   * proxy restarted) a new fetch when the audit shows the DOT was viewed before; a DOT never
   * fetched is refused without calling the service.
   */
  async profileForDecision(dot: string, request: FastifyRequest): Promise<ProfileOutcome> {
    const query = { dot_number: dot };
    const stored = await this.deps.mirror.peek('profile', query);
    // a copy a reported monitoring change outdated is not recorded on: it is fetched anew below
    if (
      stored &&
      stored.staleAfterChange === undefined &&
      stored.status >= 200 &&
      stored.status < 300
    ) {
      const profile = this.profiles.of(stored, () => readJson(stored.body));
      if (profile)
        return { ok: true, seen: { profile, fetchedAt: stored.fetchedAt, cacheHit: true } };
    }
    if (!(await this.everFetched(dot))) {
      return {
        ok: false,
        error: refusal(
          404,
          'profile_not_fetched',
          `The profile of DOT ${dot} was never fetched`,
          'A decision records what was seen: open the carrier’s profile first, then record the decision.',
        ),
      };
    }
    const fetched = await this.fetch(query, request);
    if (!fetched.ok && fetched.error.code === 'not_found') {
      const hint = 'Check the USDOT number.';
      return { ok: false, error: refusal(404, 'unknown_dot', `No carrier with DOT ${dot}`, hint) };
    }
    return fetched;
  }

  /** The verdict of `policy` (the current one, read before the profile is fetched) on `profile`. */
  verdict(profile: Profile, policy: Policy): VerdictResult & { evaluated_at: string } {
    const now = this.now();
    return { ...evaluate(profile, policy, now), evaluated_at: now.toISOString() };
  }
}

const VERDICT_WORDING: InputWording = {
  hint: VERDICT_HINT,
  // every way to miss is the one problem "not exactly one of the two"
  rootCode: 'invalid_query',
  codes: { dot_number: 'invalid_query', docket_number: 'invalid_query' },
  unknown: { code: 'invalid_query', message: () => ONE_KEY },
};

function sendOutcome(reply: FastifyReply, outcome: Extract<ProfileOutcome, { ok: false }>) {
  return refuse(reply, outcome.error);
}

function registerVerdictRoute(app: FastifyInstance, vetting: Vetting) {
  const wording = { query: VERDICT_WORDING };
  contractRoute(app, verdictRoute, { wording }, async (request, reply) =>
    unlessUnavailable(request, reply, async () => {
      // the policy first: with its database down, nothing is fetched (nor billed)
      const policy = await vetting.store.currentPolicy();
      const outcome = await vetting.fetch(request.query, request);
      if (!outcome.ok) return sendOutcome(reply, outcome);
      const { profile, fetchedAt, cacheHit, refreshedAfterChange } = outcome.seen;
      reply
        .header('cache-control', 'private, no-store')
        .header('x-cache', cacheHit ? 'hit' : 'miss');
      return {
        dot_number: profile.dot_number ?? null,
        legal_name: profile.legal_name ?? null,
        fetched_at: fetchedAt.toISOString(),
        refreshed_after_change: refreshedAfterChange ?? null,
        ...vetting.verdict(profile, policy),
      };
    }),
  );
}

const POLICY_HINT =
  'Send {"rules": {"<rule id>": {"enabled"?: boolean, "outcome"?: "review" | "fail", "no_data"?: "pass" | "review", "threshold"?: number, "cargo_required"?: [class], "cargo_refused"?: [class], "hazmat"?: "required" | "refused"}}, "options"?: {"max_revet_days"?: 1..730}, "note"?: text}; GET /api/local/policy lists the rules.';

function ruleCatalogue() {
  return RULES.map((rule) => ({
    id: rule.id,
    label: rule.label,
    description: rule.description,
    tab: rule.tab,
    defaults: rule.defaults,
    outcomes: [...rule.outcomes],
    threshold: rule.threshold ?? null,
    // the choices of a list or one-of setting (cargo_classes, hazmat), else null
    cargo_classes: rule.cargoLists
      ? CARGO_CLASSES.map((id) => ({ id, label: CARGO_CLASS_LABELS[id] }))
      : null,
    hazmat_modes: rule.hazmatMode
      ? HAZMAT_MODES.map((id) => ({ id, label: HAZMAT_MODE_LABELS[id] }))
      : null,
  }));
}

const POLICY_WORDING: InputWording = {
  hint: POLICY_HINT,
  unknown: { code: 'unknown_field', message: (key) => `Unknown member "${key}"` },
};

function registerPolicyRoutes(app: FastifyInstance, vetting: Vetting) {
  const { store } = vetting;
  contractRoute(app, policyRoute, {}, async (request, reply) =>
    unlessUnavailable(request, reply, async () => ({
      ...(await store.currentPolicy()),
      rules: ruleCatalogue(),
    })),
  );

  contractRoute(app, policyVersionsRoute, {}, async (request, reply) =>
    unlessUnavailable(request, reply, async () => ({ items: await store.policyVersions() })),
  );

  contractRoute(app, policyVersionRoute, {}, async (request, reply) => {
    const raw = request.params.version;
    const version = /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
    return unlessUnavailable(request, reply, async () => {
      const found = version === undefined ? undefined : await store.policyVersion(version);
      if (found) return found;
      return refuse(
        reply,
        refusal(
          404,
          'unknown_version',
          `No policy version ${raw.slice(0, 20)}`,
          'GET /api/local/policy/versions lists them.',
        ),
      );
    });
  });

  const wording = { body: POLICY_WORDING };
  contractRoute(app, savePolicyRoute, { wording }, async (request, reply) => {
    const { rules, options, note } = request.body;
    return unlessUnavailable(request, reply, async () => {
      const current = await store.currentPolicy();
      const applied = applySettingsChange(current.settings, rules ?? {});
      if (!applied.ok) return refuse(reply, refusal(400, applied.code, applied.error, POLICY_HINT));
      const opts = applyOptionsChange(current.options, options);
      if (!opts.ok) return refuse(reply, refusal(400, opts.code, opts.error, POLICY_HINT));
      // The decisions whose standing the save changes are flagged "needs re-vet" in the same
      // transaction as the version (worked out first, on held data: never a billed call). Compared
      // again and numbered with the policy current when it is stored; a save that landed meanwhile
      // makes this one a 409, as the flags were worked out against the version before it.
      const at = vetting.now();
      const proposed = {
        version: current.version + 1,
        settings: applied.value,
        options: opts.value,
      };
      const changed = await standingChangesOf(standingDeps(vetting), current, proposed);
      let saved;
      try {
        saved = await vetting.write(() =>
          store.savePolicy(actorOf(request), applied.value, note, at, opts.value, {
            basedOn: current.version,
            within: (tx, version) =>
              insertStandingChanges(tx, version.version, changed, at.toISOString()),
          }),
        );
      } catch (err) {
        if (!(err instanceof PolicyChangedError)) throw err;
        return refuse(
          reply,
          refusal(
            409,
            'policy_changed',
            `Someone saved policy version ${err.current} while this change was being saved`,
            'Reload the policy, check the new version and make your change again.',
          ),
        );
      }
      if (!saved) {
        return refuse(
          reply,
          refusal(400, 'no_change', 'The settings are those of the current version', POLICY_HINT),
        );
      }
      reply.code(201);
      return { ...saved, rules: ruleCatalogue() };
    });
  });

  // what saving this body would change (the same body as PUT; nothing stored, nothing billed)
  contractRoute(app, policyPreviewRoute, { wording }, async (request, reply) => {
    const { rules, options } = request.body;
    return unlessUnavailable(request, reply, async () => {
      const current = await store.currentPolicy();
      const applied = applySettingsChange(current.settings, rules ?? {});
      if (!applied.ok) return refuse(reply, refusal(400, applied.code, applied.error, POLICY_HINT));
      const opts = applyOptionsChange(current.options, options);
      if (!opts.ok) return refuse(reply, refusal(400, opts.code, opts.error, POLICY_HINT));
      const proposed = {
        version: current.version + 1,
        settings: applied.value,
        options: opts.value,
      };
      return previewPolicy(standingDeps(vetting), current, proposed);
    });
  });
}

function standingDeps(vetting: Vetting): StandingDeps {
  return { sql: vetting.sql, store: vetting.store, held: vetting.held, now: () => vetting.now() };
}

function registerDecisionRoutes(app: FastifyInstance, vetting: Vetting) {
  const { store } = vetting;

  const wording = { body: DECISION_WORDING };
  contractRoute(app, recordDecisionRoute, { wording }, async (request, reply) => {
    const {
      override_reason: overrideReason,
      tender_check_id: tenderCheckId,
      ...body
    } = request.body;
    return unlessUnavailable(request, reply, async () => {
      if (body.supersedes !== null) {
        const earlier = await store.decision(body.supersedes);
        if (!earlier || earlier.dot_number !== body.dot_number) {
          return refuse(
            reply,
            refusal(
              400,
              'invalid_supersedes',
              `Record ${body.supersedes} is not a decision on DOT ${body.dot_number}`,
              'A correction supersedes an earlier record of the same carrier.',
            ),
          );
        }
      }
      // a tender check on the same carrier, kept in the record (400 invalid_tender_check)
      const tenderCheck =
        tenderCheckId === null
          ? undefined
          : await attachTenderCheck(vetting.sql, tenderCheckId, body.dot_number);
      // the policy first: with its database down, nothing is fetched (nor billed)
      const policy = await store.currentPolicy();
      const late = expiresOnProblem(body.expires_on, vetting.now(), maxRevetDays(policy));
      if (late) return refuse(reply, late);
      const outcome = await vetting.profileForDecision(body.dot_number, request);
      if (!outcome.ok) return sendOutcome(reply, outcome);
      const { profile, fetchedAt } = outcome.seen;
      const verdict = vetting.verdict(profile, policy);
      const override = isOverride(body.decision, verdict.verdict);
      if (override && overrideReason === null) {
        return refuse(reply, overrideRequired(verdict));
      }
      const content: DecisionContent = {
        ...body,
        // kept only on an override (a key absent elsewhere, so other records hash as before)
        ...(override && overrideReason !== null ? { override_reason: overrideReason } : {}),
        // only with one (absent otherwise, so other records hash as before)
        ...(tenderCheck ? { tender_check: tenderCheck } : {}),
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
      const record = await vetting.write(() => store.appendDecision(content));
      reply.code(201);
      return recordAnswer(record);
    });
  });

  contractRoute(app, decisionsRoute, { wording: { query: QUERY_WORDING } }, (request, reply) =>
    unlessUnavailable(request, reply, async () => {
      const filter = request.query;
      const { items, total } = await store.decisions(filter);
      return {
        items: items.map(recordAnswer),
        total,
        page: filter.page,
        page_size: filter.pageSize,
      };
    }),
  );

  registerRevetDueRoute(app, store, () => vetting.now(), unlessUnavailable);

  registerAnchorRoutes(app, {
    sql: vetting.sql,
    key: vetting.signingKey,
    now: () => vetting.now(),
    verify: () => store.verifyChain(),
    unlessUnavailable,
  });

  contractRoute(app, chainCheckRoute, {}, async (request, reply) =>
    unlessUnavailable(request, reply, async () => {
      const chain = await store.verifyChain();
      const [attached] = await vetting.sql.query<{ n: number | string }>(
        'SELECT COUNT(*) AS n FROM vetting_decision WHERE tender_check_id IS NOT NULL',
      );
      const count = Number(attached?.n ?? 0);
      if (count === 0) return chain;
      return {
        ...chain,
        tender_checks: { attached: count, problems: await checkAttachments(vetting.sql) },
      };
    }),
  );

  registerCurrentRoute(app, {
    sql: vetting.sql,
    store,
    held: vetting.held,
    now: () => vetting.now(),
  });

  contractRoute(app, decisionRoute, {}, async (request, reply) => {
    const raw = request.params.id;
    const id = /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
    return unlessUnavailable(request, reply, async () => {
      const record = id === undefined ? undefined : await store.decision(id);
      if (record) return recordAnswer(record);
      return refuse(
        reply,
        refusal(
          404,
          'unknown_decision',
          `No decision record ${raw.slice(0, 20)}`,
          'GET /api/local/decisions lists them.',
        ),
      );
    });
  });
}

/** Register /api/local/verdict, /api/local/policy*, /api/local/decisions*. */
export function registerVettingRoutes(app: FastifyInstance, deps: VettingRouteDeps): void {
  const vetting = new Vetting(deps);
  registerVerdictRoute(app, vetting);
  registerPolicyRoutes(app, vetting);
  registerDecisionRoutes(app, vetting);
}
