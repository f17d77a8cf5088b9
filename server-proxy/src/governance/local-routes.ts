import type { FastifyInstance } from 'fastify';
import {
  auditRoute,
  estimateRoute,
  getConfigRoute,
  getUsageRoute,
} from '../../../src/lib/governance/contract.ts';
import type { ProxyConfig, ServiceMode } from '../context.ts';
import { contractRoute } from '../http/contract-route.ts';
import type { InputWording } from '../http/parse-input.ts';
import type { AuditTrail } from './audit.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from './csrf.ts';
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
    currency: 'USD' as const,
    prices: priceList(),
  };
}

const ESTIMATE_WORDING: InputWording = {
  hint: 'Give the number of planned calls.',
  hints: {
    invalid_body: 'Send {"action": "monitoring/add", "profile_ids": [...]}.',
    unknown_field: 'Allowed: action, profile_ids, dots, count.',
    invalid_action: `One of: ${ENDPOINTS.join(', ')}.`,
    invalid_profile_ids: 'Use <dot>-<docket> ids such as 568253-MC277621.',
    invalid_dots: 'Send digits only, e.g. ["568253"].',
    missing_dots: 'List the carriers the action concerns.',
  },
  unknown: { code: 'unknown_field', message: (key) => `Unknown field "${key}"` },
};

const AUDIT_WORDING: InputWording = {
  hint: 'Allowed: user, dot, page, pageSize.',
  hints: {
    invalid_user: 'Give one user name, as shown in the audit.',
    invalid_dot: 'Digits only, e.g. 568253.',
    invalid_page: 'Omit it for the default 1.',
    invalid_pageSize: 'Omit it for the default 50.',
  },
  unknown: { code: 'unknown_parameter', message: (key) => `Unknown parameter "${key}"` },
};

export function registerLocalRoutes(app: FastifyInstance, deps: LocalRouteDeps) {
  contractRoute(app, getConfigRoute, {}, async (request) => ({
    ...configBody(deps.config),
    user: request.user ?? null,
  }));
  contractRoute(app, getUsageRoute, {}, async () => ({
    ...(await deps.spend.usage(deps.now())),
    billing: billingNote(deps.config.mode),
    currency: 'USD' as const,
  }));
  contractRoute(app, estimateRoute, { wording: { body: ESTIMATE_WORDING } }, async (request) => {
    const { endpoint, dots, count } = request.body;
    return {
      ...(await deps.spend.estimate(endpoint, { dots, count }, deps.now())),
      billing: billingNote(deps.config.mode),
      currency: 'USD' as const,
    };
  });
  contractRoute(app, auditRoute, { wording: { query: AUDIT_WORDING } }, async (request) =>
    deps.audit.query(request.query),
  );
}
