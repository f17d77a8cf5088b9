import type { Ledger } from '../context.ts';
import { monthOf, monthsAfter, startOfMonth } from './dates.ts';
import type { MonitoringStore } from './store.ts';

interface Due {
  profileId: string;
  dot: string;
  key: string;
  months: string[];
}

/** Watched profiles with a billed key whose last billed month is before `month`. */
function dueProfiles(store: MonitoringStore, month: string): Due[] {
  return store.watched().flatMap((watch) => {
    if (watch.billed_key === null || watch.billed_through === null) return [];
    const months = monthsAfter(watch.billed_through, month);
    if (months.length === 0) return [];
    return [{ profileId: watch.profile_id, dot: watch.dot, key: watch.billed_key, months }];
  });
}

/**
 * Month rollover: every watched profile with a billed key is charged once for each calendar month
 * since the last one billed, dated the first of that month. Runs before every monitoring request and
 * on advance, so a carrier watched into a new month is billed even if nobody re-adds it.
 */
export function billRollover(store: MonitoringStore, ledger: Ledger, now: Date): void {
  const month = monthOf(now);
  const due = dueProfiles(store, month);
  if (due.length === 0) return;
  store.db.transaction(() => {
    for (const { profileId, dot, key, months } of due) {
      for (const billed of months) ledger.charge(key, 'monitoring', startOfMonth(billed), dot);
      store.setBilledThrough(profileId, month);
    }
  })();
}
