import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseFaultRules } from '../faults.ts';
import type { LedgerSummary } from '../ledger.ts';
import { addDays, compactDay } from './dates.ts';
import { MonitoringStore } from './store.ts';
import { ADDED_STATUS, REMOVED_STATUS } from './routes.ts';
import {
  itemKeyOrder,
  KEY,
  populationIds,
  startMonitoringServer,
  type MonitoringServer,
} from './server.test-support.ts';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const EXAMPLE_ID = '568253-MC277621';
const UNWATCHED_ID = '2000001-MC200001';

let server: MonitoringServer;
beforeAll(async () => {
  server = await startMonitoringServer(NOW);
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.monitoring.reset();
  server.ledger.reset();
  server.clock.reset();
  server.setRealNow(NOW);
});

const add = (profile_ids: unknown, prefix = '/v2') =>
  server.call('POST', `${prefix}/monitoring/add`, { profile_ids });
const remove = (profile_ids: unknown) =>
  server.call('POST', '/v2/monitoring/remove', { profile_ids });

interface ListBody {
  total_count: number;
  items: Record<string, Record<string, unknown>[]>;
}
async function list(query = ''): Promise<ListBody> {
  const result = await server.call('GET', `/v2/monitoring/list${query ? `?${query}` : ''}`);
  expect(result.status, result.text).toBe(200);
  return result.json as ListBody;
}
/** The profile IDs of a list response in wire order. */
async function listed(query = ''): Promise<string[]> {
  const result = await server.call('GET', `/v2/monitoring/list${query ? `?${query}` : ''}`);
  expect(result.status, result.text).toBe(200);
  return itemKeyOrder(result.text);
}

function monitoringMonths(): Record<string, { billed_calls: number; amount_usd: number }> {
  const summary = server.ledger.summary(KEY) as LedgerSummary;
  const months: Record<string, { billed_calls: number; amount_usd: number }> = {};
  for (const month of summary.keys[0]?.months ?? []) {
    const line = month.lines.find((l) => l.kind === 'monitoring');
    if (line)
      months[month.month] = { billed_calls: line.billed_calls, amount_usd: line.amount_usd };
  }
  return months;
}

