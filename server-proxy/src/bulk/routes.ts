/**
 * The bulk vetting routes under /api/local (docs/bulk-vetting.md): estimate and create a job, list
 * and read jobs (items paged), and pause / resume / cancel / retry-failed. Bodies and answers are
 * the shapes of `src/lib/bulk/contract.ts`. Governance's hooks run first: `request.user` is set and
 * every POST carries the CSRF header.
 */
import type Database from 'better-sqlite3';
import { refuse, storageGuard } from '../http/storage-unavailable.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CREATE_HINT,
  DEFAULT_ITEMS_LIMIT,
  MAX_JOB_IDENTIFIERS,
  PAGE_HINT,
  JOB_ACTIONS,
  JOB_ACTION_ROUTES,
  TOO_MANY_HINT,
  createJobRoute,
  getJobRoute,
  listJobsRoute,
  type BulkEstimate,
  type BulkJobSummary,
} from '../../../src/lib/bulk/contract.ts';
import { checkList, numberedEntries } from '../../../src/lib/bulk/list.ts';
import type { ProxyConfig } from '../context.ts';
import { mayActOn, notTheOwner } from '../governance/roles.ts';
import { ApiError } from '../http/api-error.ts';
import { contractRoute } from '../http/contract-route.ts';
import type { InputWording } from '../http/parse-input.ts';
import type { MirrorClient, MirrorPeek } from '../routes/mirror.ts';
import { createVettingSqlStore } from '../vetting/store.ts';
import { estimateRun, type EstimateDeps } from './estimate.ts';
import { BulkRunner, type RunnerLog } from './runner.ts';
import { createBulkStore, type BulkStore, type JobRow } from './store.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';

export interface BulkRouteDeps {
  config: ProxyConfig;
  db: Database.Database;
  /** where this state lives: PostgreSQL with DATABASE_URL (default: SQLite over `db`) */
  sql?: SqlEngine;
  /** the proxy's own mirror (the runner's calls; the estimate's peek at what is held) */
  mirror: MirrorClient & MirrorPeek;
  spend: EstimateDeps['spend'];
  /** write queued ledger rows first, so the estimate sees the latest calls */
  flush?: () => void | Promise<void>;
  log: RunnerLog;
  now?: () => Date;
  /** the runner's job leases and polling (tests shorten them; see runner.ts for the defaults) */
  runner?: { leaseTtlMs?: number; pollMs?: number };
}

const CREATE_WORDING: InputWording = {
  hint: CREATE_HINT,
  unknown: { code: 'unknown_field', message: (key) => `Unknown member "${key}"` },
};

const PAGE_WORDING: InputWording = {
  hint: PAGE_HINT,
  unknown: { code: 'unknown_parameter', message: (key) => `Unknown parameter "${key}"` },
};

function userOf(request: FastifyRequest): string {
  return request.user?.id ?? 'local';
}

function usd(n: number): string {
  return n.toFixed(2);
}

function budgetRefusal(estimate: BulkEstimate): ApiError {
  const cost = estimate.metered_cost_usd ?? estimate.cost_usd;
  const budget = estimate.budget_usd ?? 0;
  return new ApiError(
    402,
    'budget_exceeded',
    `This run would add ${usd(cost)} USD (${estimate.billable} new profile calls at ${usd(estimate.unit_price_usd)} USD) ` +
      `and cross the monthly budget: ${usd(estimate.spent_usd)} of ${usd(budget)} USD spent, ${usd(estimate.left_usd ?? 0)} USD left`,
    'Remove carriers from the list, or ask an administrator to raise MONTHLY_BUDGET_USD.',
  );
}

function unknownJob(id: string): ApiError {
  return new ApiError(
    404,
    'unknown_job',
    `No bulk job ${id.slice(0, 40)}`,
    'GET /api/local/bulk-jobs lists the jobs.',
  );
}

class BulkRoutes {
  readonly store: BulkStore;
  readonly runner: BulkRunner;

  constructor(private readonly deps: BulkRouteDeps) {
    const sql = deps.sql ?? createSqliteEngine(deps.db);
    this.store = createBulkStore(sql, { db: deps.db });
    // the team's policy where every replica reads it (PostgreSQL with DATABASE_URL)
    const vetting = createVettingSqlStore(sql);
    this.runner = new BulkRunner({
      store: this.store,
      mirror: deps.mirror,
      policy: async () => {
        const { version, settings } = await vetting.currentPolicy();
        return { version, settings };
      },
      profileTtlMs: deps.config.cache.profileTtlMs,
      log: deps.log,
      now: deps.now,
      ...deps.runner,
    });
  }

