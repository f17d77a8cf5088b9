import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Endpoint, ServiceMode } from '../context.ts';
import { openProxyDb } from '../db.ts';
import { createSpendLedger, ROLLOVER_USER } from './spend.ts';
import { makeTempDir } from './test-helpers.ts';

let dir: string;
let db: Database.Database;

beforeEach(() => {
  dir = makeTempDir();
  db = openProxyDb(join(dir, 'proxy.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const MAY = new Date('2026-05-10T12:00:00Z');
const MAY_LATER = new Date('2026-05-20T08:00:00Z');
const JUNE = new Date('2026-06-02T09:00:00Z');

function meter(mode: ServiceMode = 'live', monthlyBudgetUsd?: number) {
  return createSpendLedger(db, { mode, monthlyBudgetUsd });
}

type Meter = ReturnType<typeof meter>;

function served(m: Meter, endpoint: Endpoint, dots: string[], at: Date, cacheHit = false) {
  m.record({ endpoint, dots, at, user: 'alice', cacheHit });
}

const idsFor = (count: number, from = 1000) =>
  Array.from({ length: count }, (_, i) => `${from + i}-MC${from + i}`);

describe('pricing with unique-DOT-per-month semantics', () => {
  it('bills a profile DOT once a month and again in the next month', () => {
    const m = meter();
    expect(m.check({ endpoint: 'profile', dots: ['568253'], at: MAY }).costUsd).toBe(3);
    served(m, 'profile', ['568253'], MAY);
    expect(m.check({ endpoint: 'profile', dots: ['568253'], at: MAY_LATER }).costUsd).toBe(0);
    expect(m.check({ endpoint: 'profile', dots: ['0568253'], at: MAY_LATER }).costUsd).toBe(0);
    served(m, 'profile', ['568253'], MAY_LATER);
    expect(m.usage(MAY_LATER).spentUsd).toBe(3);
    expect(m.check({ endpoint: 'profile', dots: ['568253'], at: JUNE }).costUsd).toBe(3);
  });

  it('prices lite separately from profile, FMCSA per match, autocomplete per query', () => {
    const m = meter();
    served(m, 'profile', ['1'], MAY);
    expect(m.check({ endpoint: 'profile-lite', dots: ['1'], at: MAY }).costUsd).toBe(0.5);
    served(m, 'profile-fmcsa', ['1'], MAY);
    served(m, 'profile-fmcsa', ['1'], MAY);
    served(m, 'profile-fmcsa', [], MAY); // a 404: no DOT matched
    for (let i = 0; i < 1000; i += 1) served(m, 'autocomplete', [], MAY);
    const usage = m.usage(MAY);
    const usd = Object.fromEntries(usage.byCategory.map((line) => [line.category, line.usd]));
    expect(usd).toEqual({
      profile: 3,
      'profile-lite': 0,
      'profile-fmcsa': 0.2,
      autocomplete: 3,
      monitoring: 0,
    });
    expect(usage.spentUsd).toBe(6.2);
  });

  it('quotes a call whose DOTs are unknown before the response as one new DOT', () => {
    const m = meter();
    expect(m.check({ endpoint: 'profile', dots: [], at: MAY }).costUsd).toBe(3);
    expect(m.check({ endpoint: 'profile-fmcsa', dots: [], at: MAY }).costUsd).toBe(0.1);
    served(m, 'profile', ['11', '12', '13'], MAY); // a company search that served three carriers
    expect(m.usage(MAY).spentUsd).toBe(9);
    served(m, 'profile', [], MAY); // empty items: nothing served, nothing billed
    expect(m.usage(MAY).spentUsd).toBe(9);
  });

  it('records cache hits as free without making the DOT billed', () => {
    const m = meter();
    served(m, 'profile', ['77'], MAY, true);
    const line = m.usage(MAY).byCategory.find((entry) => entry.category === 'profile');
    expect(line).toMatchObject({ calls: 1, cacheHits: 1, billedUnits: 0, usd: 0 });
    expect(m.check({ endpoint: 'profile', dots: ['77'], at: MAY }).costUsd).toBe(3);
  });

  it('keeps each mode to its own ledger (sandbox calls never make live ones free)', () => {
    served(meter('sandbox'), 'profile', ['5'], MAY);
    expect(meter('sandbox').usage(MAY).spentUsd).toBe(3);
    expect(meter('live').check({ endpoint: 'profile', dots: ['5'], at: MAY }).costUsd).toBe(3);
    expect(meter('live').usage(MAY).spentUsd).toBe(0);
  });
});

describe('monitoring', () => {
  it('bills each DOT once a month, re-add free, removal without refund', () => {
    const m = meter();
    served(m, 'monitoring/add', ['1', '2'], MAY);
    served(m, 'monitoring/add', ['1', '2', '3'], MAY_LATER);
    served(m, 'monitoring/remove', ['1'], MAY_LATER);
    expect(m.usage(MAY_LATER).spentUsd).toBe(1.5);
    expect(m.check({ endpoint: 'monitoring/add', dots: ['1'], at: MAY_LATER }).costUsd).toBe(0);
  });

  it('carries still-watched DOTs into the next month, but not removed ones', () => {
    const m = meter();
    served(m, 'monitoring/add', ['1', '2', '3'], MAY);
    served(m, 'monitoring/remove', ['3'], MAY_LATER);
    const june = m.usage(JUNE);
    expect(june.spentUsd).toBe(1);
    expect(june.byDay).toEqual([{ day: '2026-06-01', calls: 1, usd: 1 }]);
    expect(m.check({ endpoint: 'monitoring/add', dots: ['1', '2'], at: JUNE }).costUsd).toBe(0);
    expect(m.check({ endpoint: 'monitoring/add', dots: ['3'], at: JUNE }).costUsd).toBe(0.5);
    const rollover = db
      .prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM spend_ledger WHERE user = ?')
      .get(ROLLOVER_USER);
    expect(rollover?.n).toBe(2);
  });
});

describe('estimate', () => {
  it('prices 37 profile ids of which 30 are new this month at 15.00 USD for monitoring', () => {
    const m = meter();
    const ids = idsFor(37);
    served(
      m,
      'monitoring/add',
      ids.slice(0, 7).map((id) => id.split('-')[0] ?? ''),
      MAY,
    );
    const dots = ids.map((id) => id.split('-')[0] ?? '');
    const estimate = m.estimate('monitoring/add', { dots }, MAY_LATER);
    expect(estimate).toMatchObject({
      units: 37,
      billableUnits: 30,
      costUsd: 15,
      unitPriceUsd: 0.5,
      spentUsd: 3.5,
    });
  });

  it('prices autocomplete by count and free endpoints at zero', () => {
    const m = meter();
    expect(m.estimate('autocomplete', { count: 2000 }, MAY).costUsd).toBe(6);
    expect(m.estimate('monitoring/remove', { dots: ['1'] }, MAY).costUsd).toBe(0);
  });
});

describe('budget', () => {
  it('refuses a call that would cross the monthly budget, allows free ones', () => {
    const m = meter('live', 5);
    served(m, 'profile', ['1'], MAY);
    expect(m.check({ endpoint: 'profile-lite', dots: ['2'], at: MAY })).toEqual({
      ok: true,
      costUsd: 0.5,
    });
    expect(m.check({ endpoint: 'profile', dots: ['2'], at: MAY })).toEqual({
      ok: false,
      costUsd: 3,
      spentUsd: 3,
      budgetUsd: 5,
    });
    expect(m.check({ endpoint: 'profile', dots: ['1'], at: MAY }).ok).toBe(true);
    expect(m.check({ endpoint: 'profile', dots: ['2'], at: JUNE }).ok).toBe(true);
    expect(m.estimate('profile', { dots: ['2', '3'] }, MAY).withinBudget).toBe(false);
  });

  it('reports the remaining budget in usage, by day', () => {
    const m = meter('live', 10);
    served(m, 'profile', ['1'], MAY);
    served(m, 'profile-lite', ['1'], MAY_LATER);
    const usage = m.usage(MAY_LATER);
    expect(usage).toMatchObject({
      month: '2026-05',
      spentUsd: 3.5,
      budgetUsd: 10,
      remainingUsd: 6.5,
    });
    expect(usage.byDay).toEqual([
      { day: '2026-05-10', calls: 1, usd: 3 },
      { day: '2026-05-20', calls: 1, usd: 0.5 },
    ]);
  });

  it('breaks the month down by endpoint and by user, most spent first', () => {
    const m = meter('live');
    m.record({ endpoint: 'profile', dots: ['1', '2'], at: MAY, user: 'bob', cacheHit: false });
    m.record({ endpoint: 'profile', dots: ['1'], at: MAY, user: 'alice', cacheHit: true });
    m.record({ endpoint: 'monitoring/add', dots: ['1'], at: MAY, user: 'alice', cacheHit: false });
    m.record({
      endpoint: 'monitoring/remove',
      dots: ['1'],
      at: MAY,
      user: 'alice',
      cacheHit: false,
    });
    m.record({ endpoint: 'profile', dots: ['3'], at: JUNE, user: 'carol', cacheHit: false });
    const usage = m.usage(MAY_LATER);
    expect(usage.byEndpoint.map((line) => line.endpoint)).toEqual([
      'profile',
      'profile-lite',
      'profile-fmcsa',
      'autocomplete',
      'monitoring/add',
      'monitoring/remove',
      'monitoring/list',
    ]);
    expect(usage.byEndpoint[0]).toEqual({
      endpoint: 'profile',
      calls: 2,
      cacheHits: 1,
      billedUnits: 2,
      usd: 6,
    });
    expect(usage.byEndpoint.find((line) => line.endpoint === 'monitoring/add')?.usd).toBe(0.5);
    expect(usage.byEndpoint.find((line) => line.endpoint === 'monitoring/remove')).toMatchObject({
      calls: 1,
      usd: 0,
    });
    expect(usage.byEndpoint.find((line) => line.endpoint === 'profile-lite')?.calls).toBe(0);
    // June's call is another month; carol has nothing in May.
    expect(usage.byUser).toEqual([
      { user: 'bob', calls: 1, usd: 6 },
      { user: 'alice', calls: 3, usd: 0.5 },
    ]);
    const total = usage.byEndpoint.reduce((sum, line) => sum + line.usd, 0);
    expect(total).toBe(usage.spentUsd);
  });
});

describe('reservations: intent before the call, settled after', () => {
  const states = () =>
    db
      .prepare<[], { dot: string | null; state: string; price_mills: number }>(
        'SELECT dot, state, price_mills FROM spend_ledger ORDER BY id',
      )
      .all();
  const reserve = (m: Meter, endpoint: Endpoint, dots: string[], maxUnits?: number) => {
    const decision = m.reserve({ endpoint, dots, at: MAY, user: 'alice', maxUnits });
    if (!decision.ok) throw new Error(`refused: ${JSON.stringify(decision)}`);
    return decision.reservation;
  };

  it('writes pending rows at the quote, counted as spent, and settles them to what was served', () => {
    const m = meter('live', 100);
    const reservation = reserve(m, 'profile', [], 3);
    expect(states()).toEqual([{ dot: null, state: 'pending', price_mills: 9000 }]);
    expect(m.usage(MAY)).toMatchObject({ spentUsd: 9, reservedUsd: 9, uncertainUsd: 0 });
    m.settle(reservation, { endpoint: 'profile', dots: ['7', '8'], at: MAY, user: 'alice' });
    expect(states()).toEqual([
      { dot: '7', state: 'settled', price_mills: 3000 },
      { dot: '8', state: 'settled', price_mills: 3000 },
    ]);
    expect(m.usage(MAY)).toMatchObject({ spentUsd: 6, reservedUsd: 0 });
  });

  it('refuses a reservation that could cross the budget, counting other reservations', () => {
    const m = meter('live', 10);
    for (const dot of ['1', '2', '3']) reserve(m, 'profile', [dot]);
    expect(m.reserve({ endpoint: 'profile', dots: ['4'], at: MAY, user: 'bo' })).toEqual({
      ok: false,
      costUsd: 3,
      spentUsd: 9,
      budgetUsd: 10,
    });
    expect(states()).toHaveLength(3);
  });

  it('releases a call that never reached the service, keeps one that may have as uncertain', () => {
    const m = meter();
    const released = reserve(m, 'profile', ['1']);
    const kept = reserve(m, 'monitoring/add', ['2', '3']);
    m.release(released);
    m.markUncertain(kept);
    expect(states()).toEqual([
      { dot: '2', state: 'uncertain', price_mills: 500 },
      { dot: '3', state: 'uncertain', price_mills: 500 },
    ]);
    // an uncertain DOT counts as billed: re-adding it this month is free
    expect(m.check({ endpoint: 'monitoring/add', dots: ['2'], at: MAY_LATER }).costUsd).toBe(0);
    expect(m.usage(MAY)).toMatchObject({ spentUsd: 1, uncertainUsd: 1 });
  });

  it('makes rows left pending by a crash uncertain at the next start, still counted', () => {
    reserve(meter(), 'profile', ['5']);
    const restarted = meter();
    expect(states()).toEqual([{ dot: '5', state: 'uncertain', price_mills: 3000 }]);
    expect(restarted.usage(MAY).spentUsd).toBe(3);
  });

  it('reserves the same new DOT for two calls in flight, and bills it once when both settle', () => {
    const m = meter();
    const first = reserve(m, 'profile', ['9']);
    const second = reserve(m, 'profile', ['9']);
    expect(m.usage(MAY).reservedUsd).toBe(6);
    m.settle(first, { endpoint: 'profile', dots: ['9'], at: MAY, user: 'alice' });
    m.settle(second, { endpoint: 'profile', dots: ['9'], at: MAY, user: 'alice' });
    expect(m.usage(MAY)).toMatchObject({ spentUsd: 3, reservedUsd: 0 });
  });

  it('writes no intent for a free call, so it needs no write before it is sent', () => {
    const m = meter();
    served(m, 'profile', ['1'], MAY);
    db.pragma('query_only = ON');
    const decision = m.reserve({ endpoint: 'profile', dots: ['1'], at: MAY_LATER, user: 'a' });
    expect(decision).toMatchObject({ ok: true, reservation: { costUsd: 0 } });
    expect(() => m.reserve({ endpoint: 'profile', dots: ['2'], at: MAY, user: 'a' })).toThrow(
      expect.objectContaining({ status: 503, code: 'storage_unavailable' }),
    );
    db.pragma('query_only = OFF');
  });

  it('keeps a settlement the database refuses and writes it later, never throwing', async () => {
    const m = meter();
    const reservation = reserve(m, 'profile', ['4']);
    db.pragma('query_only = ON');
    expect(() =>
      m.settle(reservation, { endpoint: 'profile', dots: ['4'], at: MAY, user: 'alice' }),
    ).not.toThrow();
    expect(states()).toEqual([{ dot: '4', state: 'pending', price_mills: 3000 }]);
    db.pragma('query_only = OFF');
    await vi.waitFor(
      () => expect(states()).toEqual([{ dot: '4', state: 'settled', price_mills: 3000 }]),
      { timeout: 3000 },
    );
  });
});
