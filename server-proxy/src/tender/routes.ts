/**
 * The tender check (issue 33, docs/tender-check.md): `POST /api/local/tender-checks` answers whether
 * an offer of a load really comes from the carrier it names and whether that carrier may take the
 * load (go / call back first / do not tender, every reason with its evidence), within the cost the
 * caller allows; `GET /api/local/tender-checks` lists the stored checks (by carrier, a page at a
 * time) and `GET /api/local/tender-checks/:id` reads one. The data comes through the mirror
 * (gather.ts); the verdict is the vetting engine's, under the team's current policy, with the
 * carrier's current decision and its standing (vetting/).
 */
import type Database from 'better-sqlite3';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ProxyConfig, SpendMeter } from '../context.ts';
import type { SpendLedger } from '../governance/spend.ts';
import { dayOf, millsToUsd } from '../governance/pricing.ts';
import { ApiError, sendApiError } from '../http/api-error.ts';
import { contractRoute } from '../http/contract-route.ts';
import type { InputWording } from '../http/parse-input.ts';
import type { MirrorClient, MirrorPeek } from '../routes/mirror.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { guardWrites } from '../sql/write-guard.ts';
import { standingFor } from '../vetting/held.ts';
import { createVettingSqlStore } from '../vetting/store.ts';
import { VerdictProfiles } from '../vetting/verdict-profile.ts';
import { evaluate } from '../../../src/lib/vetting/index.ts';
import {
  TENDER_LIST_PAGE_SIZE,
  createTenderCheckRoute,
  getTenderCheckRoute,
  listTenderChecksRoute,
  type TenderCheckAnswer,
  type TenderCheckRequest,
  type TenderSearch,
} from '../../../src/lib/tender/contract.ts';
import {
  judgeTender,
  type DecisionFacts,
  type SearchAnswer,
} from '../../../src/lib/tender/rules.ts';
import { normalisePhone } from '../../../src/lib/tender/contract.ts';
import { domainOf, sameDomain } from '../../../src/lib/tender/domains.ts';
import { gather, type Caller, type Gathered } from './gather.ts';
import { createTenderCheckStore, type TenderCheckStore } from './store.ts';

export interface TenderRouteDeps {
  config: Pick<ProxyConfig, 'mode'>;
  db: Database.Database;
  /** where the state lives: PostgreSQL with DATABASE_URL (default: SQLite over `db`) */
  sql?: SqlEngine;
  mirror: MirrorClient & MirrorPeek;
  spend: SpendMeter & Partial<Pick<SpendLedger, 'estimate' | 'flush'>>;
  now?: () => Date;
}

const HINT =
  'Send {"dot_number": "568253" or "docket_number": "MC277621", "phone"?: "(562) 602-7220", "email"?: "dispatch@example.com", "contact_name"?, "load"?: {"cargo_value"?, "cargo_classes"?, "hazmat"?, "equipment"?, "pickup_date"?, "origin_state"?, "destination_state"?}, "max_cost_usd"?: 0}. docs/tender-check.md.';

const WORDING: InputWording = {
  hint: HINT,
  unknown: { code: 'unknown_field', message: (key) => `Unknown member "${key}"` },
  codes: { cargo_classes: 'unknown_cargo_class' },
  rootCode: 'invalid_body',
};

const LIST_WORDING: InputWording = {
  hint: 'GET /api/local/tender-checks?dot_number=568253&page=1&page_size=50',
  rootCode: 'invalid_query',
  codes: { dot_number: 'invalid_query', page: 'invalid_query', page_size: 'invalid_query' },
  unknown: { code: 'unknown_parameter', message: (key) => `Unknown parameter "${key}"` },
};

const LOCAL = { id: 'local', name: 'local' };

function userOf(request: FastifyRequest) {
  return request.user ? { id: request.user.id, name: request.user.name } : LOCAL;
}

function callerOf(request: FastifyRequest): Caller {
  return { user: userOf(request).id, requestId: request.id, headers: request.headers };
}

