import { channelOfField } from '../../../../src/lib/service/channels.ts';
import type { AppliedEvent } from '../context.ts';
import type { CarrierDataset, WireProfile } from '../data/types.ts';
import { dateOfDay, dayNumber, compactDay, isoDay } from './dates.ts';
import { PREPENDED_ARRAYS } from './overrides.ts';
import { recordValue } from './records.ts';
import { runScheduledEvent, type EventOutcome } from './script.ts';
import { EVENTS_THROUGH, type MonitoringStore, type WatchRow } from './store.ts';

/** Store what one event did: overrides for every moved field, one change record, history items. */
function persist(store: MonitoringStore, watch: WatchRow, outcome: EventOutcome, day: number) {
  const existing = store.overrides(watch.dot);
  for (const { field, current } of outcome.changes) store.setOverride(watch.dot, field, current);
  for (const [field, value] of outcome.effects) store.setOverride(watch.dot, field, value);
  for (const [field, items] of outcome.added) {
    const earlier = PREPENDED_ARRAYS.has(field) ? existing.get(field) : undefined;
    store.setOverride(watch.dot, field, [...items, ...(Array.isArray(earlier) ? earlier : [])]);
  }
  if (outcome.changes.length > 0) {
    store.insertChange(watch.profile_id, compactDay(dateOfDay(day)), outcome.changes);
  }
}

function applied(watch: WatchRow, outcome: EventOutcome, day: number): AppliedEvent[] {
  return outcome.changes.map(({ field, prior, current }) => ({
    profileId: watch.profile_id,
    dot: watch.dot,
    channel: channelOfField(field) ?? 'none',
    field,
    prior: recordValue(field, prior),
    current: recordValue(field, current),
    date: isoDay(dateOfDay(day)),
  }));
}

function runDay(
  store: MonitoringStore,
  watch: WatchRow,
  base: WireProfile,
  day: number,
): AppliedEvent[] {
  const overrides = store.overrides(watch.dot);
  const read = (field: string): unknown =>
    overrides.has(field) ? overrides.get(field) : base[field];
  const outcome = runScheduledEvent({ dot: watch.dot, day, date: dateOfDay(day), read });
  if (!outcome) return [];
  persist(store, watch, outcome, day);
  return applied(watch, outcome, day);
}

/**
 * Apply the script for the `days` sandbox days after the last day already applied (never earlier
 * than `days` before today, so events carry recent dates), to every watched carrier.
 */
export function advanceScript(
  store: MonitoringStore,
  dataset: CarrierDataset,
  now: Date,
  days: number,
  /** told each watched carrier's generated profile (before overrides) */
  onGenerated?: (dot: string, profile: WireProfile | undefined) => void,
): AppliedEvent[] {
  if (!Number.isInteger(days) || days < 0) {
    throw new RangeError(`advance needs a whole, non-negative number of days, got ${days}`);
  }
  const through = Number(store.getMeta(EVENTS_THROUGH) ?? dayNumber(now));
  const start = Math.max(through, dayNumber(now) - days);
  const events: AppliedEvent[] = [];
  store.db.transaction(() => {
    const watched = store.watched().flatMap((watch) => {
      const base = dataset.getProfile(watch.dot);
      onGenerated?.(watch.dot, base);
      return base ? [{ watch, base }] : [];
    });
    for (let day = start + 1; day <= start + days; day += 1) {
      for (const { watch, base } of watched) events.push(...runDay(store, watch, base, day));
    }
    store.setMeta(EVENTS_THROUGH, String(start + days));
  })();
  return events;
}
