import { describe, expect, it } from 'vitest';
import { standingOf } from './standing.ts';

describe('standingOf', () => {
  it('without reasons, an approval now failing is now_fails, whatever it was approved on', () => {
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

  it('an override holds while only the rules it accepted fire, and not once another one does', () => {
    const failedOn = [
      { rule: 'usdot_status', outcome: 'fail' as const },
      { rule: 'new_entrant', outcome: 'review' as const },
      { rule: 'basic_alerts', outcome: 'pass' as const },
    ];
    const approved = { decision: 'approved', verdict: 'fail' as const, reasons: failedOn };
    // the same Fail, the same Review: what the approval accepted
    expect(standingOf(approved, { verdict: 'fail', reasons: failedOn.slice(0, 2) })).toBe('holds');
    // a Fail on a rule the approval did not accept
    expect(
      standingOf(approved, {
        verdict: 'fail',
        reasons: [...failedOn.slice(0, 2), { rule: 'bipd_insurance', outcome: 'fail' }],
      }),
    ).toBe('now_fails');
    // a rule accepted as Review that now fails is news too
    expect(
      standingOf(approved, {
        verdict: 'fail',
        reasons: [{ rule: 'new_entrant', outcome: 'fail' }],
      }),
    ).toBe('now_fails');
    // a Review on a rule not accepted (the Fail gone)
    expect(
      standingOf(approved, {
        verdict: 'review',
        reasons: [{ rule: 'oos_rates', outcome: 'review' }],
      }),
    ).toBe('now_review');
    // an approval of a Review (4418207, new entrant) that now fails on shared identifiers
    const review = {
      decision: 'approved_with_conditions',
      verdict: 'review' as const,
      reasons: [
        { rule: 'new_entrant', outcome: 'review' as const },
        { rule: 'shared_identifiers', outcome: 'review' as const },
      ],
    };
    expect(
      standingOf(review, {
        verdict: 'fail',
        reasons: [{ rule: 'shared_identifiers', outcome: 'fail' }],
      }),
    ).toBe('now_fails');
    expect(
      standingOf(review, {
        verdict: 'review',
        reasons: [{ rule: 'new_entrant', outcome: 'review' }],
      }),
    ).toBe('holds');
  });
});