/** The searches as answered, their carriers without the claimed one and each marked now/past. */
function searchesOut(gathered: Gathered, body: TenderCheckRequest, claimed: string | null) {
  const email = body.email ?? '';
  const domain = domainOf(email) ?? '';
  const nowOf = (search: TenderSearch, item: SearchAnswer['items'][number]) => {
    if (search.check === 'phone_search') {
      return (
        item.telephone_number !== undefined && normalisePhone(item.telephone_number) === body.phone
      );
    }
    const theirs = item.email_address?.trim().toLowerCase() ?? '';
    return search.value.includes('@')
      ? theirs === email
      : sameDomain(domainOf(theirs) ?? '', domain);
  };
  return gathered.searches.map((search) => {
    const answer = search.check === 'phone_search' ? gathered.phone : gathered.email;
    if (!answer || answer.search !== search) return search;
    return {
      ...search,
      found: answer.items
        .filter((item) => item.dot_number && item.dot_number !== claimed)
        .map((item) => ({
          dot_number: item.dot_number ?? '',
          legal_name: item.legal_name ?? null,
          usdot_status: item.usdot_status ?? null,
          now: nowOf(search, item),
        })),
    };
  });
}

function notFound(body: TenderCheckRequest): ApiError {
  const named =
    body.dot_number !== undefined ? `DOT ${body.dot_number}` : `docket ${body.docket_number ?? ''}`;
  return new ApiError(
    404,
    'unknown_carrier',
    `The data service has no carrier with ${named}`,
    'Check the number the offer gave: a carrier that does not exist is a reason not to tender.',
  );
}

class TenderChecks {
  readonly sql: SqlEngine;
  readonly store: TenderCheckStore;
  readonly write: <T>(fn: () => Promise<T>) => Promise<T>;
  private readonly vetting;
  private readonly profiles = new VerdictProfiles();

  constructor(private readonly deps: TenderRouteDeps) {
    this.sql = deps.sql ?? createSqliteEngine(deps.db);
    this.store = createTenderCheckStore(this.sql);
    this.write = guardWrites(this.sql, deps.db);
    this.vetting = createVettingSqlStore(this.sql);
  }

