import { describe, expect, it } from 'vitest';
import { inboxChangesOf } from '../../../lib/monitoring/change-id.ts';
import { readListText } from './list-reader.ts';
import { warmUpInRounds, warmUpOnce, warmUpPage } from './list-warm-up.ts';

describe('warmUpPage', () => {
  it('is a list answer the reader takes in full: every profile, every record a change', () => {
    const reading = readListText(warmUpPage(5));
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(reading.list.totalCount).toBe(5);
    expect(reading.list.profiles).toHaveLength(5);
    for (const profile of reading.list.profiles) {
      expect(profile.records).toHaveLength(12);
      // each record has at least one changed field, so the change path (ids included) is exercised
      for (const record of profile.records) expect(record.changes.length).toBeGreaterThan(0);
      // the channels the inbox files changes under are covered, as on a real page
      const channels = new Set(inboxChangesOf(profile).map((change) => change.channel));
      expect(channels.size).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('warmUpOnce', () => {
  it('reads the page and hashes its change ids', () => {
    // 12 records a profile: 3 × 1 + 3 × 2 + 3 × 1 + 3 × 2 changed fields
    expect(warmUpOnce(warmUpPage(2))).toBe(2 * 18);
  });

  it('does nothing with text that is not JSON', () => {
    expect(warmUpOnce('{"items": [')).toBe(0);
  });
});

describe('warmUpInRounds', () => {
  function manualScheduler() {
    const queue: (() => void)[] = [];
    return {
      schedule: (next: () => void) => queue.push(next),
      /** runs the queued tasks one at a time; the number run */
      drain(onTask: (ran: number) => void = () => undefined) {
        let ran = 0;
        while (queue.length > 0) {
          queue.shift()?.();
          ran += 1;
          onTask(ran);
        }
        return ran;
      },
    };
  }

  it('runs each round as its own task, then stops', () => {
    const scheduler = manualScheduler();
    warmUpInRounds(3, scheduler.schedule, () => false);
    // three reading tasks and the last one's no-op follow-up
    expect(scheduler.drain()).toBe(4);
  });

  it('stops as soon as real work came in', () => {
    const scheduler = manualScheduler();
    let busy = false;
    warmUpInRounds(10, scheduler.schedule, () => busy);
    const ran = scheduler.drain((count) => {
      if (count === 2) busy = true;
    });
    expect(ran).toBe(3);
  });
});
