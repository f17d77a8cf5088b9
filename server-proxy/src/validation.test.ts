import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../src/lib/service/channels.ts';
import { DATE_TYPES, SEARCH_KEYS, SORT_KEYS } from '../../src/lib/service/params.ts';
import { EndpointBuckets } from './buckets.ts';
import type { Endpoint } from './context.ts';
import {
  LIST_PARAMS,
  exactlyOneKey,
  parseAutocompleteQuery,
  parseListQuery,
  parseProfileIdsBody,
  parseProfileSearch,
  searchValue,
  singleValues,
  type RawQuery,
} from '../../src/lib/service/rules/index.ts';
import { UpstreamClient } from './upstream.ts';
import { validateRequest, type ForwardRequest } from './validate.ts';
import {
  CSRF,
  LIVE_KEY,
  startFakeOrigin,
  startProxy,
  testConfig,
  type FakeOrigin,
  type RunningProxy,
} from './helpers.test-support.ts';

let origin: FakeOrigin;
let proxy: RunningProxy;

beforeAll(async () => {
  origin = await startFakeOrigin();
  proxy = await startProxy(
    testConfig({
      upstream: { baseUrl: origin.url, apiKey: LIVE_KEY, legacy: false, timeoutMs: 2000 },
      cache: { profileTtlMs: 0, autocompleteTtlMs: 0, maxBytes: 1024 * 1024 },
    }),
  );
});
afterAll(async () => {
  await proxy.close();
  await origin.close();
});
beforeEach(() => {
  origin.requests.length = 0;
});

const GET_CASES: [string, string][] = [
  ['/api/v2/profile', 'missing_search_key'],
  ['/api/v2/profile?dot_number=1&ein=123456789', 'multiple_search_keys'],
  ['/api/v2/profile?dot_number=12a', 'invalid_dot_number'],
  ['/api/v2/profile?docket_number=XX123', 'invalid_docket_number'],
  ['/api/v2/profile?ein=12345678', 'invalid_ein'],
  ['/api/v2/profile?vin=1HGCM82633A00435O', 'invalid_vin'],
  ['/api/v2/profile?vin=1HGCM82633A0043', 'invalid_vin'],
  ['/api/v2/profile?plate_number=ABC123&plate_state=TEX', 'invalid_plate_state'],
  ['/api/v2/profile?dot_number=1&plate_state=TX', 'plate_state_without_plate_number'],
  ['/api/v2/profile?unit_number=U1&unit_type=BUS', 'invalid_unit_type'],
  ['/api/v2/profile?dot_number=1&unit_type=TRUCK', 'unit_type_without_unit_number'],
  ['/api/v2/profile?dot_number=1&page=0', 'invalid_page'],
  ['/api/v2/profile?dot_number=1&pageSize=0', 'invalid_page_size'],
  ['/api/v2/profile?dot_number=1&colour=red', 'unknown_parameter'],
  ['/api/v2/profile?dot_number=1&dot_number=2', 'duplicate_parameter'],
  ['/api/v2/profile-lite?company=A', 'invalid_company'],
  ['/api/v2/profile-fmcsa?ein=123456789', 'unknown_parameter'],
  ['/api/v2/profile-fmcsa', 'missing_search_key'],
  ['/api/v2/autocomplete', 'missing_q'],
  ['/api/v2/autocomplete?q=h', 'invalid_q'],
  ['/api/v2/autocomplete?q=ha&limit=16', 'invalid_limit'],
  ['/api/v2/autocomplete?q=ha&limit=0', 'invalid_limit'],
  ['/api/v2/monitoring/list?page=0', 'invalid_page'],
  ['/api/v2/monitoring/list?pageSize=-1', 'invalid_page_size'],
  ['/api/v2/monitoring/list?date_type=yesterday', 'invalid_date_type'],
  ['/api/v2/monitoring/list?date_min=20260230', 'invalid_date'],
  ['/api/v2/monitoring/list?date_min=20260301&date_max=20260201', 'invalid_date_range'],
  ['/api/v2/monitoring/list?sortOrder=up', 'invalid_sort_order'],
  ['/api/v2/monitoring/list?profile_id=MC1', 'invalid_profile_id'],
  ['/api/v2/monitoring/list?view_changes=maybe', 'invalid_boolean'],
];

