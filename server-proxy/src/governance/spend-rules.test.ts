/** The spend ledger's pricing and budget decisions, with no database (spend-rules.ts). */
import { describe, expect, it } from 'vitest';
import {
  ROLLOVER_USER,
  budgetVerdict,
  dotsToPrice,
  estimateReport,
  fitsBudget,
  intentRows,
  planDotsToPrice,
  planUnits,
  quoteMills,
  rolloverRows,
  servedRows,
  usageReport,
} from './spend-rules.ts';

const AT = new Date('2026-05-10T12:00:00Z');
const NONE = new Set<string>();
const ZERO = { spent: 0, pending: 0, uncertain: 0, endpoints: [], users: [], days: [] };
const call = (endpoint: Parameters<typeof quoteMills>[0]['endpoint'], dots: string[] = []) => ({
  endpoint,
  dots,
  at: AT,
  user: 'ann',
});
const priced = (rows: { dot: string | null; price_mills: number }[]) =>
  rows.map((row) => [row.dot, row.price_mills]);

describe('which DOTs decide a price', () => {
  it('reads only the DOTs of a per-DOT-month call not served from the cache, normalised once', () => {
    expect(dotsToPrice(call('profile', ['0568253', '568253', '2214589']))).toEqual([
      '568253',
      '2214589',
    ]);
    expect(dotsToPrice({ ...call('profile', ['568253']), cacheHit: true })).toEqual([]);
    expect(dotsToPrice(call('profile-fmcsa', ['568253']))).toEqual([]);
    expect(dotsToPrice(call('autocomplete', ['568253']))).toEqual([]);
    expect(planDotsToPrice('profile-lite', { dots: ['01', '1'] })).toEqual(['1']);
    expect(planDotsToPrice('autocomplete', { dots: ['1'], count: 3 })).toEqual([]);
  });
});

describe('quoting a call', () => {
  it('prices each kind as the service does', () => {
    expect(quoteMills(call('monitoring/list'), NONE)).toBe(0);
    expect(quoteMills(call('autocomplete'), NONE)).toBe(3);
    expect(quoteMills(call('profile-fmcsa'), NONE)).toBe(100);
    expect(quoteMills(call('profile-fmcsa', ['1', '01', '2']), NONE)).toBe(200);
    expect(quoteMills(call('profile', ['1', '2', '3']), NONE)).toBe(9000);
  });

  it('leaves out DOTs already billed this month', () => {
    expect(quoteMills(call('profile', ['1', '2', '3']), new Set(['2']))).toBe(6000);
    expect(quoteMills(call('profile', ['1']), new Set(['1']))).toBe(0);
  });

  it('quotes unknown DOTs at the page size, at least one', () => {
    expect(quoteMills({ ...call('profile-lite'), maxUnits: 25 }, NONE)).toBe(12_500);
    expect(quoteMills({ ...call('profile-lite'), maxUnits: 0 }, NONE)).toBe(500);
    expect(quoteMills({ ...call('profile-lite'), maxUnits: 2.9 }, NONE)).toBe(1000);
    expect(quoteMills(call('profile-lite'), NONE)).toBe(500);
  });
});

describe('the rows a call writes', () => {
  it('reserves nothing for a free call, the quote otherwise, as pending rows of the call', () => {
    expect(intentRows('test', call('monitoring/list', ['1']), 'c1', NONE)).toEqual([]);
    const rows = intentRows('test', call('profile', ['1', '2']), 'c1', new Set(['2']));
    expect(priced(rows)).toEqual([
      ['1', 3000],
      ['2', 0],
    ]);
    expect(rows[0]).toEqual({
      call_id: 'c1',
      at: AT.toISOString(),
      month: '2026-05',
      day: '2026-05-10',
      mode: 'test',
      endpoint: 'profile',
      dot: '1',
      user: 'ann',
      cache_hit: 0,
      price_mills: 3000,
      state: 'pending',
    });
    expect(priced(intentRows('test', { ...call('profile'), maxUnits: 3 }, 'c', NONE))).toEqual([
      [null, 9000],
    ]);
    expect(priced(intentRows('test', call('autocomplete', ['7', '8']), 'c', NONE))).toEqual([
      ['7', 3],
    ]);
    expect(priced(intentRows('test', call('profile-fmcsa', ['7', '8']), 'c', NONE))).toEqual([
      ['7', 100],
      ['8', 100],
    ]);
  });

  it('settles what the call served: cache hits and DOT-less answers free, new DOTs priced', () => {
    const hit = servedRows('live', { ...call('profile', ['1']), cacheHit: true }, 'c', NONE);
    expect(hit.map((row) => [row.dot, row.price_mills, row.cache_hit, row.state])).toEqual([
      ['1', 0, 1, 'settled'],
    ]);
    const served = (endpoint: Parameters<typeof call>[0], dots: string[], billed = NONE) =>
      priced(servedRows('live', { ...call(endpoint, dots), cacheHit: false }, 'c', billed));
    expect(served('profile', [])).toEqual([[null, 0]]);
    expect(served('profile', ['1', '2'], new Set(['1']))).toEqual([
      ['1', 0],
      ['2', 3000],
    ]);
    expect(served('monitoring/list', ['1'])).toEqual([['1', 0]]);
    expect(served('autocomplete', [])).toEqual([[null, 3]]);
    expect(served('profile-fmcsa', ['5'])).toEqual([['5', 100]]);
  });

  it('bills carried-over monitored DOTs once, at the first instant of the month', () => {
    const start = new Date('2026-06-01T00:00:00Z');
    const rows = rolloverRows('live', start, ['1', '2'], new Set(['2']), 'roll');
    expect(rows).toEqual([
      expect.objectContaining({
        call_id: 'roll',
        at: '2026-06-01T00:00:00.000Z',
        month: '2026-06',
        endpoint: 'monitoring/add',
        dot: '1',
        user: ROLLOVER_USER,
        price_mills: 500,
        state: 'settled',
      }),
    ]);
  });
});

