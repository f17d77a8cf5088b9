/**
 * POST /api/local/names/lookup: look up the names of carriers nobody has named yet, through the
 * mirror (cache, budget, upstream queue and retries, spend meter, audit), only when asked twice:
 * without `confirm` it answers what it would cost and calls nothing; with `confirm: true` (and
 * the cost the user saw, `max_cost_usd`) it looks them up. Never automatic.
 *
 * The endpoint is the cheapest that answers a name for the whole list: `profile-fmcsa` (0.10 USD
 * a carrier found, nothing when not found) unless `profile-lite` costs no more, which happens when
 * the ledger shows those DOTs' lite profiles already billed this month (billed once per DOT and
 * month, so free again).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ProxyConfig, SpendMeter } from '../context.ts';
import { millsToUsd, unitMills } from '../governance/pricing.ts';
import type { SpendLedger } from '../governance/spend.ts';
import { ApiError, sendApiError } from '../http/api-error.ts';
import { contractRoute } from '../http/contract-route.ts';
import type { InputWording } from '../http/parse-input.ts';
import { unlessStorageUnavailable } from '../http/storage-unavailable.ts';
import type { MirrorClient } from '../routes/mirror.ts';
import type { NameRecorder } from './recorder.ts';
import { sightingsIn } from './sightings.ts';
import type { CarrierNameStore } from './store.ts';
import {
  NAME_LOOKUP_HINT,
  nameLookupRoute,
  type NameLookupEstimate,
  type NameLookupResult,
} from '../../../src/lib/monitoring/contract.ts';

/** Look-ups in flight at once; the upstream queue keeps the service's rate limits. */
const CONCURRENCY = 4;

type LookupEndpoint = NameLookupEstimate['endpoint'];

const HINT = NAME_LOOKUP_HINT;

const WORDING: InputWording = {
  hint: HINT,
  unknown: { code: 'unknown_field', message: (key) => `Unknown member "${key}"` },
};

/** What a look-up would cost, before anything is sent (src/lib/monitoring/contract.ts). */
type LookupEstimate = NameLookupEstimate;

export interface NameLookupDeps {
  config: Pick<ProxyConfig, 'mode' | 'monthlyBudgetUsd'>;
  mirror: MirrorClient;
  spend: SpendMeter & Partial<Pick<SpendLedger, 'estimate'>>;
  store: CarrierNameStore;
  recorder: Pick<NameRecorder, 'add' | 'flush'>;
  now?: () => Date;
}

async function quote(deps: NameLookupDeps, endpoint: LookupEndpoint, dots: string[], now: Date) {
  if (deps.spend.estimate) {
    const e = await deps.spend.estimate(endpoint, { dots }, now);
    return { billable: e.billableUnits, spentUsd: e.spentUsd, budgetUsd: e.budgetUsd };
  }
  const check = await deps.spend.check({ endpoint, dots, at: now });
  return {
    billable: Math.round(check.costUsd / millsToUsd(unitMills(endpoint))),
    spentUsd: check.ok ? 0 : check.spentUsd,
    budgetUsd: deps.config.monthlyBudgetUsd ?? null,
  };
}

async function estimate(
  deps: NameLookupDeps,
  asked: string[],
  toLookUp: string[],
  now: Date,
): Promise<LookupEstimate> {
  const fmcsa = await quote(deps, 'profile-fmcsa', toLookUp, now);
  const lite = await quote(deps, 'profile-lite', toLookUp, now);
  const fmcsaMills = fmcsa.billable * unitMills('profile-fmcsa');
  const liteMills = lite.billable * unitMills('profile-lite');
  const endpoint: LookupEndpoint = liteMills <= fmcsaMills ? 'profile-lite' : 'profile-fmcsa';
  const chosen = endpoint === 'profile-lite' ? lite : fmcsa;
  const mills = Math.min(liteMills, fmcsaMills);
  const billed = deps.config.mode === 'live';
  const budgetMills = chosen.budgetUsd === null ? null : Math.round(chosen.budgetUsd * 1000);
  const spentMills = Math.round(chosen.spentUsd * 1000);
  return {
    carriers: asked.length,
    already_named: asked.length - toLookUp.length,
    to_look_up: toLookUp.length,
    endpoint,
    unit_price_usd: millsToUsd(unitMills(endpoint)),
    billable: chosen.billable,
    metered_cost_usd: millsToUsd(mills),
    cost_usd: billed ? millsToUsd(mills) : 0,
    billed,
    budget_usd: chosen.budgetUsd,
    spent_usd: chosen.spentUsd,
    within_budget: budgetMills === null || mills === 0 || spentMills + mills <= budgetMills,
  };
}