const BODY_CASES: [unknown, string][] = [
  [{}, 'missing_profile_ids'],
  [[], 'invalid_body'],
  [{ profile_ids: 'x' }, 'invalid_profile_ids'],
  [{ profile_ids: [] }, 'empty_profile_ids'],
  [{ profile_ids: [1] }, 'invalid_profile_ids'],
  [{ profile_ids: ['MC277621'] }, 'invalid_profile_id'],
  [{ profile_ids: ['568253-MC277621'], extra: 1 }, 'unknown_field'],
];

function expectRefused(result: { status: number; json: unknown }, code: string) {
  expect(result.status).toBe(400);
  expect(result.json).toEqual({ error: expect.any(String), code, hint: expect.any(String) });
}

describe('validation before forwarding', () => {
  it.each(GET_CASES)('%s → 400 %s, nothing forwarded', async (path, code) => {
    expectRefused(await proxy.call(path), code);
    expect(origin.requests).toHaveLength(0);
  });

  it.each(BODY_CASES)('monitoring body %j → 400 %s, nothing forwarded', async (body, code) => {
    for (const endpoint of ['add', 'remove']) {
      const result = await proxy.call(`/api/v2/monitoring/${endpoint}`, {
        method: 'POST',
        headers: CSRF,
        body,
      });
      expectRefused(result, code);
    }
    expect(origin.requests).toHaveLength(0);
  });

  it('refuses malformed JSON and oversized bodies without forwarding', async () => {
    const broken = await proxy.call('/api/v2/monitoring/add', {
      method: 'POST',
      headers: { ...CSRF, 'content-type': 'application/json' },
      rawBody: '{"profile_ids": [',
    });
    expectRefused(broken, 'invalid_json');
    const ids = Array.from({ length: 80_000 }, (_, i) => `${i + 1}-MC${i + 1}`);
    const big = await proxy.call('/api/v2/monitoring/add', {
      method: 'POST',
      headers: CSRF,
      body: { profile_ids: ids },
    });
    expect(big.status).toBe(413);
    expect((big.json as { code: string }).code).toBe('payload_too_large');
    expect(origin.requests).toHaveLength(0);
  });

  it('forwards valid requests in canonical form', async () => {
    await proxy.call('/api/v2/profile?dot_number=0568253&page=1&pageSize=100');
    await proxy.call('/api/v2/autocomplete?q=%20Hansen%20%20Adkins&limit=5');
    await proxy.call('/api/v2/monitoring/list?pageSize=900&sortOrder=asc');
    await proxy.call('/api/v2/profile?plate_number=abc123&plate_state=tx');
    expect(origin.requests.map((r) => r.url)).toEqual([
      '/v2/profile?dot_number=568253',
      '/v2/autocomplete?q=hansen+adkins&limit=5',
      '/v2/monitoring/list?pageSize=500&sortOrder=asc',
      '/v2/profile?plate_number=abc123&plate_state=TX',
    ]);
  });
});

const PARAM_NAMES = [
  'dot_number',
  'docket_number',
  'ein',
  'vin',
  'q',
  'limit',
  'page',
  'pageSize',
  'plate_state',
  'unit_type',
  'date_min',
  'date_type',
  'sortOrder',
  'x',
  'company',
];

const queryArb = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom(...PARAM_NAMES), fc.string({ maxLength: 8 })),
    fc.string({ maxLength: 20 }),
  ),
  { maxLength: 4 },
);

describe('property: random input', () => {
  it('never answers 5xx, and nothing invalid reaches the service', async () => {
    const paths = ['profile', 'profile-lite', 'profile-fmcsa', 'autocomplete', 'monitoring/list'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), queryArb, async (path, pairs) => {
        origin.requests.length = 0;
        const query = new URLSearchParams(pairs).toString();
        const result = await proxy.call(`/api/v2/${path}?${query}`);
        expect(result.status).toBeLessThan(500);
        if (result.status === 400) expect(origin.requests).toHaveLength(0);
        else expect(result.status).toBe(200);
      }),
      { numRuns: 150 },
    );
  });

  it('never answers 5xx to random monitoring bodies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('add', 'remove'), fc.jsonValue(), async (endpoint, body) => {
        origin.requests.length = 0;
        const result = await proxy.call(`/api/v2/monitoring/${endpoint}`, {
          method: 'POST',
          headers: { ...CSRF, 'content-type': 'application/json' },
          rawBody: JSON.stringify(body),
        });
        expect(result.status).toBeLessThan(500);
        if (result.status === 400) expect(origin.requests).toHaveLength(0);
      }),
      { numRuns: 150 },
    );
  });
});