describe('the budget', () => {
  it('lets a call through up to the budget, a free one always, and any without a budget', () => {
    expect(fitsBudget(undefined, 10_000, 5000)).toBe(true);
    expect(fitsBudget(10_000, 7000, 3000)).toBe(true);
    expect(fitsBudget(10_000, 7001, 3000)).toBe(false);
    expect(fitsBudget(10_000, 20_000, 0)).toBe(true);
  });

  it('answers a refusal with the cost, the spend and the budget in USD', () => {
    expect(budgetVerdict(10_000, 3000, 7500)).toEqual({
      ok: false,
      costUsd: 3,
      spentUsd: 7.5,
      budgetUsd: 10,
    });
    expect(budgetVerdict(10_000, 3000, 7000)).toEqual({ ok: true, costUsd: 3 });
  });
});

describe('estimates and usage', () => {
  it('counts a plan’s units and those billed now', () => {
    expect(planUnits('profile', { dots: ['1', '01', '2'] }, new Set(['2']))).toEqual({
      units: 2,
      billable: 1,
    });
    expect(planUnits('profile-fmcsa', { dots: [], count: 4 }, NONE)).toEqual({
      units: 4,
      billable: 4,
    });
    expect(planUnits('profile-fmcsa', { dots: ['1'], count: 4 }, NONE)).toEqual({
      units: 1,
      billable: 1,
    });
    expect(planUnits('monitoring/list', { count: 2 }, NONE)).toEqual({ units: 2, billable: 0 });
    const estimate = estimateReport('profile', AT, { units: 2, billable: 1 }, 8000, 10_000);
    expect(estimate).toMatchObject({ month: '2026-05', costUsd: 3, withinBudget: false });
  });

  it('reports every endpoint and category, monitoring folded into one', () => {
    const usage = usageReport(
      '2026-05',
      'test',
      {
        spent: 4000,
        pending: 500,
        uncertain: 0,
        endpoints: [
          { endpoint: 'monitoring/add', calls: 2, cache_hits: 0, billed_units: 2, mills: 1000 },
          { endpoint: 'monitoring/remove', calls: 1, cache_hits: 1, billed_units: 0, mills: 0 },
          { endpoint: 'profile', calls: 1, cache_hits: 0, billed_units: 1, mills: 3000 },
        ],
        users: [{ user: 'ann', calls: 4, mills: 4000 }],
        days: [{ day: '2026-05-10', calls: 4, mills: 4000 }],
      },
      5000,
    );
    expect(usage).toMatchObject({ spentUsd: 4, reservedUsd: 0.5, remainingUsd: 1, budgetUsd: 5 });
    expect(usage.byEndpoint.map((line) => line.endpoint)).toHaveLength(7);
    expect(usage.byCategory.find((line) => line.category === 'monitoring')).toEqual({
      category: 'monitoring',
      calls: 3,
      cacheHits: 1,
      billedUnits: 2,
      usd: 1,
    });
    expect(usage.byUser).toEqual([{ user: 'ann', calls: 4, usd: 4 }]);
    expect(usageReport('2026-05', 'test', ZERO, undefined)).toMatchObject({
      budgetUsd: null,
      remainingUsd: null,
    });
  });
});