describe('POST add / remove', () => {
  it('adds, re-adds for free, removes without refund, on both deployments', async () => {
    const added = await add([UNWATCHED_ID]);
    expect(added).toMatchObject({ status: 200, json: { status: ADDED_STATUS, added: 1 } });
    expect(Object.keys((await list()).items)).toContain(UNWATCHED_ID);
    expect(monitoringMonths()).toEqual({ '2026-11': { billed_calls: 1, amount_usd: 0.5 } });

    const again = await add([UNWATCHED_ID, UNWATCHED_ID.toLowerCase()], '/api/v2');
    expect(again.json).toEqual({ status: ADDED_STATUS, added: 1 });
    expect(monitoringMonths()).toEqual({ '2026-11': { billed_calls: 1, amount_usd: 0.5 } });

    const removed = await remove([UNWATCHED_ID]);
    expect(removed.json).toEqual({ status: REMOVED_STATUS, removed: 1 });
    expect(Object.keys((await list()).items)).not.toContain(UNWATCHED_ID);
    expect(monitoringMonths()).toEqual({ '2026-11': { billed_calls: 1, amount_usd: 0.5 } });
    expect((await remove([UNWATCHED_ID])).json).toEqual({ status: REMOVED_STATUS, removed: 0 });

    await add([UNWATCHED_ID]);
    expect(monitoringMonths()['2026-11']?.amount_usd).toBe(0.5);
  });

  it('acknowledges a re-added profile and keeps its start of monitoring', async () => {
    await add([UNWATCHED_ID]);
    server.clock.advanceDays(3);
    await add([UNWATCHED_ID]);
    server.monitoring.advance(22);
    const records = (await list(`profile_id=${UNWATCHED_ID}`)).items[UNWATCHED_ID] ?? [];
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      expect(record.started_monitoring_at).toBe(NOW.getTime() / 1000);
      expect(record.last_acknowledged_at).toBe(addDays(NOW, 3).toISOString());
    }
  });

  it('bills still-watched carriers again when a month begins, but not removed ones', async () => {
    await add([UNWATCHED_ID, '1000001-MC100001']);
    await remove(['1000001-MC100001']);
    server.setRealNow(new Date('2027-01-03T09:00:00.000Z'));
    await list();
    expect(monitoringMonths()).toEqual({
      '2026-11': { billed_calls: 2, amount_usd: 1 },
      '2026-12': { billed_calls: 1, amount_usd: 0.5 },
      '2027-01': { billed_calls: 1, amount_usd: 0.5 },
    });
    await add([UNWATCHED_ID]);
    await list();
    expect(monitoringMonths()['2027-01']).toEqual({ billed_calls: 1, amount_usd: 0.5 });
  });

  it('bills the rollover on advance, driven by the sandbox clock', async () => {
    await add([UNWATCHED_ID]);
    server.clock.advanceDays(15);
    server.monitoring.advance(15);
    expect(monitoringMonths()['2026-12']).toEqual({ billed_calls: 1, amount_usd: 0.5 });
  });

  it('does not bill the complimentary seeded watchlist', async () => {
    server.setRealNow(new Date('2027-02-01T00:00:00.000Z'));
    await list();
    expect(monitoringMonths()).toEqual({});
  });

  it('answers 207 with the unknown IDs and commits the rest', async () => {
    const result = await add(['999999-MC000000', UNWATCHED_ID, '568253-MC1', '1000003-MC5']);
    expect(result.status).toBe(207);
    expect(result.json).toEqual({
      status: 'partial',
      added: 1,
      error: expect.stringContaining('3 profile ID(s)') as unknown,
      failed: [
        { profile_id: '999999-MC000000', error: 'Profile not found' },
        { profile_id: '568253-MC1', error: expect.stringContaining(EXAMPLE_ID) as unknown },
        { profile_id: '1000003-MC5', error: expect.stringContaining('is 1000003') as unknown },
      ],
    });
    expect(Object.keys((await list()).items)).toContain(UNWATCHED_ID);
  });

  it('accepts the bare DOT of a carrier without a docket, and not of one with a docket', async () => {
    await remove(['1000003']);
    expect((await add(['1000003'])).json).toEqual({ status: ADDED_STATUS, added: 1 });
    const refused = await add(['2000001']);
    expect(refused.status).toBe(207);
    expect(JSON.stringify(refused.json)).toContain(UNWATCHED_ID);
  });

  it.each([
    ['malformed JSON', '{"profile_ids": [', 'invalid_json'],
    ['a JSON array', '["568253-MC277621"]', 'invalid_body'],
    ['no profile_ids', '{}', 'missing_profile_ids'],
    ['profile_ids not an array', '{"profile_ids": "568253-MC277621"}', 'invalid_profile_ids'],
    ['an empty array', '{"profile_ids": []}', 'empty_profile_ids'],
    ['a number in the array', '{"profile_ids": [568253]}', 'invalid_profile_ids'],
    ['a malformed ID', '{"profile_ids": ["568253-MC277621", "MC277621"]}', 'invalid_profile_id'],
    ['an unknown field', '{"profile_ids": ["568253-MC277621"], "x": 1}', 'unknown_field'],
  ])('rejects %s with 400 and commits nothing', async (_name, body, code) => {
    for (const path of ['/v2/monitoring/add', '/v2/monitoring/remove']) {
      const result = await server.call('POST', path, undefined, body);
      expect(result.status).toBe(400);
      expect(result.json).toEqual({ error: expect.any(String), code, hint: expect.any(String) });
    }
    expect((await list()).total_count).toBe(6);
    expect(monitoringMonths()).toEqual({});
  });

  it('rejects a request without a body and one with too many IDs', async () => {
    const empty = await server.call('POST', '/v2/monitoring/add');
    expect(empty.status).toBe(400);
    expect((empty.json as { code: string }).code).toBe('missing_profile_ids');
    const many = await add(Array.from({ length: 10_001 }, () => EXAMPLE_ID));
    expect((many.json as { code: string }).code).toBe('too_many_profile_ids');
  });
});