/** What the service receives for `forward`: the URL the upstream client builds, parsed back. */
function receivedQuery(forward: ForwardRequest): RawQuery {
  const client = new UpstreamClient(
    {
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
      legacy: false,
      timeoutMs: 1,
      retryDelayMs: 0,
      maxBackoffWaitMs: 0,
    },
    new EndpointBuckets(undefined, 0),
  );
  const url = new URL(client.urlOf(forward));
  void client.close();
  const raw: RawQuery = {};
  for (const [name, value] of url.searchParams) {
    const seen = raw[name];
    raw[name] = seen === undefined ? value : [...[seen].flat(), value];
  }
  return raw;
}

/** The contract's reading of a request (the parameter rules the sandbox answers with too). */
function sandboxReads(endpoint: Endpoint, query: RawQuery, body: unknown): unknown {
  switch (endpoint) {
    case 'profile':
    case 'profile-lite':
      return parseProfileSearch(query);
    case 'profile-fmcsa': {
      const keys = ['dot_number', 'docket_number'] as const;
      const values = singleValues(query, keys);
      const key = exactlyOneKey(values, keys);
      return { key, value: searchValue(key, values[key] ?? '') };
    }
    case 'autocomplete':
      return parseAutocompleteQuery(query);
    case 'monitoring/list':
      return parseListQuery(query);
    default:
      singleValues(query, []);
      return parseProfileIdsBody(body).map(({ parsed }) => parsed);
  }
}

const mixedCase = (values: string[]) =>
  fc
    .tuple(fc.constantFrom(...values), fc.array(fc.boolean(), { maxLength: 40 }))
    .map(([value, upper]) =>
      [...value].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''),
    );
const padded = (arb: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.constantFrom('', ' ', '  '), arb, fc.constantFrom('', ' ', '\t'))
    .map(([a, v, b]) => `${a}${v}${b}`);
const digits = fc.stringMatching(/^0{0,3}[1-9][0-9]{0,7}$/);
const profileId = fc
  .tuple(digits, fc.option(mixedCase(['mc', 'mx', 'ff', 'Mc'])), fc.stringMatching(/^[0-9]{1,8}$/))
  .map(([dot, prefix, num]) => (prefix === null ? dot : `${dot}-${prefix}${num}`));
const flag = mixedCase(['true', 'false', '1', '0', 'TRUE', 'False']);
const anyText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);

const VALUES: Record<string, fc.Arbitrary<string>> = {
  dot_number: fc.oneof(digits, padded(digits)),
  docket_number: padded(mixedCase(['mc277621', 'mx-1234', 'ff012844', '277621'])),
  company: fc.oneof(padded(mixedCase(['hansen', 'Hansen  Adkins'])), anyText),
  ein: fc.constantFrom('123456789', '12-3456789', ' 123456789 '),
  email: padded(mixedCase(['dispatch@example.com', 'example.com'])),
  phone: fc.constantFrom('(555) 123-4567', '5551234567', '+1 555 123 4567'),
  vin: mixedCase(['1hgcm82633a004352']),
  plate_number: padded(mixedCase(['abc123', 'a-1 2'])),
  plate_state: padded(mixedCase(['tx', 'On'])),
  unit_number: padded(mixedCase(['u-1', 'truck_12'])),
  unit_type: padded(mixedCase(['truck', 'trailer'])),
  page: fc.oneof(fc.stringMatching(/^0{0,2}[1-9][0-9]{0,3}$/), anyText),
  pageSize: fc.oneof(fc.stringMatching(/^0{0,2}[1-9][0-9]{0,4}$/), anyText),
  q: fc.oneof(
    padded(mixedCase(['hansen adkins', 'ha', 'Hansen\u00a0 Adkins'])),
    fc.integer({ min: 1, max: 101 }).map((n) => 'İ'.repeat(n)),
    fc.integer({ min: 1, max: 101 }).map((n) => `${'A'.repeat(n)} `),
    anyText,
  ),
  limit: fc.oneof(fc.stringMatching(/^0?[1-9][0-9]?$/), anyText),
  view_changes: flag,
  ...Object.fromEntries(CHANNELS.map((c) => [`view_changes_${c}`, flag])),
  date_type: fc.constantFrom(...DATE_TYPES, 'yesterday'),
  date_min: fc.constantFrom('20260101', '20260230', '2026-01-01'),
  date_max: fc.constantFrom('20261231', '20250101'),
  sortBy: fc.constantFrom(...SORT_KEYS, 'colour'),
  sortOrder: mixedCase(['asc', 'desc']),
  profile_id: fc.oneof(profileId, anyText),
};

