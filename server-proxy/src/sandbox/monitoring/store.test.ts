import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MonitoringStore, type WatchRow } from './store.ts';

let dir: string;
let db: Database.Database;
let store: MonitoringStore;

function watch(profileId: string): WatchRow {
  return {
    profile_id: profileId,
    dot: profileId.split('-')[0] ?? profileId,
    started_at: 1_700_000_000,
    acknowledged_at: null,
    billed_key: null,
    billed_through: null,
  };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'monitoring-store-'));
  db = new Database(join(dir, 'store.sqlite'));
  store = new MonitoringStore(db);
  store.createTables();
  store.insertWatch(watch('568253-MC277621'));
  store.insertChange('568253-MC277621', '20261101', [{ field: 'phone', prior: '1', current: '2' }]);
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('MonitoringStore read copies', () => {
  it('answers repeated full reads from memory while nothing is written', () => {
    expect(store.changes()).toBe(store.changes());
    expect(store.watched()).toBe(store.watched());
    expect(store.changes()).toHaveLength(1);
  });

  it('reads the change records again after each kind of write', () => {
    const before = store.changes();
    store.insertChange('568253-MC277621', '20261105', [
      { field: 'email', prior: 'a', current: 'b' },
    ]);
    expect(store.changes().map((row) => row.changed_on)).toEqual(['20261105', '20261101']);
    expect(store.changes()).not.toBe(before);

    store.deleteWatch('568253-MC277621');
    expect(store.changes()).toEqual([]);
    expect(store.watched()).toEqual([]);
  });

  it('reads the watchlist again after an add, an acknowledgement and a billing update', () => {
    store.watched();
    store.insertWatch(watch('1000003'));
    expect(store.watched().map((row) => row.profile_id)).toEqual(['1000003', '568253-MC277621']);
    store.acknowledge('1000003', '2026-11-20T10:00:00.000Z', 'sk_test_a', '2026-11');
    expect(store.watched()[0]).toMatchObject({ acknowledged_at: '2026-11-20T10:00:00.000Z' });
    store.setBilledThrough('1000003', '2026-12');
    expect(store.watched()[0]).toMatchObject({ billed_through: '2026-12' });
  });

  it('starts empty after the tables are dropped and made again', () => {
    store.changes();
    store.watched();
    store.dropTables();
    store.createTables();
    expect(store.changes()).toEqual([]);
    expect(store.watched()).toEqual([]);
  });
});