  now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  async check(body: TenderCheckRequest, request: FastifyRequest): Promise<TenderCheckAnswer> {
    // the policy first: with its database down, nothing is fetched (nor billed)
    const policy = await this.vetting.currentPolicy();
    const now = this.now();
    await this.deps.spend.flush?.();
    const gathered = await gather(
      {
        mode: this.deps.config.mode,
        mirror: this.deps.mirror,
        spend: this.deps.spend,
        sql: this.sql,
        pastSearches: (month) => this.store.searchesIn(month),
      },
      body,
      callerOf(request),
      now,
    );
    if (gathered.profileMissing === 'not_found') throw notFound(body);
    const answer = gathered.profile?.answer;
    const profile = answer ? (this.profiles.of(answer.stored, () => answer.json) ?? null) : null;
    if (gathered.profile && !profile) throw notFound(body);
    const dot = profile?.dot_number ?? body.dot_number ?? null;
    const evaluated = profile ? evaluate(profile, policy, now) : null;
    let decision: DecisionFacts | null = null;
    if (profile && evaluated && dot) {
      const [record] = await this.vetting.currentDecisions([dot]);
      if (record) {
        const standing = standingFor(record, {
          verdict: evaluated.verdict,
          policy_version: evaluated.policy_version,
          reasons: evaluated.reasons.filter((r) => r.outcome !== 'pass'),
          fetched_at: gathered.profile?.fetchedAt ?? now.toISOString(),
          evaluated_at: now.toISOString(),
          source: 'profile',
        });
        decision = {
          id: record.id,
          decision: record.decision,
          decided_at: record.decided_at,
          standing,
          expires_on: record.expires_on,
        };
      }
    }
    const settings = policy.settings;
    const judged = judgeTender({
      request: body,
      profile,
      profileFetchedAt: gathered.profile?.fetchedAt ?? null,
      phone: gathered.phone,
      email: gathered.email,
      contactWindowDays: settings.contact_changes?.threshold ?? 30,
      bipdMinimumUsd: settings.bipd_minimum?.enabled
        ? (settings.bipd_minimum.threshold ?? null)
        : null,
      verdict: evaluated,
      decision,
      pendingCount: gathered.pending.length,
      today: dayOf(now),
    });
    const registered = profile
      ? {
          phone: profile.telephone_number ?? null,
          email: profile.email_address ?? null,
          email_domain: domainOf(profile.email_address ?? '') ?? profile.email_domain ?? null,
          contact_name: profile.company_contact_primary ?? null,
          phone_last_changed: profile.phone_last_changed ?? null,
          email_last_changed: profile.email_last_changed ?? null,
        }
      : null;
    const check = {
      answer: judged.answer,
      reasons: judged.reasons,
      identity: {
        outcome: judged.identityOutcome,
        registered,
        call_back: judged.callBack,
        searches: searchesOut(gathered, body, dot),
      },
      load_fit: { outcome: judged.loadFitOutcome, load_given: body.load !== undefined },
      verdict: {
        verdict: evaluated?.verdict ?? null,
        policy_version: evaluated?.policy_version ?? null,
        reasons: (evaluated?.reasons ?? [])
          .filter((r) => r.outcome !== 'pass')
          .map((r) => ({ rule: r.rule, outcome: r.outcome, message: r.message })),
        decision,
      },
      pending: gathered.pending,
      cost_usd: millsToUsd(gathered.costMills),
      carrier: profile
        ? {
            dot_number: profile.dot_number ?? dot ?? '',
            legal_name: profile.legal_name ?? null,
            docket: profile.docket ?? null,
          }
        : null,
      snapshot_date: profile?.snapshot_date ?? null,
      checked_at: now.toISOString(),
      user: userOf(request),
      input: {
        dot_number: body.dot_number ?? null,
        docket_number: body.docket_number ?? null,
        phone: body.phone ?? null,
        email: body.email ?? null,
        contact_name: body.contact_name ?? null,
        load: body.load ?? null,
        max_cost_usd: body.max_cost_usd,
        redacted: false,
      },
      searches_run: gathered.pastSearches,
    };
    return this.write(() => this.store.insert(check));
  }
}

/** A database that refuses: the 503 with its Retry-After, logged as a warning (as elsewhere). */
async function unlessUnavailable<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  fn: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'storage_unavailable') throw err;
    request.log.warn({ code: err.code, reason: err.message }, 'tender: storage unavailable');
    await sendApiError(reply, err);
    return undefined;
  }
}

/** Register POST/GET /api/local/tender-checks and GET /api/local/tender-checks/:id (contracts). */
export function registerTenderRoutes(
  app: FastifyInstance,
  deps: TenderRouteDeps,
): TenderCheckStore {
  const checks = new TenderChecks(deps);

  contractRoute(
    app,
    createTenderCheckRoute,
    { wording: { body: WORDING } },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      const answer = await unlessUnavailable(request, reply, () =>
        checks.check(request.body, request),
      );
      if (answer !== undefined) void reply.code(201);
      return answer;
    },
  );

  contractRoute(
    app,
    listTenderChecksRoute,
    { wording: { query: LIST_WORDING } },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      const page = request.query.page ?? 1;
      const pageSize = request.query.page_size ?? TENDER_LIST_PAGE_SIZE.default;
      return unlessUnavailable(request, reply, async () => {
        const dot = request.query.dot_number;
        const { items, total } = await checks.store.list({ dot, page, pageSize });
        return { items, total, page, page_size: pageSize };
      });
    },
  );

  contractRoute(app, getTenderCheckRoute, {}, async (request, reply) => {
    const raw = request.params.id;
    void reply.header('cache-control', 'private, no-store');
    return unlessUnavailable(request, reply, async () => {
      const found = /^\d{1,15}$/.test(raw) ? await checks.store.get(Number(raw)) : undefined;
      if (found) return found;
      throw new ApiError(
        404,
        'unknown_tender_check',
        `No tender check ${raw.slice(0, 20)}`,
        'GET /api/local/tender-checks lists them.',
      );
    });
  });
  return checks.store;
}