describe('chunked commits and fault-injected 207', () => {
  let big: MonitoringServer;
  beforeAll(async () => {
    big = await startMonitoringServer(NOW, 700);
  });
  afterAll(async () => {
    await big.close();
  });

  it('fails the last chunk of a request under a 207 rule, rolls it back, and accepts the retry', async () => {
    const ids = populationIds(250);
    big.faults.add(parseFaultRules({ rules: [{ path: '/v2/monitoring/add', status: 207 }] }));
    const partial = await big.call('POST', '/api/v2/monitoring/add', { profile_ids: ids });
    expect(partial.status).toBe(207);
    const body = partial.json as { added: number; failed: { profile_id: string }[] };
    expect(body.added).toBe(200);
    expect(body.failed.map((f) => f.profile_id)).toEqual(ids.slice(200));
    const listed = await big.call('GET', '/v2/monitoring/list?pageSize=500');
    const keys = Object.keys((listed.json as ListBody).items);
    expect(keys).toEqual(expect.arrayContaining(ids.slice(0, 200)));
    expect(keys.some((key) => ids.slice(200).includes(key))).toBe(false);
    const billed = (big.ledger.summary(KEY) as LedgerSummary).keys[0]?.months[0]?.lines[0];
    expect(billed?.billed_calls).toBe(200);

    const retry = await big.call('POST', '/v2/monitoring/add', { profile_ids: ids.slice(200) });
    expect(retry.json).toEqual({ status: ADDED_STATUS, added: 50 });
  });

  it('clamps pageSize to 500 and pages through more than 500 profiles', async () => {
    await big.call('POST', '/v2/monitoring/add', { profile_ids: populationIds(700) });
    const first = (await big.call('GET', '/v2/monitoring/list?pageSize=1000')).json as ListBody;
    expect(first.total_count).toBe(706);
    expect(Object.keys(first.items)).toHaveLength(500);
    const second = (await big.call('GET', '/v2/monitoring/list?pageSize=1000&page=2'))
      .json as ListBody;
    expect(Object.keys(second.items)).toHaveLength(206);
    const all = new Set([...Object.keys(first.items), ...Object.keys(second.items)]);
    expect(all.size).toBe(706);
    const removed = await big.call('POST', '/v2/monitoring/remove', {
      profile_ids: populationIds(700),
    });
    expect(removed.json).toEqual({ status: REMOVED_STATUS, removed: 700 });
  });
});

const startedAt = (id: string) => new MonitoringStore(server.db).getWatch(id)?.started_at;

function newestDate(records: Record<string, unknown>[]): string | undefined {
  return records
    .map((r) => String(r.last_changed_date))
    .sort()
    .at(-1);
}

