/**
 * The spend ledger on both engines: SQLite (the proxy's file) and PostgreSQL (migration 5), with
 * the same SQL; then what only one engine shows: two ledgers sharing one database (replicas)
 * never cross the budget together nor bill a DOT twice, and a database that refuses writes.
 * PostgreSQL's half is skipped, with the reason printed, only where it is not installed.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Endpoint, ServiceMode } from '../context.ts';
import { openProxyDb } from '../db.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { createPostgresEngine } from '../sql/postgres.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { forEachEngine } from '../sql/engines.test-support.ts';
import { createSpendLedger, ROLLOVER_USER, type SpendLedger } from './spend.ts';
import { makeTempDir } from './helpers.test-support.ts';

const MAY = new Date('2026-05-10T12:00:00Z');
const MAY_LATER = new Date('2026-05-20T08:00:00Z');
const JUNE = new Date('2026-06-02T09:00:00Z');

type Meter = SpendLedger;

async function served(m: Meter, endpoint: Endpoint, dots: string[], at: Date, cacheHit = false) {
  await m.record({ endpoint, dots, at, user: 'alice', cacheHit });
}

const idsFor = (count: number, from = 1000) =>
  Array.from({ length: count }, (_, i) => `${from + i}-MC${from + i}`);

interface StateRow {
  dot: string | null;
  state: string;
  price_mills: number;
}

async function statesOf(sql: SqlEngine): Promise<StateRow[]> {
  const rows = await sql.query<StateRow>(
    'SELECT dot, state, price_mills FROM spend_ledger ORDER BY id',
  );
  return rows.map((line) => ({ ...line, price_mills: Number(line.price_mills) }));
}

const reserveOn = async (m: Meter, endpoint: Endpoint, dots: string[], maxUnits?: number) => {
  const decision = await m.reserve({ endpoint, dots, at: MAY, user: 'alice', maxUnits });
  if (!decision.ok) throw new Error(`refused: ${JSON.stringify(decision)}`);
  return decision.reservation;
};

forEachEngine('spend ledger', (engine) => {
  let sql: SqlEngine;

  beforeEach(() => {
    sql = engine.sql;
  });

  function meter(mode: ServiceMode = 'live', monthlyBudgetUsd?: number) {
    return createSpendLedger(sql, { mode, monthlyBudgetUsd });
  }

  /** Another replica's ledger: its own pool on the same PostgreSQL database; SQLite's one file. */
  function replica(mode: ServiceMode = 'live', monthlyBudgetUsd?: number) {
    const other = engine.name === 'postgres' ? engine.another() : sql;
    return createSpendLedger(other, { mode, monthlyBudgetUsd });
  }

  const states = () => statesOf(sql);
  const reserve = reserveOn;

  /** Open the pools' connections first, so the calls of a race really run side by side. */
  async function warm(...ledgers: Meter[]) {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ledgers[i % ledgers.length]?.check({ endpoint: 'profile', dots: ['1'], at: MAY }),
      ),
    );
  }

  describe('pricing with unique-DOT-per-month semantics', () => {
    it('bills a profile DOT once a month and again in the next month', async () => {
      const m = meter();
      expect((await m.check({ endpoint: 'profile', dots: ['568253'], at: MAY })).costUsd).toBe(3);
      await served(m, 'profile', ['568253'], MAY);
      expect(
        (await m.check({ endpoint: 'profile', dots: ['568253'], at: MAY_LATER })).costUsd,
      ).toBe(0);
      expect(
        (await m.check({ endpoint: 'profile', dots: ['0568253'], at: MAY_LATER })).costUsd,
      ).toBe(0);
      await served(m, 'profile', ['568253'], MAY_LATER);
      expect((await m.usage(MAY_LATER)).spentUsd).toBe(3);
      expect((await m.check({ endpoint: 'profile', dots: ['568253'], at: JUNE })).costUsd).toBe(3);
    });

    it('prices lite separately from profile, FMCSA per match, autocomplete per query', async () => {
      const m = meter();
      await served(m, 'profile', ['1'], MAY);
      expect((await m.check({ endpoint: 'profile-lite', dots: ['1'], at: MAY })).costUsd).toBe(0.5);
      await served(m, 'profile-fmcsa', ['1'], MAY);
      await served(m, 'profile-fmcsa', ['1'], MAY);
      await served(m, 'profile-fmcsa', [], MAY); // a 404: no DOT matched
      for (let i = 0; i < 1000; i += 1) await served(m, 'autocomplete', [], MAY);
      const usage = await m.usage(MAY);
      const usd = Object.fromEntries(usage.byCategory.map((line) => [line.category, line.usd]));
      expect(usd).toEqual({
        profile: 3,
        'profile-lite': 0,
        'profile-fmcsa': 0.2,
        autocomplete: 3,
        monitoring: 0,
      });
      expect(usage.spentUsd).toBe(6.2);
    }, 30_000);

    it('quotes a call whose DOTs are unknown before the response as one new DOT', async () => {
      const m = meter();
      expect((await m.check({ endpoint: 'profile', dots: [], at: MAY })).costUsd).toBe(3);
      expect((await m.check({ endpoint: 'profile-fmcsa', dots: [], at: MAY })).costUsd).toBe(0.1);
      await served(m, 'profile', ['11', '12', '13'], MAY); // a company search that served three carriers
      expect((await m.usage(MAY)).spentUsd).toBe(9);
      await served(m, 'profile', [], MAY); // empty items: nothing served, nothing billed
      expect((await m.usage(MAY)).spentUsd).toBe(9);
    });

    it('records cache hits as free without making the DOT billed', async () => {
      const m = meter();
      await served(m, 'profile', ['77'], MAY, true);
      const line = (await m.usage(MAY)).byCategory.find((entry) => entry.category === 'profile');
      expect(line).toMatchObject({ calls: 1, cacheHits: 1, billedUnits: 0, usd: 0 });
      expect((await m.check({ endpoint: 'profile', dots: ['77'], at: MAY })).costUsd).toBe(3);
    });

    it('keeps each mode to its own ledger (sandbox calls never make live ones free)', async () => {
      await served(meter('sandbox'), 'profile', ['5'], MAY);
      expect((await meter('sandbox').usage(MAY)).spentUsd).toBe(3);
      expect(
        (await meter('live').check({ endpoint: 'profile', dots: ['5'], at: MAY })).costUsd,
      ).toBe(3);
      expect((await meter('live').usage(MAY)).spentUsd).toBe(0);
    });
  });

  describe('monitoring', () => {
    it('bills each DOT once a month, re-add free, removal without refund', async () => {
      const m = meter();
      await served(m, 'monitoring/add', ['1', '2'], MAY);
      await served(m, 'monitoring/add', ['1', '2', '3'], MAY_LATER);
      await served(m, 'monitoring/remove', ['1'], MAY_LATER);
      expect((await m.usage(MAY_LATER)).spentUsd).toBe(1.5);
      expect(
        (await m.check({ endpoint: 'monitoring/add', dots: ['1'], at: MAY_LATER })).costUsd,
      ).toBe(0);
    });

    it('carries still-watched DOTs into the next month, but not removed ones', async () => {
      const m = meter();
      await served(m, 'monitoring/add', ['1', '2', '3'], MAY);
      await served(m, 'monitoring/remove', ['3'], MAY_LATER);
      const june = await m.usage(JUNE);
      expect(june.spentUsd).toBe(1);
      expect(june.byDay).toEqual([{ day: '2026-06-01', calls: 1, usd: 1 }]);
      expect(
        (await m.check({ endpoint: 'monitoring/add', dots: ['1', '2'], at: JUNE })).costUsd,
      ).toBe(0);
      expect((await m.check({ endpoint: 'monitoring/add', dots: ['3'], at: JUNE })).costUsd).toBe(
        0.5,
      );
      const [rollover] = await sql.query<{ n: unknown }>(
        'SELECT COUNT(*) AS n FROM spend_ledger WHERE "user" = ?',
        [ROLLOVER_USER],
      );
      expect(Number(rollover?.n)).toBe(2);
    });
  });

  describe('estimate', () => {
    it('prices 37 profile ids of which 30 are new this month at 15.00 USD for monitoring', async () => {
      const m = meter();
      const ids = idsFor(37);
      await served(
        m,
        'monitoring/add',
        ids.slice(0, 7).map((id) => id.split('-')[0] ?? ''),
        MAY,
      );
      const dots = ids.map((id) => id.split('-')[0] ?? '');
      const estimate = await m.estimate('monitoring/add', { dots }, MAY_LATER);
      expect(estimate).toMatchObject({
        units: 37,
        billableUnits: 30,
        costUsd: 15,
        unitPriceUsd: 0.5,
        spentUsd: 3.5,
      });
    });

    it('prices autocomplete by count and free endpoints at zero', async () => {
      const m = meter();
      expect((await m.estimate('autocomplete', { count: 2000 }, MAY)).costUsd).toBe(6);
      expect((await m.estimate('monitoring/remove', { dots: ['1'] }, MAY)).costUsd).toBe(0);
    });
  });

  describe('budget', () => {
    it('refuses a call that would cross the monthly budget, allows free ones', async () => {
      const m = meter('live', 5);
      await served(m, 'profile', ['1'], MAY);
      expect(await m.check({ endpoint: 'profile-lite', dots: ['2'], at: MAY })).toEqual({
        ok: true,
        costUsd: 0.5,
      });
      expect(await m.check({ endpoint: 'profile', dots: ['2'], at: MAY })).toEqual({
        ok: false,
        costUsd: 3,
        spentUsd: 3,
        budgetUsd: 5,
      });
      expect((await m.check({ endpoint: 'profile', dots: ['1'], at: MAY })).ok).toBe(true);
      expect((await m.check({ endpoint: 'profile', dots: ['2'], at: JUNE })).ok).toBe(true);
      expect((await m.estimate('profile', { dots: ['2', '3'] }, MAY)).withinBudget).toBe(false);
    });

    it('reports the remaining budget in usage, by day', async () => {
      const m = meter('live', 10);
      await served(m, 'profile', ['1'], MAY);
      await served(m, 'profile-lite', ['1'], MAY_LATER);
      const usage = await m.usage(MAY_LATER);
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

    it('breaks the month down by endpoint and by user, most spent first', async () => {
      const m = meter('live');
      await m.record({
        endpoint: 'profile',
        dots: ['1', '2'],
        at: MAY,
        user: 'bob',
        cacheHit: false,
      });
      await m.record({ endpoint: 'profile', dots: ['1'], at: MAY, user: 'alice', cacheHit: true });
      await m.record({
        endpoint: 'monitoring/add',
        dots: ['1'],
        at: MAY,
        user: 'alice',
        cacheHit: false,
      });
      await m.record({
        endpoint: 'monitoring/remove',
        dots: ['1'],
        at: MAY,
        user: 'alice',
        cacheHit: false,
      });
      await m.record({
        endpoint: 'profile',
        dots: ['3'],
        at: JUNE,
        user: 'carol',
        cacheHit: false,
      });
      const usage = await m.usage(MAY_LATER);
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
    it('writes pending rows at the quote, counted as spent, and settles them to what was served', async () => {
      const m = meter('live', 100);
      const reservation = await reserve(m, 'profile', [], 3);
      expect(await states()).toEqual([{ dot: null, state: 'pending', price_mills: 9000 }]);
      expect(await m.usage(MAY)).toMatchObject({ spentUsd: 9, reservedUsd: 9, uncertainUsd: 0 });
      await m.settle(reservation, {
        endpoint: 'profile',
        dots: ['7', '8'],
        at: MAY,
        user: 'alice',
      });
      expect(await states()).toEqual([
        { dot: '7', state: 'settled', price_mills: 3000 },
        { dot: '8', state: 'settled', price_mills: 3000 },
      ]);
      expect(await m.usage(MAY)).toMatchObject({ spentUsd: 6, reservedUsd: 0 });
    });

    it('refuses a reservation that could cross the budget, counting other reservations', async () => {
      const m = meter('live', 10);
      for (const dot of ['1', '2', '3']) await reserve(m, 'profile', [dot]);
      expect(await m.reserve({ endpoint: 'profile', dots: ['4'], at: MAY, user: 'bo' })).toEqual({
        ok: false,
        costUsd: 3,
        spentUsd: 9,
        budgetUsd: 10,
      });
      expect(await states()).toHaveLength(3);
    });

    it('releases a call that never reached the service, keeps one that may have as uncertain', async () => {
      const m = meter();
      const released = await reserve(m, 'profile', ['1']);
      const kept = await reserve(m, 'monitoring/add', ['2', '3']);
      await m.release(released);
      await m.markUncertain(kept);
      expect(await states()).toEqual([
        { dot: '2', state: 'uncertain', price_mills: 500 },
        { dot: '3', state: 'uncertain', price_mills: 500 },
      ]);
      // an uncertain DOT counts as billed: re-adding it this month is free
      expect(
        (await m.check({ endpoint: 'monitoring/add', dots: ['2'], at: MAY_LATER })).costUsd,
      ).toBe(0);
      expect(await m.usage(MAY)).toMatchObject({ spentUsd: 1, uncertainUsd: 1 });
    });

    it('makes rows left pending by a crash uncertain at the next start, still counted', async () => {
      await reserve(meter(), 'profile', ['5']);
      const restarted = meter();
      await vi.waitFor(async () =>
        expect(await states()).toEqual([{ dot: '5', state: 'uncertain', price_mills: 3000 }]),
      );
      expect((await restarted.usage(MAY)).spentUsd).toBe(3);
    });

    it('reserves the same new DOT for two calls in flight, and bills it once when both settle', async () => {
      const m = meter();
      const first = await reserve(m, 'profile', ['9']);
      const second = await reserve(m, 'profile', ['9']);
      expect((await m.usage(MAY)).reservedUsd).toBe(6);
      await m.settle(first, { endpoint: 'profile', dots: ['9'], at: MAY, user: 'alice' });
      await m.settle(second, { endpoint: 'profile', dots: ['9'], at: MAY, user: 'alice' });
      expect(await m.usage(MAY)).toMatchObject({ spentUsd: 3, reservedUsd: 0 });
    });
  });

  describe('replicas sharing the database', () => {
    it('lets two replicas racing for the last dollars of the budget through only as far as it goes', async () => {
      const first = meter('live', 10);
      const second = replica('live', 10);
      await warm(first, second);
      await first.record({ endpoint: 'profile', dots: ['1'], at: MAY, user: 'a', cacheHit: false });
      // 7 USD left: two more 3 USD DOTs at most, whoever asks
      const attempts = Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? first : second).reserve({
          endpoint: 'profile',
          dots: [String(100 + i)],
          at: MAY,
          user: i % 2 === 0 ? 'a' : 'b',
        }),
      );
      const decisions = await Promise.all(attempts);
      expect(decisions.filter((decision) => decision.ok)).toHaveLength(2);
      expect((await second.usage(MAY)).spentUsd).toBe(9);
      expect((await first.check({ endpoint: 'profile', dots: ['999'], at: MAY })).ok).toBe(false);
    });

    it('bills a DOT once a month whichever replica served it, and shows it on both', async () => {
      const first = meter();
      const second = replica();
      await warm(first, second);
      await Promise.all(
        [first, second, first, second].map((m, i) =>
          m.record({
            endpoint: 'profile',
            dots: ['568253'],
            at: MAY,
            user: `u${i}`,
            cacheHit: false,
          }),
        ),
      );
      expect((await first.usage(MAY)).spentUsd).toBe(3);
      expect((await second.usage(MAY)).spentUsd).toBe(3);
      expect((await second.check({ endpoint: 'profile', dots: ['568253'], at: MAY })).costUsd).toBe(
        0,
      );
    });

    it('carries watched DOTs into the next month once, however many replicas roll over', async () => {
      const first = meter();
      await first.record({
        endpoint: 'monitoring/add',
        dots: ['1', '2'],
        at: MAY,
        user: 'a',
        cacheHit: false,
      });
      const others = [replica(), replica(), replica()];
      const june = await Promise.all(others.map((m) => m.usage(JUNE)));
      expect(june.map((usage) => usage.spentUsd)).toEqual([1, 1, 1]);
      expect((await first.usage(JUNE)).spentUsd).toBe(1);
    });
  });
});

