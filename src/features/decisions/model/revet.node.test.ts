import { describe, expect, it } from 'vitest';
import { dueWords, isRevetView, revetCountWords } from './revet.ts';

describe('the re-vet queue in words', () => {
  it('counts whole UTC days from the proxy’s today', () => {
    expect(dueWords('2026-11-26', '2026-11-29')).toBe('overdue by 3 days');
    expect(dueWords('2026-11-28', '2026-11-29')).toBe('overdue by 1 day');
    expect(dueWords('2026-11-29', '2026-11-29')).toBe('due today');
    expect(dueWords('2026-11-30', '2026-11-29')).toBe('due in 1 day');
    // across the March clock change (a 23-hour day in many zones, not in UTC)
    expect(dueWords('2027-03-20', '2027-03-06')).toBe('due in 14 days');
  });

  it('names the count and the overdue part', () => {
    expect(revetCountWords(0, 1)).toBe('1 decision due for re-vet');
    expect(revetCountWords(1, 2)).toBe('3 decisions due for re-vet (1 overdue)');
  });

  it('is the Decisions page’s view with ?revet=due only', () => {
    expect(isRevetView(new URLSearchParams('revet=due'))).toBe(true);
    expect(isRevetView(new URLSearchParams('revet=1'))).toBe(false);
    expect(isRevetView(new URLSearchParams(''))).toBe(false);
  });
});
