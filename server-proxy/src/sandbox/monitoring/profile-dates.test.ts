import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CarrierDataset } from '../data/types.ts';
import { ProfileDatesCache } from './profile-dates.ts';
import { MonitoringStore } from './store.ts';
import { fixtureDataset } from './server.test-support.ts';

let dir: string;
let db: Database.Database;
let store: MonitoringStore;
let generated: string[];
let dataset: CarrierDataset;

/** The fixture carriers' dates: the example's, with their own overriding them. */
const DATES_1000002 = {
  mcs150_date: '2024-01-15',
  safety_rating_date: '2019-06-12',
  last_crash_date: '2026-03-02',
};
const DATES_1000004 = {
  mcs150_date: '2025-08-20',
  safety_rating_date: '2022-11-30',
  last_crash_date: '2026-03-02',
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'profile-dates-'));
  db = new Database(join(dir, 'store.sqlite'));
  store = new MonitoringStore(db);
  store.createTables();
  const fixtures = fixtureDataset();
  generated = [];
  dataset = {
    ...fixtures,
    getProfile: (dot) => {
      generated.push(dot);
      return fixtures.getProfile(dot);
    },
  };
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ProfileDatesCache', () => {
  it('reads the date fields of the generated profile once per carrier', () => {
    const dates = new ProfileDatesCache(dataset, store);
    expect(dates.current('1000002')).toEqual(DATES_1000002);
    expect(dates.current('1000002')).toEqual(DATES_1000002);
    expect(generated).toEqual(['1000002']);
    expect(dates.current('9999999')).toEqual({});
  });

  it('uses the profiles it was handed without generating them again', () => {
    const dates = new ProfileDatesCache(dataset, store);
    dates.remember('1000004', { dot_number: 1000004, safety_rating_date: '2022-11-30' });
    expect(dates.current('1000004')).toEqual({ safety_rating_date: '2022-11-30' });
    expect(generated).toEqual([]);
  });

  it('applies the overrides events wrote, including removals, as they are written', () => {
    const dates = new ProfileDatesCache(dataset, store);
    expect(dates.current('1000004')).toEqual(DATES_1000004);
    store.setOverride('1000004', 'last_crash_date', '2026-11-02');
    store.setOverride('1000004', 'total_power_units', '4');
    expect(dates.current('1000004')).toEqual({ ...DATES_1000004, last_crash_date: '2026-11-02' });
    store.setOverride('1000004', 'safety_rating_date', null);
    expect(dates.current('1000004')).toEqual({
      mcs150_date: '2025-08-20',
      last_crash_date: '2026-11-02',
    });
    expect(dates.current('1000002')).toEqual(DATES_1000002);
  });
});