describe('spend ledger on a PostgreSQL that cannot be reached', () => {
  it('refuses a priced reservation with 503 storage_unavailable, and never rejects a settlement', async () => {
    // nothing listens on port 1: every connection is refused
    const down = createPostgresEngine('postgres://nobody@127.0.0.1:1/none');
    try {
      const m = createSpendLedger(down, { mode: 'live', monthlyBudgetUsd: 10 });
      await expect(
        m.reserve({ endpoint: 'profile', dots: ['7'], at: MAY, user: 'a' }),
      ).rejects.toMatchObject({ status: 503, code: 'storage_unavailable' });
      await expect(
        m.settle({ id: 'x', costUsd: 3 }, { endpoint: 'profile', dots: ['7'], at: MAY, user: 'a' }),
      ).resolves.toBeUndefined();
      await expect(
        m.record({ endpoint: 'profile', dots: ['7'], at: MAY, user: 'a', cacheHit: false }),
      ).resolves.toBeUndefined();
    } finally {
      await down.close();
    }
  });
});

describe('spend ledger on a SQLite file that refuses writes', () => {
  let dir: string;
  let db: Database.Database;
  let sql: SqlEngine;

  beforeEach(() => {
    dir = makeTempDir();
    db = openProxyDb(join(dir, 'proxy.sqlite'));
    sql = createSqliteEngine(db);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const meter = () => createSpendLedger(sql, { mode: 'live', db });
  const states = () => statesOf(sql);
  const reserve = reserveOn;

  it('writes no intent for a free call, so it needs no write before it is sent', async () => {
    const m = meter();
    await served(m, 'profile', ['1'], MAY);
    db.pragma('query_only = ON');
    const decision = await m.reserve({
      endpoint: 'profile',
      dots: ['1'],
      at: MAY_LATER,
      user: 'a',
    });
    expect(decision).toMatchObject({ ok: true, reservation: { costUsd: 0 } });
    await expect(
      m.reserve({ endpoint: 'profile', dots: ['2'], at: MAY, user: 'a' }),
    ).rejects.toMatchObject({ status: 503, code: 'storage_unavailable' });
    db.pragma('query_only = OFF');
  });

  it('keeps a settlement the database refuses and writes it later, never throwing', async () => {
    const m = meter();
    const reservation = await reserve(m, 'profile', ['4']);
    db.pragma('query_only = ON');
    await expect(
      m.settle(reservation, { endpoint: 'profile', dots: ['4'], at: MAY, user: 'alice' }),
    ).resolves.toBeUndefined();
    expect(await states()).toEqual([{ dot: '4', state: 'pending', price_mills: 3000 }]);
    db.pragma('query_only = OFF');
    await vi.waitFor(
      async () =>
        expect(await states()).toEqual([{ dot: '4', state: 'settled', price_mills: 3000 }]),
      { timeout: 3000 },
    );
  });
});
