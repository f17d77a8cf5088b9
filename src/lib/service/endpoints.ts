/**
 * The service's endpoints and every fact about each one, in one table: path, method, price, the
 * published rate limit of live keys, whether the proxy caches the answer, whether a repeat after a
 * send could bill again, and the sandbox ledger's billing kind. The proxy's allow-list, validation
 * dispatch, cache lifetimes, token buckets, spend meter and retry rule, the sandbox's rate limiter
 * and ledger, and the SPA's cost figures are all derived from it. Runtime-neutral (no Node, no
 * React); prices and limits are those of `service-facts.md`.
 */

/** The mirrored endpoints, named by their path after `/v2/`. */
export const ENDPOINT_NAMES = [
  'profile',
  'profile-lite',
  'profile-fmcsa',
  'autocomplete',
  'monitoring/add',
  'monitoring/remove',
  'monitoring/list',
] as const;

export type Endpoint = (typeof ENDPOINT_NAMES)[number];

/** How an endpoint is priced; amounts in mills (thousandths of a USD) so sums stay exact. */
export type PriceRule =
  | { kind: 'per-dot-month'; mills: number }
  | { kind: 'per-match'; mills: number }
  | { kind: 'per-call'; mills: number }
  | { kind: 'free' };

/** Billing kinds of the service's ledger (the three monitoring endpoints bill as one kind). */
export type BillingKind =
  'profile' | 'profile_lite' | 'profile_fmcsa' | 'autocomplete' | 'monitoring';

/** Spend categories shown in usage: the endpoint, with the monitoring endpoints as one. */
export type SpendCategory =
  'profile' | 'profile-lite' | 'profile-fmcsa' | 'autocomplete' | 'monitoring';

/** Which configured cache lifetime an answer is kept for; `none`: never cached (writes, the inbox). */
type CacheClass = 'profile' | 'autocomplete' | 'none';

/**
 * May a request that may already have reached the service be sent again without a second bill?
 * `always`: free, or billed per unique DOT and month with the DOTs named by the request itself;
 * `dot-lookup`: only a single `dot_number` lookup (other searches page carriers the request does not
 * name); `never`: billed per call or per match.
 */
type RepeatRule = 'always' | 'dot-lookup' | 'never';

export interface EndpointFacts {
  readonly name: Endpoint;
  /** the service's path, e.g. `/v2/profile` */
  readonly path: `/v2/${Endpoint}`;
  readonly method: 'GET' | 'POST';
  readonly price: PriceRule;
  /** the service's ledger kind, undefined for free endpoints */
  readonly billingKind: BillingKind | undefined;
  readonly category: SpendCategory;
  /** published requests per key per minute on live keys; undefined where none is published */
  readonly liveLimitPerMinute: number | undefined;
  readonly cache: CacheClass;
  readonly repeat: RepeatRule;
  /**
   * The spend meter hears of the call: every billable endpoint, and monitoring/remove (free, but it
   * ends the watch the meter counts).
   */
  readonly metered: boolean;
}

function facts(
  name: Endpoint,
  rest: Omit<EndpointFacts, 'name' | 'path' | 'category' | 'metered'> & { metered?: boolean },
): EndpointFacts {
  return {
    name,
    path: `/v2/${name}`,
    category: name.startsWith('monitoring/') ? 'monitoring' : (name as SpendCategory),
    ...rest,
    metered: rest.metered ?? rest.price.kind !== 'free',
  };
}

/**
 * Published prices: profile 3.00 and lite 0.50 USD per unique DOT per calendar month; FMCSA 0.10
 * per matched lookup; autocomplete 3.00 per 1,000 queries; monitoring 0.50 per unique DOT per month,
 * removal and the list free. Published live limits per key and minute: profile 5, lite 30,
 * autocomplete 2,000, monitoring add/remove 60, list 120; FMCSA has none published.
 */
export const ENDPOINTS: Readonly<Record<Endpoint, EndpointFacts>> = {
  profile: facts('profile', {
    method: 'GET',
    price: { kind: 'per-dot-month', mills: 3000 },
    billingKind: 'profile',
    liveLimitPerMinute: 5,
    cache: 'profile',
    repeat: 'dot-lookup',
  }),
  'profile-lite': facts('profile-lite', {
    method: 'GET',
    price: { kind: 'per-dot-month', mills: 500 },
    billingKind: 'profile_lite',
    liveLimitPerMinute: 30,
    cache: 'profile',
    repeat: 'dot-lookup',
  }),
  'profile-fmcsa': facts('profile-fmcsa', {
    method: 'GET',
    price: { kind: 'per-match', mills: 100 },
    billingKind: 'profile_fmcsa',
    liveLimitPerMinute: undefined,
    cache: 'profile',
    repeat: 'never',
  }),
  autocomplete: facts('autocomplete', {
    method: 'GET',
    price: { kind: 'per-call', mills: 3 },
    billingKind: 'autocomplete',
    liveLimitPerMinute: 2000,
    cache: 'autocomplete',
    repeat: 'never',
  }),
  'monitoring/add': facts('monitoring/add', {
    method: 'POST',
    price: { kind: 'per-dot-month', mills: 500 },
    billingKind: 'monitoring',
    liveLimitPerMinute: 60,
    cache: 'none',
    repeat: 'always',
  }),
  'monitoring/remove': facts('monitoring/remove', {
    method: 'POST',
    price: { kind: 'free' },
    billingKind: undefined,
    liveLimitPerMinute: 60,
    cache: 'none',
    repeat: 'always',
    metered: true,
  }),
  'monitoring/list': facts('monitoring/list', {
    method: 'GET',
    price: { kind: 'free' },
    billingKind: undefined,
    liveLimitPerMinute: 120,
    cache: 'none',
    repeat: 'always',
  }),
};

export function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === 'string' && (ENDPOINT_NAMES as readonly string[]).includes(value);
}

/** The endpoint of a service path (`/v2/profile`, `/api/v2/profile`, with or without a query). */
export function endpointOfPath(path: string): Endpoint | undefined {
  const bare = path.split('?')[0]?.replace(/\/+$/, '') ?? '';
  const match = /(?:^|\/)v2\/(.+)$/.exec(bare);
  return match && isEndpoint(match[1]) ? match[1] : undefined;
}

/** Unit price in mills (0 for free endpoints). */
export function unitMills(endpoint: Endpoint): number {
  const { price } = ENDPOINTS[endpoint];
  return price.kind === 'free' ? 0 : price.mills;
}

/** Unit price in USD (0 for free endpoints), e.g. the SPA's figure until the proxy's list arrives. */
export function unitUsd(endpoint: Endpoint): number {
  return unitMills(endpoint) / 1000;
}

/** Prefixes of the service's API keys: test keys answer from fixtures, live keys bill. */
export const SANDBOX_KEY_PREFIX = 'sk_test_';
export const LIVE_KEY_PREFIX = 'sk_live_';