describe('GET list', () => {
  it('lists every watched profile, those without changes with an empty array', async () => {
    const body = await list();
    expect(body.total_count).toBe(6);
    expect(Object.keys(body.items)).toHaveLength(6);
    const empty = Object.entries(body.items).filter(([, records]) => records.length === 0);
    expect(empty.map(([id]) => id)).toEqual(['1000005-MC100005']);
    const hidden = await list('view_changes=true');
    expect(hidden.total_count).toBe(5);
    expect(hidden.items['1000005-MC100005']).toBeUndefined();
    expect((await list('view_changes=0')).total_count).toBe(6);
  });

  it('writes change records with triples, numbers for numeric fields and the date fields', async () => {
    const records = (await list(`profile_id=${EXAMPLE_ID}`)).items[EXAMPLE_ID] ?? [];
    expect(records).toHaveLength(3);
    const insurance = records.find((r) => 'insurance_bipd_on_file_current' in r);
    expect(insurance).toMatchObject({
      insurance_bipd_on_file_current: 1_000_000,
      insurance_bipd_on_file_prior: 750_000,
      insurance_bipd_on_file_changed: true,
      last_changed_date: compactDay(addDays(NOW, -2)),
      started_monitoring_at: Math.floor(addDays(NOW, -120).getTime() / 1000),
      mcs150_date_current: '2025-08-20',
      safety_rating_date_current: '2019-06-12',
      last_crash_date_current: '2026-03-02',
    });
    expect(insurance).not.toHaveProperty('last_acknowledged_at');
    const acknowledged = (await list('profile_id=1000001-MC100001')).items['1000001-MC100001'];
    expect(acknowledged?.[0]?.last_acknowledged_at).toBe(addDays(NOW, -2).toISOString());
  });

  it('filters by each channel: only records touching it, only profiles having one', async () => {
    const all = await list();
    for (const channel of ['insurance', 'authority', 'safety', 'fleet', 'contact', 'risk']) {
      const filtered = await list(`view_changes_${channel}=true`);
      const expected = Object.entries(all.items).filter(([, records]) =>
        records.some((r) => CHANNEL_FIELDS[channel]?.some((f) => `${f}_changed` in r)),
      );
      expect(Object.keys(filtered.items).sort(), channel).toEqual(
        expected.map(([id]) => id).sort(),
      );
      expect(filtered.total_count).toBeGreaterThan(0);
      for (const records of Object.values(filtered.items)) {
        for (const record of records) {
          expect(CHANNEL_FIELDS[channel]?.some((f) => `${f}_changed` in record)).toBe(true);
        }
      }
    }
    const union = await list('view_changes_risk=1&view_changes_insurance=1');
    expect(union.total_count).toBe(
      new Set([
        ...Object.keys((await list('view_changes_risk=1')).items),
        ...Object.keys((await list('view_changes_insurance=1')).items),
      ]).size,
    );
  });

  it('bounds last_changed_date inclusively on both ends', async () => {
    const min = compactDay(addDays(NOW, -13));
    const max = compactDay(addDays(NOW, -5));
    const body = await list(`date_min=${min}&date_max=${max}`);
    const dates = Object.values(body.items)
      .flat()
      .map((r) => String(r.last_changed_date));
    expect(dates).toContain(min);
    expect(dates).toContain(max);
    expect(dates.every((d) => d >= min && d <= max)).toBe(true);
    const explicit = await list(`date_type=last_changed_date&date_min=${min}&date_max=${max}`);
    expect(explicit).toEqual(body);
    const oneDay = await list(`date_min=${max}&date_max=${max}`);
    expect(Object.keys(oneDay.items)).toEqual(['1000001-MC100001']);
  });

  it.each([
    ['started_monitoring_at', compactDay(addDays(NOW, -110)), ['1000001-MC100001']],
    ['last_acknowledged_at', compactDay(addDays(NOW, -2)), ['1000001-MC100001']],
    ['mcs150_date_current', '20240115', ['1000002-MX100002']],
    ['safety_rating_date_current', '20221130', ['1000004-FF100004']],
  ])('filters whole profiles by %s', async (dateType, day, expected) => {
    const body = await list(`date_type=${dateType}&date_min=${day}&date_max=${day}`);
    expect(Object.keys(body.items)).toEqual(expected);
    const after = await list(`date_type=${dateType}&date_min=${addOneDay(day)}`);
    expect(Object.keys(after.items)).not.toContain(expected[0]);
  });

  it('filters by last_crash_date_current and insurance_pending_cancel_date_current after events', async () => {
    expect(
      (await list('date_type=insurance_pending_cancel_date_current&date_min=20000101')).total_count,
    ).toBe(0);
    const events = server.monitoring.advance(22);
    const pending = events.filter((e) => e.field === 'insurance_pending_cancel_date');
    expect(pending.length).toBeGreaterThan(0);
    const day = String(pending[0]?.current).replaceAll('-', '');
    const body = await list(
      `date_type=insurance_pending_cancel_date_current&date_min=${day}&date_max=${day}`,
    );
    expect(Object.keys(body.items)).toContain(pending[0]?.profileId);
    const crashes = events.filter((e) => e.field === 'last_crash_date');
    const crashDay = String(crashes[0]?.current).replaceAll('-', '');
    const byCrash = await list(
      `date_type=last_crash_date_current&date_min=${crashDay}&date_max=${crashDay}`,
    );
    expect(Object.keys(byCrash.items)).toContain(crashes[0]?.profileId);
    expect(byCrash.total_count).toBeLessThan(6);
  });

  it.each([
    ['last_changed_date', (records: Record<string, unknown>[]) => newestDate(records)],
    ['started_monitoring_at', (_records: unknown, id: string) => startedAt(id)],
    ['profile_id', (_records: unknown, id: string) => id],
  ])('sorts by %s in both orders, profiles without a value last', async (sortBy, valueOf) => {
    for (const order of ['asc', 'desc'] as const) {
      const body = await list(`sortBy=${sortBy}&sortOrder=${order}`);
      const ids = await listed(`sortBy=${sortBy}&sortOrder=${order}`);
      const values = ids.map((id) => valueOf(body.items[id] ?? [], id));
      const present = values.filter((v) => v !== undefined) as (string | number)[];
      const sorted = [...present].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(present, `${sortBy} ${order}`).toEqual(order === 'asc' ? sorted : sorted.reverse());
      expect(values.slice(present.length).every((v) => v === undefined)).toBe(true);
      expect(new Set(present).size).toBeGreaterThan(1);
    }
  });

  it('defaults to last_changed_date descending', async () => {
    expect(await listed()).toEqual(await listed('sortBy=last_changed_date&sortOrder=desc'));
    const ids = await listed();
    expect(ids[0]).toBe(EXAMPLE_ID);
    expect(ids.at(-1)).toBe('1000005-MC100005');
  });

  it('sorts by the profile date fields', async () => {
    const asc = await listed('sortBy=mcs150_date_current&sortOrder=asc');
    expect(asc[0]).toBe('1000002-MX100002');
    const desc = await listed('sortBy=safety_rating_date_current');
    expect(desc[0]).toBe('1000004-FF100004');
    const acknowledged = await listed('sortBy=last_acknowledged_at&sortOrder=asc');
    expect(acknowledged[0]).toBe('1000001-MC100001');
  });

  it('pages with defaults of page 1 and 100', async () => {
    const all = await listed();
    const pages = await Promise.all([1, 2, 3, 4].map((page) => list(`pageSize=2&page=${page}`)));
    expect(pages.map((p) => p.total_count)).toEqual([6, 6, 6, 6]);
    const orders = await Promise.all([1, 2, 3, 4].map((page) => listed(`pageSize=2&page=${page}`)));
    expect(orders.flat()).toEqual(all);
    expect(orders[3]).toEqual([]);
    expect(await listed('page=1&pageSize=100')).toEqual(all);
  });

  it('restricts to one profile_id, normalising the docket prefix', async () => {
    const body = await list('profile_id=568253-mc277621');
    expect(Object.keys(body.items)).toEqual([EXAMPLE_ID]);
    expect(body.total_count).toBe(1);
    expect(await list(`profile_id=${UNWATCHED_ID}`)).toEqual({ total_count: 0, items: {} });
  });

  it('shows new records in every channel after advance', async () => {
    const before = (await list(`profile_id=${EXAMPLE_ID}`)).items[EXAMPLE_ID]?.length ?? 0;
    server.monitoring.advance(22);
    const after = (await list(`profile_id=${EXAMPLE_ID}`)).items[EXAMPLE_ID] ?? [];
    expect(after.length).toBe(before + 11);
    const since = compactDay(addDays(NOW, 1));
    for (const channel of Object.keys(CHANNEL_FIELDS)) {
      const body = await list(
        `view_changes_${channel}=true&date_min=${since}&profile_id=${EXAMPLE_ID}`,
      );
      expect(body.items[EXAMPLE_ID]?.length, channel).toBeGreaterThan(0);
    }
  });

  it.each([
    ['colour=red', 'unknown_parameter'],
    ['view_changes=yes', 'invalid_boolean'],
    ['view_changes_fleet=', 'invalid_boolean'],
    ['date_type=added_date', 'invalid_date_type'],
    ['date_min=20260230', 'invalid_date'],
    ['date_max=2026-01-01', 'invalid_date'],
    ['date_min=20260201&date_max=20260131', 'invalid_date_range'],
    ['sortBy=legal_name', 'invalid_sort_by'],
    ['sortOrder=up', 'invalid_sort_order'],
    ['page=0', 'invalid_page'],
    ['pageSize=-1', 'invalid_page_size'],
    ['pageSize=abc', 'invalid_page_size'],
    ['profile_id=568253_MC277621', 'invalid_profile_id'],
    ['page=1&page=2', 'duplicate_parameter'],
  ])('rejects %s with %s', async (query, code) => {
    const result = await server.call('GET', `/v2/monitoring/list?${query}`);
    expect(result.status).toBe(400);
    expect(result.json).toEqual({ error: expect.any(String), code, hint: expect.any(String) });
  });
});

const CHANNEL_FIELDS: Record<string, string[]> = {
  insurance: ['insurance_bipd_on_file', 'indicator_insurance', 'insurance_pending_cancel_date'],
  authority: ['authority_common', 'usdot_status', 'indicator_authority'],
  safety: ['safety_rating_desc', 'basic_alert_unsafe_driving', 'crashes_total'],
  fleet: ['total_power_units', 'mcs150_date'],
  contact: ['telephone_number', 'email_address', 'physical_address_street'],
  risk: ['risk_score', 'risk_score_probability'],
};

function addOneDay(day: string): string {
  return compactDay(
    addDays(new Date(`${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}T00:00:00Z`), 1),
  );
}
