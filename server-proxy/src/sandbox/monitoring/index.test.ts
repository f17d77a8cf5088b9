import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANNELS, channelOfField } from '../../../../src/lib/service/channels.ts';
import type { AppliedEvent } from '../context.ts';
import { addDays, compactDay, isoDay } from './dates.ts';
import { EVENT_CYCLE_DAYS } from './script.ts';
import { EXAMPLE_DOT } from './seed.ts';
import { MonitoringStore } from './store.ts';
import {
  fixtureDataset,
  makeDataDir,
  openFixture,
  type MonitoringFixture,
} from './server.test-support.ts';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const EXAMPLE_ID = '568253-MC277621';

const open: MonitoringFixture[] = [];
function fixture(dataDir = makeDataDir(), now = NOW): MonitoringFixture {
  const opened = openFixture(dataDir, now);
  open.push(opened);
  return opened;
}

afterEach(() => {
  for (const opened of open.splice(0)) {
    if (opened.db.open) opened.closeDb();
    rmSync(opened.dataDir, { recursive: true, force: true });
  }
});

const storeOf = (f: MonitoringFixture) => new MonitoringStore(f.db);
const profileOf = (f: MonitoringFixture, dot: string) =>
  f.monitoring.applyOverrides(dot, fixtureDataset().getProfile(dot) ?? {});

describe('seeding', () => {
  it('watches the example carrier and five more curated carriers, with history in all six channels', () => {
    const store = storeOf(fixture());
    const watched = store.watched().map((row) => row.profile_id);
    expect(watched).toHaveLength(6);
    expect(watched).toContain(EXAMPLE_ID);
    expect(watched).toContain('1000003');
    const channels = new Set(
      store.changes().flatMap((row) => row.changes.map((c) => channelOfField(c.field))),
    );
    expect([...channels].sort()).toEqual([...CHANNELS].sort());
    const exampleChannels = new Set(
      store.changes(EXAMPLE_ID).flatMap((row) => row.changes.map((c) => channelOfField(c.field))),
    );
    expect(exampleChannels.size).toBe(6);
  });

  it('dates the history before now and ends it at the generated values', () => {
    const f = fixture();
    const store = storeOf(f);
    const today = compactDay(NOW);
    for (const row of store.changes()) {
      expect(row.changed_on < today).toBe(true);
      const dot = row.profile_id.split('-')[0] ?? '';
      const profile = profileOf(f, dot);
      for (const change of row.changes) {
        expect(change.current).toEqual(profile[change.field]);
        expect(change.prior).not.toEqual(change.current);
      }
    }
  });

  it('leaves one watched profile without changes and one acknowledged', () => {
    const store = storeOf(fixture());
    const withChanges = new Set(store.changes().map((row) => row.profile_id));
    expect(store.watched().filter((w) => !withChanges.has(w.profile_id))).toHaveLength(1);
    expect(store.watched().filter((w) => w.acknowledged_at !== null)).toHaveLength(1);
  });
});

function byField(events: AppliedEvent[], dot: string): Map<string, AppliedEvent> {
  const latest = new Map<string, AppliedEvent>();
  for (const event of events.filter((e) => e.dot === dot)) latest.set(event.field, event);
  return latest;
}