  now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  /** A job as the contract shows it, without items. */
  async summary(job: JobRow): Promise<BulkJobSummary> {
    const limit = this.deps.config.rateLimits?.profile ?? null;
    const pace = await this.runner.pace(job, limit);
    return {
      id: job.id,
      status: job.status,
      created_at: job.created_at,
      updated_at: job.updated_at,
      created_by: job.created_by,
      total: job.total,
      done: job.done,
      failed: job.failed,
      merged: job.merged,
      ...pace,
      estimate: job.estimate,
      pause_reason: job.pause_reason,
    };
  }
}

/** A refusing database is answered 503 `storage_unavailable` (http/storage-unavailable.ts). */
const unlessUnavailable = storageGuard('bulk');

function registerCreate(app: FastifyInstance, bulk: BulkRoutes, deps: BulkRouteDeps) {
  contractRoute(app, createJobRoute, { wording: { body: CREATE_WORDING } }, (request, reply) => {
    const body = request.body;
    const numbering = body.numbering ?? 'line';
    const { valid, rejected } = checkList(numberedEntries(body.identifiers, body.rows), numbering);
    if (valid.length > MAX_JOB_IDENTIFIERS) {
      return refuse(
        reply,
        new ApiError(
          400,
          'too_many_identifiers',
          `${valid.length} carriers given; a job takes at most ${MAX_JOB_IDENTIFIERS}`,
          TOO_MANY_HINT,
        ),
      );
    }
    if (valid.length === 0) {
      return refuse(
        reply,
        new ApiError(
          400,
          'no_valid_identifiers',
          body.identifiers.length === 0
            ? 'The list is empty'
            : `None of the ${body.identifiers.length} entries is a USDOT number or docket`,
          CREATE_HINT,
        ),
      );
    }
    return unlessUnavailable(request, reply, async () => {
      await deps.flush?.();
      const reusable = (dots: readonly string[]) => bulk.runner.reusable(dots);
      const estimate = {
        ...(await estimateRun({ ...deps, reusable }, valid, rejected, bulk.now())),
        numbering,
      };
      if (body.dry_run === true) return { estimate };
      if (!estimate.within_budget) return refuse(reply, budgetRefusal(estimate));
      const job = await bulk.store.create({
        identifiers: valid,
        estimate,
        user: userOf(request),
        at: bulk.now(),
      });
      bulk.runner.wake();
      return reply.code(202).send({ id: job.id, estimate });
    });
  });
}

function registerReads(app: FastifyInstance, bulk: BulkRoutes) {
  contractRoute(app, listJobsRoute, {}, (request, reply) =>
    unlessUnavailable(request, reply, async () => {
      const jobs = await bulk.store.jobs();
      return { jobs: await Promise.all(jobs.map((job) => bulk.summary(job))) };
    }),
  );

  contractRoute(app, getJobRoute, { wording: { query: PAGE_WORDING } }, (request, reply) => {
    const { id } = request.params;
    const page = request.query;
    return unlessUnavailable(request, reply, async () => {
      const job = await bulk.store.job(id);
      if (!job) return refuse(reply, unknownJob(id));
      const offset = page.offset ?? 0;
      const limit = page.limit ?? DEFAULT_ITEMS_LIMIT;
      const items = await bulk.store.items(job.seq, { offset, limit, status: page.status });
      reply.header('cache-control', 'private, no-store');
      return { ...(await bulk.summary(job)), items, offset, limit };
    });
  });
}

function registerActions(app: FastifyInstance, bulk: BulkRoutes) {
  for (const action of JOB_ACTIONS) {
    contractRoute(app, JOB_ACTION_ROUTES[action], {}, (request, reply) => {
      const { id } = request.params;
      return unlessUnavailable(request, reply, async () => {
        const job = await bulk.store.job(id);
        if (!job) return refuse(reply, unknownJob(id));
        // their own job; an admin: anyone's
        if (!mayActOn(request, job.created_by)) {
          return refuse(reply, notTheOwner('bulk job', job.created_by));
        }
        const outcome = await bulk.store.act(id, action, bulk.now());
        if (!outcome.ok) {
          return refuse(reply, new ApiError(409, outcome.code, outcome.message, outcome.hint));
        }
        // A resumed or re-queued job starts (here, or on the replica that takes it first); a
        // paused or cancelled one stops after the item in hand, on whichever replica runs it.
        bulk.runner.wake();
        return bulk.summary(outcome.job);
      });
    });
  }
}

/**
 * Register /api/local/bulk-jobs*. The runner starts when the app is ready (picking up the jobs a
 * restart or a dead replica interrupted) and stops before the database closes, giving its job's
 * lease up so another replica can carry on at once.
 */
export function registerBulkRoutes(app: FastifyInstance, deps: BulkRouteDeps): BulkRunner {
  const bulk = new BulkRoutes(deps);
  registerCreate(app, bulk, deps);
  registerReads(app, bulk);
  registerActions(app, bulk);
  app.addHook('onReady', async () => bulk.runner.start());
  app.addHook('preClose', async () => bulk.runner.stop());
  return bulk.runner;
}
