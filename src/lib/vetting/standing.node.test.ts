import { describe, expect, it } from 'vitest';
import { standingOf } from './standing.ts';

describe('standingOf', () => {
  it('an approval now failing is now_fails, whatever it was approved on', () => {
    for (const verdict of ['pass', 'review', 'fail'] as const) {
      expect(standingOf({ decision: 'approved', verdict }, { verdict: 'fail' })).toBe('now_fails');
      expect(
        standingOf({ decision: 'approved_with_conditions', verdict }, { verdict: 'fail' }),
      ).toBe('now_fails');
    }
  });

  it('an approval on a Pass that is now Review is now_review; an override of a Review holds', () => {
    expect(standingOf({ decision: 'approved', verdict: 'pass' }, { verdict: 'review' })).toBe(
      'now_review',
    );
    expect(standingOf({ decision: 'approved', verdict: 'review' }, { verdict: 'review' })).toBe(
      'holds',
    );
    expect(
      standingOf({ decision: 'approved_with_conditions', verdict: 'fail' }, { verdict: 'review' }),
    ).toBe('holds');
    expect(standingOf({ decision: 'approved', verdict: 'review' }, { verdict: 'pass' })).toBe(
      'holds',
    );
  });

  it('a rejection holds until the carrier passes when it did not pass before', () => {
    for (const decision of ['rejected', 'do_not_use']) {
      expect(standingOf({ decision, verdict: 'fail' }, { verdict: 'pass' })).toBe('now_passes');
      expect(standingOf({ decision, verdict: 'review' }, { verdict: 'pass' })).toBe('now_passes');
      expect(standingOf({ decision, verdict: 'pass' }, { verdict: 'pass' })).toBe('holds');
      expect(standingOf({ decision, verdict: 'fail' }, { verdict: 'review' })).toBe('holds');
      expect(standingOf({ decision, verdict: 'pass' }, { verdict: 'fail' })).toBe('holds');
    }
  });

  it('nothing held is unknown', () => {
    expect(standingOf({ decision: 'approved', verdict: 'pass' }, null)).toBe('unknown');
    expect(standingOf({ decision: 'rejected', verdict: 'fail' }, null)).toBe('unknown');
  });
});
