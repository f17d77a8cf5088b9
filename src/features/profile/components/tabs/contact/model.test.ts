import { describe, expect, it } from 'vitest';
import { describeChange, isRecent, RECENT_CHANGE_DAYS, type ChangeCounter } from './model.ts';

const SNAPSHOT = '2026-11-16';

describe('recent contact changes', () => {
  it('counts changes up to 90 days before the snapshot', () => {
    expect(isRecent('2026-10-26', SNAPSHOT)).toBe(true);
    expect(isRecent('2026-08-18', SNAPSHOT)).toBe(true);
    expect(RECENT_CHANGE_DAYS).toBe(90);
    expect(isRecent('2026-08-17', SNAPSHOT)).toBe(false);
    expect(isRecent(undefined, SNAPSHOT)).toBe(false);
  });

  it('counts a change dated after the snapshot as recent and says so', () => {
    expect(isRecent('2026-11-20', SNAPSHOT)).toBe(true);
    const change: ChangeCounter = {
      kind: 'phone',
      label: 'Phone',
      count: 2,
      lastChanged: '2026-11-20',
      recent: true,
      daysAgo: -4,
    };
    expect(describeChange(change, (d) => d)).toBe(
      'Phone changed 4 days after the snapshot (2026-11-20)',
    );
    expect(describeChange({ ...change, daysAgo: 21 }, (d) => d)).toBe(
      'Phone changed 21 days before the snapshot (2026-11-20)',
    );
  });
});
