import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CSRF,
  LIVE_KEY,
  startFakeOrigin,
  startProxy,
  testConfig,
  type FakeOrigin,
  type RunningProxy,
} from './test-helpers.ts';

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