type LookupResult = NameLookupResult;

/** Refusals after which no further look-up is sent. */
const STOPPING = new Set([401, 402, 429, 502, 503, 504]);

async function lookUp(
  deps: NameLookupDeps,
  endpoint: LookupEndpoint,
  dots: string[],
  request: FastifyRequest,
): Promise<LookupResult> {
  const result: LookupResult = { named: {}, not_found: [], failed: [] };
  const caller = {
    user: request.user?.id ?? 'local',
    requestId: request.id,
    headers: request.headers,
  };
  const queue = [...dots];
  const one = async (dot: string) => {
    try {
      const answer = await deps.mirror.get(endpoint, { dot_number: dot }, caller);
      if (answer.status === 404) {
        result.not_found.push(dot);
        return;
      }
      if (answer.status !== 200) {
        result.failed.push({ dot, code: `status_${answer.status}`, error: 'The service refused' });
        if (STOPPING.has(answer.status)) {
          result.stopped = {
            code: `status_${answer.status}`,
            error: `The service answered ${answer.status}`,
            hint: 'Try again later.',
          };
        }
        return;
      }
      const sightings = sightingsIn(endpoint, answer.json).filter((s) => s.dot === dot);
      deps.recorder.add(sightings);
      const found = sightings[0];
      const name = found?.legal ?? found?.dba;
      if (!found || !name) result.not_found.push(dot);
      else {
        const dba = found.legal && found.dba && found.dba !== found.legal ? found.dba : undefined;
        result.named[dot] = { name, ...(dba && { dba }) };
      }
    } catch (err) {
      const apiError = err instanceof ApiError ? err : undefined;
      const code = apiError?.code ?? 'lookup_failed';
      const message = apiError?.message ?? 'The look-up failed';
      result.failed.push({ dot, code, error: message });
      if (!apiError || STOPPING.has(apiError.status)) {
        result.stopped = { code, error: message, hint: apiError?.hint ?? 'Try again later.' };
      }
    }
  };
  const worker = async () => {
    for (let dot = queue.shift(); dot !== undefined; dot = queue.shift()) {
      if (result.stopped) return;
      await one(dot);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, dots.length) }, worker));
  await deps.recorder.flush();
  return result;
}

function costChanged(estimate: LookupEstimate, seen: number): ApiError {
  return new ApiError(
    409,
    'cost_changed',
    `Looking these up now costs ${estimate.metered_cost_usd.toFixed(2)} USD, more than the ${seen.toFixed(2)} USD shown`,
    'Ask for the cost again (without "confirm") and confirm the new figure.',
  );
}

export function registerNameLookupRoute(app: FastifyInstance, deps: NameLookupDeps): void {
  const now = deps.now ?? (() => new Date());
  contractRoute(app, nameLookupRoute, { wording: { body: WORDING } }, (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    const { dots, confirm, max_cost_usd: maxCost } = request.body;
    // a refusal is sent on `reply`, which the handler returns: Fastify takes it as answered
    const answer = unlessStorageUnavailable(request, reply, 'names', async () => {
      const named = await deps.store.get(dots);
      const toLookUp = dots.filter((dot) => !named.get(dot)?.legal && !named.get(dot)?.dba);
      const at = now();
      const cost = await estimate(deps, dots, toLookUp, at);
      if (!confirm) return { estimate: cost };
      if (maxCost === undefined) {
        return sendApiError(
          reply,
          new ApiError(400, 'missing_max_cost', 'Confirm with the cost you were shown', HINT),
        );
      }
      if (cost.metered_cost_usd > maxCost + 1e-9)
        return sendApiError(reply, costChanged(cost, maxCost));
      if (!cost.within_budget) {
        return sendApiError(
          reply,
          new ApiError(
            402,
            'budget_exceeded',
            `Looking these up would cost ${cost.metered_cost_usd.toFixed(2)} USD and cross the monthly budget`,
            'Ask an administrator to raise MONTHLY_BUDGET_USD, or look up fewer carriers.',
          ),
        );
      }
      return { estimate: cost, result: await lookUp(deps, cost.endpoint, toLookUp, request) };
    });
    return answer as Promise<{ estimate: LookupEstimate; result?: LookupResult }>;
  });
}
