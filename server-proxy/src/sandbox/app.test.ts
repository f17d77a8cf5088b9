import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FMCSA_PROFILE_FIELDS, LITE_PROFILE_FIELDS } from '../../../src/lib/service/index.ts';
import {
  OTHER_KEY,
  TEST_KEY,
  expectError,
  itemsOf,
  request,
  startSandbox,
  type RunningSandbox,
} from './helpers.test-support.ts';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

const get = (path: string, headers?: Record<string, string>) => sandbox.call(path, { headers });

async function profileOf(dot: string): Promise<Record<string, unknown>> {
  const [item] = itemsOf(await get(`/v2/profile?dot_number=${dot}`));
  if (!item) throw new Error(`no profile for ${dot}`);
  return item;
}

interface LedgerBody {
  keys: {
    key: string;
    months: { lines: { kind: string; calls: number; amount_usd: number }[] }[];
  }[];
}

async function ledgerLines(key = TEST_KEY) {
  const result = await sandbox.call('/__sandbox/ledger', {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(result.status).toBe(200);
  return (result.json as LedgerBody).keys[0]?.months[0]?.lines ?? [];
}

async function billed(kind: string, key = TEST_KEY): Promise<number | undefined> {
  return (await ledgerLines(key)).find((line) => line.kind === kind)?.amount_usd;
}

describe('spec example and deployments', () => {
  it('GET /v2/profile?dot_number=568253 returns one item with doc_id 568253-MC277621', async () => {
    const result = await get('/v2/profile?dot_number=568253');
    expect(result.json).toMatchObject({ total_count: 1 });
    expect(itemsOf(result)).toHaveLength(1);
    expect(itemsOf(result)[0]).toMatchObject({
      doc_id: '568253-MC277621',
      dot_number: '568253',
      legal_name: 'HANSEN & ADKINS AUTO TRANSPORT INC',
    });
  });

  it.each([
    ['/v2', { authorization: `Bearer ${TEST_KEY}` }],
    ['/v2', { 'x-api-key': TEST_KEY }],
    ['/api/v2', { 'X-Api-Key': TEST_KEY }],
    ['/api/v2', { authorization: `Bearer ${TEST_KEY}` }],
  ])('%s with %j serves the same body', async (prefix, headers) => {
    const reference = await get('/v2/profile?dot_number=568253');
    const result = await request(`${sandbox.url}${prefix}/profile?dot_number=568253`, { headers });
    expect(result.status).toBe(200);
    expect(result.json).toEqual(reference.json);
  });

  it.each(['/v2', '/api/v2'])('%s answers every endpoint', async (prefix) => {
    expect((await get(`${prefix}/profile-lite?dot_number=568253`)).status).toBe(200);
    expect((await get(`${prefix}/profile-fmcsa?dot_number=568253`)).status).toBe(200);
    expect((await get(`${prefix}/autocomplete?q=ha`)).status).toBe(200);
    expect((await get(`${prefix}/monitoring/list`)).status).toBe(200);
  });
});

describe('authentication', () => {
  it.each([
    [{}, 'missing_api_key'],
    [{ authorization: 'Bearer sk_test_unknown' }, 'invalid_api_key'],
    [{ 'x-api-key': 'sk_live_0123456789abcdef' }, 'live_key_rejected'],
    [{ authorization: 'Token abc' }, 'invalid_authorization_header'],
  ])('%j -> 401 %s on both deployments and the test endpoints', async (headers, code) => {
    for (const path of [
      '/v2/profile?dot_number=1',
      '/api/v2/autocomplete?q=ab',
      '/__sandbox/ledger',
    ]) {
      const result = await request(`${sandbox.url}${path}`, { headers });
      expectError(result, 401, code);
      expect(result.text).not.toContain('0123456789abcdef');
    }
  });

  it('the hint for a live key says the sandbox does not take live keys', async () => {
    const result = await request(`${sandbox.url}/v2/profile?dot_number=1`, {
      headers: { authorization: 'Bearer sk_live_0123456789abcdef' },
    });
    expect((result.json as { hint: string }).hint).toMatch(/live key/);
  });
});

describe('GET /v2/profile search keys against the curated carriers', () => {
  let curated: Record<string, unknown>[];
  beforeAll(async () => {
    curated = await Promise.all(sandbox.app.sandbox.dataset.curatedDots.map(profileOf));
  });

  async function dotsFor(query: string): Promise<string[]> {
    const result = await get(`/v2/profile?${query}&pageSize=100`);
    return itemsOf(result).map((item) => String(item.dot_number));
  }

  it('serves every curated carrier by DOT with a doc_id of DOT and docket', () => {
    expect(curated.length).toBeGreaterThanOrEqual(10);
    for (const profile of curated) {
      expect(String(profile.doc_id)).toMatch(new RegExp(`^${String(profile.dot_number)}(-|$)`));
    }
  });

  it.each([
    ['docket_number', 'docket'],
    ['company', 'legal_name'],
    ['ein', 'ein'],
    ['email', 'email_address'],
    ['phone', 'telephone_number'],
    ['address', 'physical_address_street'],
  ])('%s finds each curated carrier by its %s', async (key, field) => {
    let searched = 0;
    for (const profile of curated) {
      const value = profile[field];
      if (typeof value !== 'string' || value === '') continue;
      searched += 1;
      expect(await dotsFor(`${key}=${encodeURIComponent(value)}`)).toContain(profile.dot_number);
    }
    expect(searched).toBeGreaterThan(0);
  });

  function units(profile: Record<string, unknown>): Record<string, unknown>[] {
    const history = profile.equipment_history;
    return Array.isArray(history) ? (history as Record<string, unknown>[]) : [];
  }

  it('vin finds the carrier and adds vin_decoded and vin_inspection_history', async () => {
    const profile = curated.find((p) => units(p).length > 0);
    const vin = String(units(profile ?? {})[0]?.vin);
    const [item] = itemsOf(await get(`/v2/profile?vin=${vin}`)).filter(
      (i) => i.dot_number === profile?.dot_number,
    );
    expect(item).toBeDefined();
    expect(item?.vin_decoded).toMatchObject({ vin });
    const history = item?.vin_inspection_history as { vins: { vin: string }[] }[];
    expect(history.length).toBeGreaterThan(0);
    for (const inspection of history) {
      expect(inspection.vins.map((unit) => unit.vin)).toContain(vin);
    }
    const lite = itemsOf(await get(`/v2/profile-lite?vin=${vin}`));
    expect(lite[0]).not.toHaveProperty('vin_decoded');
  });

  it('plate_number (+plate_state) finds the carrier', async () => {
    const profile = curated.find((p) => units(p).some((u) => u.insp_unit_license));
    const unit = units(profile ?? {}).find((u) => u.insp_unit_license);
    const plate = encodeURIComponent(String(unit?.insp_unit_license));
    const state = String(unit?.insp_unit_license_state);
    expect(await dotsFor(`plate_number=${plate}`)).toContain(profile?.dot_number);
    expect(await dotsFor(`plate_number=${plate}&plate_state=${state}`)).toContain(
      profile?.dot_number,
    );
    const otherState = state === 'TX' ? 'OK' : 'TX';
    expect(await dotsFor(`plate_number=${plate}&plate_state=${otherState}`)).not.toContain(
      profile?.dot_number,
    );
  });

  it('unit_number (+unit_type) finds the carrier', async () => {
    const profile = curated.find((p) => units(p).some((u) => u.insp_unit_company));
    const unit = units(profile ?? {}).find((u) => u.insp_unit_company);
    const number = encodeURIComponent(String(unit?.insp_unit_company));
    const type = unit?.type === 'TRAILER' ? 'TRAILER' : 'TRUCK';
    expect(await dotsFor(`unit_number=${number}`)).toContain(profile?.dot_number);
    expect(await dotsFor(`unit_number=${number}&unit_type=${type}`)).toContain(profile?.dot_number);
  });

  it('a DOT without a carrier returns 200 with empty items', async () => {
    expect((await get('/v2/profile?dot_number=99999998')).json).toEqual({
      items: [],
      total_count: 0,
    });
  });
});

describe('paging', () => {
  it('pages through a multi-result search; pageSize above 100 is clamped', async () => {
    const all = await get('/v2/profile-lite?company=TRANS&pageSize=1000');
    const { total_count: total } = all.json as { total_count: number };
    expect(total).toBeGreaterThan(2);
    expect(itemsOf(all)).toHaveLength(Math.min(total, 100));
    const first = itemsOf(await get('/v2/profile-lite?company=TRANS&pageSize=2'));
    const second = itemsOf(await get('/v2/profile-lite?company=TRANS&pageSize=2&page=2'));
    expect(first).toHaveLength(2);
    expect(second.length).toBeGreaterThan(0);
    expect([...first, ...second].map((i) => i.dot_number)).toEqual(
      itemsOf(all)
        .slice(0, 2 + second.length)
        .map((i) => i.dot_number),
    );
    const beyond = await get(`/v2/profile-lite?company=TRANS&page=${total + 1}&pageSize=1`);
    expect(beyond.json).toEqual({ items: [], total_count: total });
  });

  it.each([
    ['page=0', 'invalid_page'],
    ['page=x', 'invalid_page'],
    ['pageSize=0', 'invalid_page_size'],
    ['pageSize=-5', 'invalid_page_size'],
  ])('%s -> 400 %s', async (paging, code) => {
    expectError(await get(`/v2/profile?dot_number=568253&${paging}`), 400, code);
  });
});

describe('400s of the search endpoints', () => {
  it.each([
    ['/v2/profile', 'missing_search_key'],
    ['/v2/profile?dot_number=1&ein=123456789', 'multiple_search_keys'],
    ['/v2/profile?dot_number=abc', 'invalid_dot_number'],
    ['/api/v2/profile-lite?docket_number=ZZ1', 'invalid_docket_number'],
    ['/v2/profile?ein=12', 'invalid_ein'],
    ['/v2/profile?vin=SHORT', 'invalid_vin'],
    ['/v2/profile?dot_number=1&color=red', 'unknown_parameter'],
    ['/v2/profile?dot_number=1&dot_number=2', 'duplicate_parameter'],
    ['/v2/profile?dot_number=1&plate_state=TX', 'plate_state_without_plate_number'],
    ['/v2/profile-fmcsa', 'missing_search_key'],
    ['/v2/profile-fmcsa?company=acme', 'unknown_parameter'],
    ['/v2/profile-fmcsa?dot_number=1&docket_number=MC1', 'multiple_search_keys'],
    ['/v2/autocomplete', 'missing_q'],
    ['/v2/autocomplete?q=a', 'invalid_q'],
    ['/v2/autocomplete?q=%20a%20', 'invalid_q'],
    ['/v2/autocomplete?q=ab&limit=0', 'invalid_limit'],
    ['/v2/autocomplete?q=ab&limit=many', 'invalid_limit'],
  ])('%s -> %s', async (path, code) => {
    expectError(await get(path), 400, code);
  });
});

describe('GET /v2/profile-lite', () => {
  it('serves only lite fields, doc_id first, values equal to the full profile', async () => {
    const full = await profileOf('568253');
    const [lite] = itemsOf(await get('/v2/profile-lite?dot_number=568253'));
    const keys = Object.keys(lite ?? {});
    expect(keys[0]).toBe('doc_id');
    expect(keys.every((key) => (LITE_PROFILE_FIELDS as readonly string[]).includes(key))).toBe(
      true,
    );
    expect(keys.length).toBeGreaterThan(30);
    for (const key of keys) expect(lite?.[key]).toEqual(full[key]);
  });
});

describe('GET /v2/profile-fmcsa', () => {
  it('returns a bare object carrying every FMCSA field, null where empty', async () => {
    const result = await get('/v2/profile-fmcsa?dot_number=568253');
    expect(result.status).toBe(200);
    const body = result.json as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([...FMCSA_PROFILE_FIELDS].sort());
    expect(FMCSA_PROFILE_FIELDS).toHaveLength(236);
    expect(body.dot_number).toBe('568253');
    expect(Object.values(body).some((value) => value === null)).toBe(true);
    expect(Object.values(body).every((value) => value !== undefined && value !== '')).toBe(true);
  });

  it('finds by docket, with or without prefix', async () => {
    for (const docket of ['MC277621', '277621']) {
      const result = await get(`/v2/profile-fmcsa?docket_number=${docket}`);
      expect((result.json as Record<string, unknown>).dot_number).toBe('568253');
    }
  });

  it('serves a carrier that is not operating when it is the only match', async () => {
    const result = await get('/v2/profile-fmcsa?docket_number=MC1098831');
    expect(result.json).toMatchObject({ dot_number: '3187452', out_of_service_flag: true });
    expect(result.headers.get('x-total-count')).toBe('1');
  });

  it('answers 404 not_found without a match', async () => {
    expectError(await get('/v2/profile-fmcsa?dot_number=99999998'), 404, 'not_found');
    expectError(await get('/api/v2/profile-fmcsa?docket_number=MX99999998'), 404, 'not_found');
  });
});

describe('GET /v2/autocomplete', () => {
  it('returns identity items by name prefix with a 5-minute private cache header', async () => {
    const result = await get('/v2/autocomplete?q=hansen');
    expect(result.headers.get('cache-control')).toBe('private, max-age=300');
    const items = itemsOf(result);
    expect(items).toContainEqual({
      dot_number: '568253',
      legal_name: 'HANSEN & ADKINS AUTO TRANSPORT INC',
      dba_name: expect.toSatisfy((v: unknown) => v === null || typeof v === 'string') as unknown,
      city: expect.any(String) as unknown,
      state: expect.any(String) as unknown,
      docket: 'MC277621',
    });
  });

  it('finds by DOT prefix', async () => {
    const items = itemsOf(await get('/v2/autocomplete?q=56825'));
    expect(items.map((i) => i.dot_number)).toContain('568253');
  });

  it('defaults to 10 items and clamps limit to 15', async () => {
    const { dataset } = sandbox.app.sandbox;
    const letters = [...'abcdefghijklmnopqrstuvwxyz'];
    const q = letters
      .flatMap((a) => letters.map((b) => a + b))
      .find((prefix) => dataset.autocomplete(prefix, 20).length > 15);
    expect(q).toBeDefined();
    expect(itemsOf(await get(`/v2/autocomplete?q=${q}`))).toHaveLength(10);
    expect(itemsOf(await get(`/v2/autocomplete?q=${q}&limit=3`))).toHaveLength(3);
    expect(itemsOf(await get(`/v2/autocomplete?q=${q}&limit=500`))).toHaveLength(15);
  });
});

describe('billing', () => {
  beforeEach(async () => {
    expect((await sandbox.call('/__sandbox/reset', { method: 'POST' })).status).toBe(200);
  });

  it('bills profile 3.00 once per DOT per month, across both deployments', async () => {
    await get('/v2/profile?dot_number=568253');
    await get('/api/v2/profile?docket_number=MC277621');
    expect(await billed('profile')).toBe(3);
    const second = sandbox.app.sandbox.dataset.curatedDots.find((dot) => dot !== '568253');
    await get(`/v2/profile?dot_number=${second}`);
    expect(await billed('profile')).toBe(6);
  });

  it('bills lite 0.50 per DOT, separately from profile', async () => {
    await get('/v2/profile-lite?dot_number=568253');
    await get('/v2/profile-lite?dot_number=568253');
    expect(await billed('profile_lite')).toBe(0.5);
    expect(await billed('profile')).toBeUndefined();
  });

  it('does not bill empty results or 400s', async () => {
    await get('/v2/profile?dot_number=99999998');
    await get('/v2/profile?dot_number=bad');
    expect(await ledgerLines()).toEqual([]);
  });

  it('bills fmcsa 0.10 per matched lookup and nothing for a 404', async () => {
    await get('/v2/profile-fmcsa?dot_number=568253');
    await get('/v2/profile-fmcsa?dot_number=568253');
    await get('/v2/profile-fmcsa?dot_number=99999998');
    expect(await billed('profile_fmcsa')).toBeCloseTo(0.2, 10);
  });

  it('bills autocomplete 0.003 per query, per key', async () => {
    await get('/v2/autocomplete?q=ha');
    await get('/v2/autocomplete?q=hansen');
    expect(await billed('autocomplete')).toBe(0.006);
    expect(await ledgerLines(OTHER_KEY)).toEqual([]);
  });

  it('bills a later month again after the clock moves', async () => {
    await get('/v2/profile?dot_number=568253');
    await sandbox.call('/__sandbox/advance', { method: 'POST', body: { days: 40 } });
    await get('/v2/profile?dot_number=568253');
    const months = ((await sandbox.call('/__sandbox/ledger')).json as LedgerBody).keys[0]?.months;
    expect(months?.map((m) => m.lines[0]?.amount_usd)).toEqual([3, 3]);
  });
});

describe('test-only endpoints', () => {
  it('advance moves the clock and returns the applied events; reset puts it back', async () => {
    const before = (await sandbox.call('/__sandbox/clock')).json as { now: string };
    const advanced = await sandbox.call('/__sandbox/advance', {
      method: 'POST',
      body: { days: 3 },
    });
    expect(advanced.status).toBe(200);
    const body = advanced.json as { now: string; offset_days: number; events: unknown[] };
    expect(Array.isArray(body.events)).toBe(true);
    expect(Date.parse(body.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(3 * 86_400_000);
    const reset = await sandbox.call('/__sandbox/reset', { method: 'POST' });
    expect((reset.json as { offset_days: number }).offset_days).toBe(0);
  });

  it.each([{}, { days: 0 }, { days: 1.5 }, { days: '3' }, { days: 100_000 }])(
    'advance rejects %j',
    async (body) => {
      expectError(
        await sandbox.call('/__sandbox/advance', { method: 'POST', body }),
        400,
        'invalid_days',
      );
    },
  );

  it('lists, adds and deletes fault rules', async () => {
    const rule = { path: '/api/v2/profile', status: 503, count: 2 };
    const added = await sandbox.call('/__sandbox/faults', {
      method: 'POST',
      body: { rules: [rule] },
    });
    expect(added.json).toEqual({ rules: [{ ...rule, path: '/v2/profile' }] });
    expect((await sandbox.call('/__sandbox/faults')).json).toEqual(added.json);
    expect((await sandbox.call('/__sandbox/faults', { method: 'DELETE' })).json).toEqual({
      rules: [],
    });
    expect((await get('/v2/profile?dot_number=568253')).status).toBe(200);
  });
});

describe('HTTP errors', () => {
  it('unknown routes answer 404 JSON, with or without a key', async () => {
    expectError(await get('/v2/nothing-here'), 404, 'not_found');
    expectError(await request(`${sandbox.url}/v3/profile`), 404, 'not_found');
  });

  it('a wrong method answers 405 with Allow', async () => {
    const result = await sandbox.call('/v2/profile?dot_number=1', { method: 'POST', body: {} });
    expectError(result, 405, 'method_not_allowed');
    expect(result.headers.get('allow')).toMatch(/GET/);
    expectError(
      await sandbox.call('/__sandbox/reset', { method: 'GET' }),
      405,
      'method_not_allowed',
    );
  });

  it('HEAD is not served (so it can never bill)', async () => {
    const result = await sandbox.call('/v2/profile?dot_number=568253', { method: 'HEAD' });
    expect(result.status).toBe(405);
  });

  it('malformed JSON answers 400 invalid_json', async () => {
    const result = await sandbox.call('/__sandbox/advance', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      rawBody: '{"days": ',
    });
    expectError(result, 400, 'invalid_json');
  });

  it('bodies over 1 MiB answer 413', async () => {
    const result = await sandbox.call('/__sandbox/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      rawBody: JSON.stringify({ rules: [], pad: 'x'.repeat(1_100_000) }),
    });
    expectError(result, 413, 'payload_too_large');
  });

  it('an unsupported content type answers 415', async () => {
    const result = await sandbox.call('/__sandbox/advance', {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      rawBody: '<days>1</days>',
    });
    expectError(result, 415, 'unsupported_media_type');
  });

  it('ignores a trailing slash', async () => {
    expect(itemsOf(await get('/v2/profile/?dot_number=568253'))).toHaveLength(1);
  });
});

describe('persistence', () => {
  it('keeps the ledger and clock across a restart on the same data dir', async () => {
    const first = await startSandbox();
    await first.call('/__sandbox/advance', { method: 'POST', body: { days: 2 } });
    await first.call('/v2/profile?dot_number=568253');
    const ledger = (await first.call('/__sandbox/ledger')).json;
    await first.stop();
    const second = await startSandbox({ dataDir: first.dataDir });
    try {
      expect((await second.call('/__sandbox/ledger')).json).toEqual(ledger);
      expect((await second.call('/__sandbox/clock')).json).toMatchObject({ offset_days: 2 });
      await second.call('/v2/profile?dot_number=568253');
      expect((await second.call('/__sandbox/ledger')).json).toMatchObject({
        keys: [{ months: [{ total_usd: 3 }] }],
      });
    } finally {
      await second.close();
    }
  });
});
