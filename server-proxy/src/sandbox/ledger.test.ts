import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from './clock.ts';
import { openSandboxDb } from './db.ts';
import { billingMonth, createLedger } from './ledger.ts';

const dirs: string[] = [];
function tempDb() {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-ledger-'));
  dirs.push(dir);
  return { dir, db: openSandboxDb(dir) };
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const NOV = new Date('2026-11-10T12:00:00Z');
const DEC = new Date('2026-12-01T00:00:00Z');

describe('ledger', () => {
  it('bills profile once per DOT, key and calendar month', () => {
    const { db } = tempDb();
    const ledger = createLedger(db);
    expect(ledger.charge('k1', 'profile', NOV, '1')).toBe(3);
    expect(ledger.charge('k1', 'profile', NOV, '1')).toBe(0);
    expect(ledger.charge('k1', 'profile', NOV, '2')).toBe(3);
    expect(ledger.charge('k2', 'profile', NOV, '1')).toBe(3);
    expect(ledger.charge('k1', 'profile', DEC, '1')).toBe(3);
    expect(ledger.charge('k1', 'profile_lite', NOV, '1')).toBe(0.5);
    expect(ledger.charge('k1', 'monitoring', NOV, '1')).toBe(0.5);
    db.close();
  });

  it('bills fmcsa and autocomplete per call', () => {
    const { db } = tempDb();
    const ledger = createLedger(db);
    expect(ledger.charge('k', 'profile_fmcsa', NOV, '1')).toBe(0.1);
    expect(ledger.charge('k', 'profile_fmcsa', NOV, '1')).toBe(0.1);
    for (let i = 0; i < 1000; i += 1) ledger.charge('k', 'autocomplete', NOV);
    const [month] = ledger.summary('k').keys[0]?.months ?? [];
    expect(month?.total_usd).toBe(3.2);
    expect(month?.lines.find((l) => l.kind === 'autocomplete')).toMatchObject({
      calls: 1000,
      billed_calls: 1000,
      amount_usd: 3,
    });
    db.close();
  });

  it('summarises per key with the key masked, and survives reopening the file', () => {
    const { dir, db } = tempDb();
    createLedger(db).charge('sk_test_0123456789abcdef', 'profile', NOV, '9');
    createLedger(db).charge('sk_test_0123456789abcdef', 'profile', NOV, '9');
    db.close();
    const reopened = openSandboxDb(dir);
    const summary = createLedger(reopened).summary();
    expect(summary.keys).toEqual([
      {
        key: 'sk_test_…cdef',
        months: [
          {
            month: '2026-11',
            total_usd: 3,
            lines: [{ kind: 'profile', calls: 2, billed_calls: 1, unique_dots: 1, amount_usd: 3 }],
          },
        ],
      },
    ]);
    reopened.close();
  });

  it('reset empties it', () => {
    const { db } = tempDb();
    const ledger = createLedger(db);
    ledger.charge('k', 'profile', NOV, '1');
    ledger.reset();
    expect(ledger.summary().keys).toEqual([]);
    expect(ledger.charge('k', 'profile', NOV, '1')).toBe(3);
    db.close();
  });

  it('uses UTC calendar months', () => {
    expect(billingMonth(new Date('2026-11-30T23:59:59Z'))).toBe('2026-11');
    expect(billingMonth(DEC)).toBe('2026-12');
  });
});

describe('clock', () => {
  it('moves forward by whole days, persists, and resets', () => {
    const { dir, db } = tempDb();
    const real = Date.parse('2026-11-10T00:00:00Z');
    const clock = createClock(db, () => real);
    expect(clock.now().toISOString()).toBe('2026-11-10T00:00:00.000Z');
    expect(clock.advanceDays(3).toISOString()).toBe('2026-11-13T00:00:00.000Z');
    db.close();
    const reopened = openSandboxDb(dir);
    const again = createClock(reopened, () => real);
    expect(again.offsetDays()).toBe(3);
    expect(() => again.advanceDays(-1)).toThrow(RangeError);
    again.reset();
    expect(again.now().getTime()).toBe(real);
    reopened.close();
  });
});