describe('advance', () => {
  it('gives every watched carrier with full data changes in all six channels within one cycle', () => {
    const f = fixture();
    const before = storeOf(f).changes(EXAMPLE_ID).length;
    const events = f.monitoring.advance(EVENT_CYCLE_DAYS);
    const exampleChannels = new Set(
      events.filter((e) => e.dot === EXAMPLE_DOT).map((e) => e.channel),
    );
    expect([...exampleChannels].sort()).toEqual([...CHANNELS].sort());
    const after = storeOf(f).changes(EXAMPLE_ID);
    expect(after.length).toBeGreaterThan(before);
    const recordedChannels = new Set(
      after
        .slice(0, after.length - before)
        .flatMap((row) => row.changes.map((c) => channelOfField(c.field))),
    );
    expect(recordedChannels.size).toBe(6);
  });

  it('moves the values applyOverrides returns to the last event of each field', () => {
    const f = fixture();
    const events = f.monitoring.advance(EVENT_CYCLE_DAYS * 2);
    const profile = profileOf(f, EXAMPLE_DOT);
    const latest = byField(events, EXAMPLE_DOT);
    expect(latest.size).toBeGreaterThan(10);
    for (const [field, event] of latest) {
      const served = profile[field];
      if (event.current === null) expect(served).toBeUndefined();
      else expect(String(served)).toBe(String(event.current));
    }
  });

  it('keeps insurance coherent: a cancellation adds a history item and clears indicator_insurance', () => {
    const f = fixture();
    const baseHistory = (fixtureDataset().getProfile(EXAMPLE_DOT)?.insurance_history as unknown[])
      .length;
    let events: AppliedEvent[] = [];
    for (let i = 0; i < 6 && !events.some((e) => e.field === 'insurance_cancel_count'); i += 1) {
      events = f.monitoring.advance(EVENT_CYCLE_DAYS).filter((e) => e.dot === EXAMPLE_DOT);
    }
    const cancel = events.find((e) => e.field === 'insurance_cancel_count');
    expect(cancel).toBeDefined();
    const profile = profileOf(f, EXAMPLE_DOT);
    const history = profile.insurance_history as Record<string, unknown>[];
    expect(history.length).toBeGreaterThan(baseHistory);
    expect(history[0]?.cancel_effective_date).toBe(cancel?.date);
    expect(profile.indicator_insurance).toBe(false);
    expect(profile.insurance_bipd_on_file).toBe('0');
    expect(profile.insurance_pending_cancel_date).toBeUndefined();
  });

  it('is deterministic: two fresh sandboxes at the same time apply the same events', () => {
    const first = fixture().monitoring.advance(30);
    const second = fixture().monitoring.advance(30);
    expect(first.length).toBeGreaterThan(0);
    expect(second).toEqual(first);
  });

  it('continues after the last applied day instead of repeating it', () => {
    const f = fixture();
    const first = f.monitoring.advance(5);
    f.clock.advanceDays(5);
    const second = f.monitoring.advance(5);
    const firstDays = new Set(first.map((e) => e.date));
    expect(second.every((e) => !firstDays.has(e.date))).toBe(true);
    expect(second.every((e) => e.date > isoDay(NOW))).toBe(true);
  });

  it('touches only watched carriers and returns nothing for zero days', () => {
    const f = fixture();
    expect(f.monitoring.advance(0)).toEqual([]);
    const events = f.monitoring.advance(EVENT_CYCLE_DAYS);
    const watched = new Set(
      storeOf(f)
        .watched()
        .map((w) => w.dot),
    );
    expect(events.every((e) => watched.has(e.dot))).toBe(true);
    expect(profileOf(f, '2000001')).toEqual(fixtureDataset().getProfile('2000001'));
  });

  it('skips events that do not apply (no insurance, authority or risk for the intrastate carrier)', () => {
    const events = fixture().monitoring.advance(EVENT_CYCLE_DAYS);
    const intrastate = new Set(events.filter((e) => e.dot === '1000003').map((e) => e.channel));
    expect(intrastate.has('insurance')).toBe(false);
    expect(intrastate.has('risk')).toBe(false);
    expect(intrastate.has('contact')).toBe(true);
  });
});

describe('persistence and reset', () => {
  it('keeps watchlist, records and overrides across re-opening the database, without re-seeding', () => {
    const dataDir = makeDataDir();
    const first = fixture(dataDir);
    first.monitoring.advance(EVENT_CYCLE_DAYS);
    const watched = storeOf(first).watched();
    const changes = storeOf(first).changes();
    const profile = profileOf(first, EXAMPLE_DOT);
    first.closeDb();

    const reopened = fixture(dataDir, addDays(NOW, 1));
    expect(storeOf(reopened).watched()).toEqual(watched);
    expect(storeOf(reopened).changes()).toEqual(changes);
    expect(profileOf(reopened, EXAMPLE_DOT)).toEqual(profile);
  });

  it('reset drops events and additions and seeds again', () => {
    const f = fixture();
    const seeded = storeOf(f)
      .watched()
      .map((w) => w.profile_id);
    const seededChanges = storeOf(f).changes().length;
    f.monitoring.advance(EVENT_CYCLE_DAYS);
    storeOf(f).deleteWatch(EXAMPLE_ID);
    f.monitoring.reset();
    expect(
      storeOf(f)
        .watched()
        .map((w) => w.profile_id),
    ).toEqual(seeded);
    expect(storeOf(f).changes()).toHaveLength(seededChanges);
    expect(profileOf(f, EXAMPLE_DOT)).toEqual(fixtureDataset().getProfile(EXAMPLE_DOT));
  });
});
