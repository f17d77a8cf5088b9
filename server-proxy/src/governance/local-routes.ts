import type { FastifyInstance } from 'fastify';
import type { ProxyConfig, ServiceMode } from '../context.ts';
import type { AuditTrail } from './audit.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from './csrf.ts';
import { sendApiError } from '../http/api-error.ts';
import { parseAuditQuery, parseEstimate } from './local-inputs.ts';
import { ENDPOINTS, PRICE_RULES, millsToUsd, unitMills, type PriceRule } from './pricing.ts';
import type { SpendLedger } from './spend.ts';

export interface LocalRouteDeps {
  config: ProxyConfig;
  spend: SpendLedger;
  audit: AuditTrail;
  now: () => Date;
}

/** Whether money changes hands in a mode, and what the amounts shown mean. */
function billingNote(mode: ServiceMode): { billed: boolean; note: string } {
  if (mode === 'live') {
    return { billed: true, note: 'Live key: amounts estimate what the service bills this key.' };
  }
  const who = mode === 'sandbox' ? 'the embedded sandbox' : 'a test key (sk_test_)';
  return {
    billed: false,
    note: `Nothing is billed in sandbox/test: this is ${who}; amounts are what the live service would charge.`,
  };
}

const UNIT: Record<PriceRule['kind'], string> = {
  'per-dot-month': 'per unique DOT per calendar month',
  'per-match': 'per matched lookup (no match free)',
  'per-call': 'per query',
  free: 'free',
};

function priceList() {
  return ENDPOINTS.map((endpoint) => ({
    endpoint,
    usd: millsToUsd(unitMills(endpoint)),
    unit: UNIT[PRICE_RULES[endpoint].kind],
  }));
}

/** GET /api/local/config: what the SPA needs to know; never the key nor the upstream address. */
function configBody(config: ProxyConfig) {
  return {
    mode: config.mode,
    legacy: config.upstream.legacy,
    embeddedSandbox: config.embeddedSandbox,
    // the profile cache is on, so /api/local/profile-summary answers and a verdict asked beside it
    // joins the summary's one service call (the SPA asks both at once then; docs/proxy.md)
    profileSummaries: config.cache.profileTtlMs > 0,
    billing: billingNote(config.mode),
    budgetUsd: config.monthlyBudgetUsd ?? null,
    orgName: config.orgName ?? null,
    auth: config.auth.kind,
    csrfHeader: { name: CSRF_HEADER, value: CSRF_HEADER_VALUE },
    currency: 'USD',
    prices: priceList(),
  };
}

export function registerLocalRoutes(app: FastifyInstance, deps: LocalRouteDeps) {
  app.get('/api/local/config', async (request) => ({
    ...configBody(deps.config),
    user: request.user ?? null,
  }));
  app.get('/api/local/usage', async () => ({
    ...(await deps.spend.usage(deps.now())),
    billing: billingNote(deps.config.mode),
    currency: 'USD',
  }));
  app.post('/api/local/estimate', async (request, reply) => {
    const plan = parseEstimate(request.body);
    if (!plan.ok) return sendApiError(reply, plan.error);
    const { endpoint, dots, count } = plan.value;
    return {
      ...(await deps.spend.estimate(endpoint, { dots, count }, deps.now())),
      billing: billingNote(deps.config.mode),
      currency: 'USD',
    };
  });
  app.get('/api/local/audit', async (request, reply) => {
    const query = parseAuditQuery(request.query);
    if (!query.ok) return sendApiError(reply, query.error);
    return await deps.audit.query(query.value);
  });
}