const NAMES_OF: Record<Endpoint, string[]> = {
  profile: [...SEARCH_KEYS, 'plate_state', 'unit_type', 'page', 'pageSize'],
  'profile-lite': [...SEARCH_KEYS, 'plate_state', 'unit_type', 'page', 'pageSize'],
  'profile-fmcsa': ['dot_number', 'docket_number'],
  autocomplete: ['q', 'limit'],
  'monitoring/list': [...LIST_PARAMS],
  'monitoring/add': [],
  'monitoring/remove': [],
};

const requestArb = fc.constantFrom(...(Object.keys(NAMES_OF) as Endpoint[])).chain((endpoint) =>
  fc.record({
    endpoint: fc.constant(endpoint),
    query: fc
      .uniqueArray(fc.constantFrom(...(NAMES_OF[endpoint].length ? NAMES_OF[endpoint] : ['x'])), {
        maxLength: endpoint === 'monitoring/list' ? 6 : 3,
      })
      .chain((names) =>
        fc
          .tuple(...names.map((name) => VALUES[name] ?? anyText))
          .map((values) =>
            Object.fromEntries(
              names.flatMap((name, i) => (NAMES_OF[endpoint].length ? [[name, values[i]]] : [])),
            ),
          ),
      ),
    body: fc.record({ profile_ids: fc.array(profileId, { minLength: 1, maxLength: 5 }) }),
  }),
);

describe('property: what the proxy forwards, the service accepts', () => {
  it('forwards every accepted request in a canonical form the sandbox accepts, meaning the same', () => {
    let forwarded = 0;
    fc.assert(
      fc.property(requestArb, ({ endpoint, query, body }) => {
        const isPost = endpoint === 'monitoring/add' || endpoint === 'monitoring/remove';
        let forward: ForwardRequest;
        try {
          forward = validateRequest(endpoint, query, isPost ? body : undefined);
        } catch {
          return; // refused: nothing is forwarded
        }
        forwarded += 1;
        const received = receivedQuery(forward);
        // accepted by the service's rules ...
        const meaning = sandboxReads(endpoint, received, forward.body);
        // ... with the meaning of the browser's request (autocomplete: up to case and spaces)
        const asked = sandboxReads(endpoint, query, isPost ? body : undefined);
        if (endpoint === 'autocomplete') {
          const fold = (v: unknown) => {
            const { q, limit } = v as { q: string; limit: number };
            return { q: q.toLowerCase().replace(/\s+/g, ' '), limit };
          };
          expect(fold(meaning)).toEqual(fold(asked));
        } else if (isDotLookup(asked)) {
          // A DOT lookup answers one item or none whatever the page size, so the proxy leaves the
          // size out (one cache entry, one upstream call); everything else means the same.
          expect(withoutPageSize(meaning)).toEqual(withoutPageSize(asked));
        } else {
          expect(meaning).toEqual(isPost ? (asked as object[]).filter(uniqueId) : asked);
        }
        // ... and canonical: forwarding what was forwarded changes nothing
        expect(validateRequest(endpoint, received, forward.body)).toEqual(forward);
        for (const [name, value] of forward.query) {
          if (name.startsWith('view_changes')) expect(value).toBe('true');
          if (name === 'profile_id') expect(value).toMatch(/^[1-9][0-9]*(-(MC|MX|FF)[0-9]+)?$/);
        }
      }),
      { numRuns: 2000 },
    );
    expect(forwarded).toBeGreaterThan(300);
  });
});

function isDotLookup(read: unknown): boolean {
  const query = (read as { query?: { key?: string } }).query;
  return query?.key === 'dot_number';
}

function withoutPageSize(read: unknown): unknown {
  const { pageSize: _pageSize, ...rest } = read as { pageSize?: number };
  return rest;
}

/** Keeps the first of equal parsed profile ids (the proxy forwards each id once). */
function uniqueId(id: object, index: number, all: object[]): boolean {
  return all.findIndex((other) => JSON.stringify(other) === JSON.stringify(id)) === index;
}
